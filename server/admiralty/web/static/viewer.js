/* The match viewer: it shows frames the server made (each board an SVG drawing of the
   engine's own view, each log line the console's words) and moves between them. It knows
   no rule of any game. Frames come from one of three sources: the server's frames API (a
   recorded match), the frames embedded in an exported page, or a live stream of
   server-sent events (a match being played). */
"use strict";

(() => {
  const root = document.getElementById("viewer");
  if (!root) return;

  const CHUNK = 50; // boards per API request
  const KEEP = 12; // chunks of boards kept in memory
  const BEHIND = 20; // stepping back this near a chunk's start fetches the chunk before
  const byId = (id) => document.getElementById(id);
  const el = {
    board: byId("board"),
    log: byId("log"),
    decision: byId("decision"),
    seek: byId("seek"),
    marks: byId("marks"),
    status: byId("status"),
    play: byId("play-button"),
    speed: byId("speed"),
    note: byId("viewer-note"),
    title: byId("viewer-title"),
    legend: byId("legend"),
    legendButton: byId("legend-button"),
    incidents: byId("incidents"),
    incidentList: byId("incident-list"),
    result: byId("result"),
    resultTable: byId("result-table"),
    resultNote: byId("result-note"),
    seat: byId("seat-select"),
    roundLabel: byId("round-label"),
  };

  const state = {
    header: null,
    texts: [], // every frame but its board: step, round, log, decision, incidents
    lines: [], // each frame's log <li>s
    incidentFrames: [],
    decisionFrames: [], // frames holding the seat's decision, asked or not
    boards: { board: () => undefined, want: () => Promise.resolve() },
    position: 0,
    drawn: -1, // the frame whose board is on screen
    panel: -1, // the frame whose decision the panel shows
    current: -1, // the frame whose log lines are marked current
    playing: false,
    timer: 0,
    follow: true, // live: show each new frame as it comes
    live: false,
    message: "",
    numbered: null, // "round" or "step" while a number is typed after g or s
    typing: "",
  };

  const last = () => state.texts.length - 1;
  const make = (tag, text, cls) => {
    const node = document.createElement(tag);
    if (text !== undefined) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  };
  const name = (seat) => (state.header ? state.header.names[seat] : `seat ${seat + 1}`);

  // ------------------------------------------------------------------ the header

  function setHeader(header) {
    state.header = header;
    if (state.live) {
      el.title.textContent = header.title;
      document.title = `${header.title} · admiralty`;
    }
    if (el.roundLabel) el.roundLabel.textContent = header.round_key;
    if (header.viewer !== null) {
      el.note.textContent =
        `As seat ${header.viewer + 1} (${name(header.viewer)}) saw it: ` +
        "its own cards, requests and answers.";
    } else if (state.live) {
      el.note.textContent = "Live: each step is shown as it is played.";
    }
    fillSeats(header);
  }

  function fillSeats(header) {
    if (!el.seat) return;
    el.seat.replaceChildren(make("option", "public"));
    el.seat.firstChild.value = "";
    header.seats.forEach((_, seat) => {
      const option = make("option", `seat ${seat + 1} · ${name(seat)}`);
      option.value = String(seat);
      option.selected = header.viewer === seat;
      el.seat.append(option);
    });
  }

  // ------------------------------------------------------------------ the log

  function frameLines(index, text) {
    const lines = [];
    const decision = text.decision;
    if (decision && decision.asked) {
      const [key, label] = decision.options[decision.chosen];
      lines.push(
        make("li", `▶ ${name(decision.seat)} · ${decision.kind}: ${key} “${label}”${how(decision, " in {} ms", " applied by the referee", " · {}")}`, "decided"),
      );
    }
    for (const incident of text.incidents) {
      lines.push(
        make("li", `⚠ step ${text.step}, ${state.header.round_key} ${text.round}: ${name(incident.seat)} ${incident.kind}: ${incident.detail}`, "incident"),
      );
    }
    for (const line of text.log) {
      lines.push(make("li", line, line.startsWith("— ") ? "more" : undefined));
    }
    for (const line of lines) {
      line.dataset.frame = String(index);
      line.hidden = index > state.position;
    }
    return lines;
  }

  function how(decision, answered, incident, other) {
    if (decision.how === "bot") return answered.replace("{}", decision.latency_ms.toFixed(0));
    if (decision.how === "incident") return incident;
    return other.replace("{}", state.header.how[decision.how] || decision.how);
  }

  function setTexts(texts) {
    state.texts = [];
    state.lines = [];
    state.incidentFrames = [];
    state.decisionFrames = [];
    state.current = -1;
    state.panel = -1;
    el.log.replaceChildren();
    texts.forEach(append);
    drawMarks();
  }

  function append(text) {
    const index = state.texts.length;
    state.texts.push(text);
    const lines = frameLines(index, text);
    state.lines.push(lines);
    el.log.append(...lines);
    if (text.incidents.length) {
      state.incidentFrames.push(index);
      listIncidents(index, text);
    }
    if (text.decision) state.decisionFrames.push(index);
    el.seek.max = String(Math.max(0, last()));
  }

  function revealLog(from, to) {
    const [low, high, hide] = from < to ? [from + 1, to, false] : [to + 1, from, true];
    for (let frame = low; frame <= high; frame += 1) {
      for (const line of state.lines[frame] || []) line.hidden = hide;
    }
    let shown = to;
    while (shown > 0 && !state.lines[shown].length) shown -= 1;
    if (shown !== state.current) {
      for (const line of state.lines[state.current] || []) line.classList.remove("current");
      for (const line of state.lines[shown] || []) line.classList.add("current");
      state.current = shown;
    }
    el.log.scrollTop = el.log.scrollHeight;
  }

  // ------------------------------------------------------------------ incidents and the timeline

  function listIncidents(index, text) {
    el.incidents.hidden = false;
    for (const incident of text.incidents) {
      const item = make("li");
      const jump = make("button", `step ${text.step}`, "link");
      jump.type = "button";
      jump.addEventListener("click", () => go(index));
      item.append("⚠ ", jump, ` ${name(incident.seat)} ${incident.kind}: ${incident.detail}`);
      el.incidentList.append(item);
    }
  }

  function drawMarks() {
    el.marks.replaceChildren();
    const span = Math.max(1, last());
    for (const index of state.incidentFrames) {
      const mark = make("button", "⚠", "mark");
      mark.type = "button";
      mark.title = `step ${state.texts[index].step}: incident`;
      mark.setAttribute("aria-label", `incident at step ${state.texts[index].step}`);
      mark.style.left = `${(100 * index) / span}%`;
      mark.addEventListener("click", () => go(index));
      el.marks.append(mark);
    }
  }

  // ------------------------------------------------------------------ the seat's decision

  function latestDecision(position) {
    const frames = state.decisionFrames;
    let low = 0;
    let high = frames.length - 1;
    let found = -1;
    while (low <= high) {
      const middle = (low + high) >> 1;
      if (frames[middle] <= position) {
        found = frames[middle];
        low = middle + 1;
      } else high = middle - 1;
    }
    return found;
  }

  function showDecision(position) {
    if (!state.header || state.header.viewer === null) return;
    const frame = latestDecision(position);
    if (frame === state.panel && !el.decision.hidden) return;
    state.panel = frame;
    el.decision.hidden = false;
    const parts = [make("h2", `Seat ${state.header.viewer + 1}’s eye: ${name(state.header.viewer)}`)];
    if (frame < 0) {
      parts.push(make("p", "Not asked yet.", "dim"));
      el.decision.replaceChildren(...parts);
      return;
    }
    const text = state.texts[frame];
    const decision = text.decision;
    parts.push(make("p", `step ${text.step} · ${decision.kind}`, "request"));
    parts.push(make("p", decision.prompt, "prompt"));
    parts.push(make("p", how(decision, "answered in {} ms", "no valid answer: the referee applied ▶", "{}").trim(), "how"));
    const options = make("ol", undefined, "options");
    decision.options.forEach(([key, label], index) => {
      const chosen = index === decision.chosen;
      const item = make("li", `${chosen ? "▶" : "\u2003"} ${index}. ${key} — ${label}`, chosen ? "chosen" : undefined);
      if (chosen) item.setAttribute("aria-current", "true");
      options.append(item);
    });
    parts.push(options);
    for (const incident of text.incidents) {
      parts.push(make("p", `⚠ ${incident.kind}: ${incident.detail}`, "incident"));
    }
    el.decision.replaceChildren(...parts);
    const chosen = options.querySelector(".chosen");
    if (chosen) options.scrollTop = chosen.offsetTop - options.clientHeight / 2;
  }

  // ------------------------------------------------------------------ the result

  function showResult(visible) {
    const header = state.header;
    const shown = Boolean(visible && header && (header.result || header.ending));
    el.result.hidden = !shown;
    if (!shown || el.result.dataset.filled) return;
    el.result.dataset.filled = "1";
    if (!header.result) {
      el.resultNote.textContent = header.ending;
      return;
    }
    const head = make("tr");
    for (const column of ["place", "seat", "bot", "score"]) {
      const cell = make("th", column);
      cell.scope = "col";
      head.append(cell);
    }
    const rows = [...header.result.placements].sort((a, b) => a.place - b.place || a.seat - b.seat);
    const body = rows.map((placement) => {
      const row = make("tr");
      row.append(
        make("td", String(placement.place), "num"),
        make("td", String(placement.seat + 1), "num"),
        make("td", name(placement.seat) + (placement.forfeited ? " (forfeited)" : "")),
        make("td", String(placement.score), "num"),
      );
      return row;
    });
    el.resultTable.replaceChildren(make("thead"), make("tbody"));
    el.resultTable.tHead.append(head);
    el.resultTable.tBodies[0].append(...body);
    const incidents = header.result.incidents || [];
    el.resultNote.textContent = incidents.length
      ? `${incidents.length} incident${incidents.length > 1 ? "s" : ""}: ` +
        incidents.map((i) => `${name(i.seat)} ${i.kind}`).join(", ")
      : "";
  }

  // ------------------------------------------------------------------ moving

  function go(target, keepPlaying = false) {
    if (!state.texts.length) return;
    const position = Math.max(0, Math.min(last(), target));
    if (!keepPlaying) pause();
    revealLog(state.position, position);
    state.position = position;
    state.follow = position === last();
    el.seek.value = String(position);
    drawBoard(position);
    showDecision(position);
    showResult(position === last() && (!state.live || (state.header && state.header.result)));
    status();
  }

  function drawBoard(position) {
    const svg = state.boards.board(position);
    if (svg !== undefined) {
      if (state.drawn !== position) el.board.innerHTML = svg;
      state.drawn = position;
    } else {
      el.board.classList.add("loading");
    }
    state.boards.want(position).then(
      () => {
        if (state.position === position && state.drawn !== position) {
          el.board.innerHTML = state.boards.board(position);
          state.drawn = position;
        }
        if (state.position === position) el.board.classList.remove("loading");
      },
      (error) => say(`The board could not be loaded: ${error.message}`),
    );
  }

  function adds(index) {
    return state.lines[index].length > 0;
  }

  function tick() {
    let next = state.position + 1;
    while (next < last() && !adds(next)) next += 1;
    if (next > last()) {
      pause();
      return;
    }
    go(next, true);
    if (state.position >= last()) pause();
    else state.timer = window.setTimeout(tick, 1000 / Number(el.speed.value));
  }

  function play() {
    if (state.position >= last()) return;
    state.playing = true;
    el.play.textContent = "❚❚ Pause";
    el.play.setAttribute("aria-pressed", "true");
    tick();
  }

  function pause() {
    state.playing = false;
    window.clearTimeout(state.timer);
    el.play.textContent = "▶ Play";
    el.play.setAttribute("aria-pressed", "false");
    status();
  }

  function find(wanted, what) {
    for (let index = state.position + 1; index <= last(); index += 1) {
      if (wanted(state.texts[index])) return go(index);
    }
    say(`no further ${what}`);
  }

  function jump(kind, number) {
    const key = kind === "round" ? "round" : "step";
    const index = state.texts.findIndex((text) => text[key] >= number);
    go(index < 0 ? last() : index);
  }

  function nextDecision() {
    if (state.header && state.header.viewer === null) {
      say(el.seat ? "d follows a seat's decisions: choose a seat's view" : "d follows a seat's decisions");
      return;
    }
    find((text) => text.decision && text.decision.asked, "decision");
  }

  function toggleLegend() {
    el.legend.hidden = !el.legend.hidden;
    el.legendButton.setAttribute("aria-expanded", String(!el.legend.hidden));
  }

  function say(message) {
    state.message = message;
    status();
  }

  function status() {
    if (!state.header || !state.texts.length) return;
    const text = state.texts[state.position];
    let line =
      `step ${text.step}/${state.texts[last()].step} · ${state.header.round_key} ${text.round}` +
      ` · ${state.playing ? "playing" : "paused"}`;
    if (state.numbered) {
      const what = state.numbered === "round" ? state.header.round_key : "step";
      line += ` · ${what} ${state.typing}_ (Enter)`;
    }
    if (state.message) line += ` · ${state.message}`;
    el.status.textContent = line;
  }

  // ------------------------------------------------------------------ controls and keys

  function bind() {
    byId("back-button").addEventListener("click", () => go(state.position - 1));
    byId("next-button").addEventListener("click", () => go(state.position + 1));
    el.play.addEventListener("click", () => (state.playing ? pause() : play()));
    el.seek.addEventListener("input", () => go(Number(el.seek.value)));
    el.legendButton.addEventListener("click", toggleLegend);
    for (const [form, kind] of [["round-form", "round"], ["step-form", "step"]]) {
      byId(form).addEventListener("submit", (event) => {
        event.preventDefault();
        const value = byId(`${kind}-input`).value;
        if (value !== "") jump(kind, Number(value));
      });
    }
    if (el.seat) el.seat.addEventListener("change", () => {
      const query = el.seat.value === "" ? "" : `?seat=${el.seat.value}`;
      window.location.assign(`${window.location.pathname}${query}#frame=${state.position}`);
    });
    document.addEventListener("keydown", key);
  }

  const COMMANDS = {
    " ": () => (state.playing ? pause() : play()),
    ArrowRight: () => go(state.position + 1),
    n: () => go(state.position + 1),
    ArrowLeft: () => go(state.position - 1),
    p: () => go(state.position - 1),
    d: nextDecision,
    i: () => find((text) => text.incidents.length > 0, "incident"),
    l: toggleLegend,
  };
  const NUMBERED = { g: "round", s: "step" };

  function key(event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const target = event.target;
    if (target.closest && target.closest("input:not([type=range]), select, textarea")) return;
    if (target.type === "range" && event.key.startsWith("Arrow")) return; // the slider's own
    if (state.numbered) {
      event.preventDefault();
      if (/^[0-9]$/.test(event.key)) state.typing += event.key;
      else {
        const [kind, typed] = [state.numbered, state.typing];
        state.numbered = null;
        state.typing = "";
        if (event.key === "Enter" && typed) jump(kind, Number(typed));
      }
      status();
      return;
    }
    if ((event.key === " " || event.key === "Enter") && target.closest && target.closest("button")) return;
    state.message = "";
    if (NUMBERED[event.key]) {
      state.numbered = NUMBERED[event.key];
      state.typing = "";
      status();
    } else if (COMMANDS[event.key]) {
      COMMANDS[event.key]();
      status();
    } else return;
    event.preventDefault();
  }

  // ------------------------------------------------------------------ the sources

  function apiBoards(url) {
    const chunks = new Map();
    const loading = new Map();
    const join = url.includes("?") ? "&" : "?";
    const load = (chunk) => {
      if (chunks.has(chunk)) {
        const boards = chunks.get(chunk);
        chunks.delete(chunk);
        chunks.set(chunk, boards); // the most recently used last
        return Promise.resolve();
      }
      if (!loading.has(chunk)) {
        const request = fetch(`${url}${join}start=${chunk * CHUNK}&count=${CHUNK}`, {
          credentials: "same-origin",
        })
          .then((response) => {
            if (!response.ok) throw new Error(`the server answered ${response.status}`);
            return response.json();
          })
          .then((data) => {
            chunks.set(chunk, data.frames.map((frame) => frame.svg));
            while (chunks.size > KEEP) chunks.delete(chunks.keys().next().value);
          })
          .finally(() => loading.delete(chunk));
        loading.set(chunk, request);
      }
      return loading.get(chunk);
    };
    return {
      board(index) {
        const boards = chunks.get(Math.floor(index / CHUNK));
        return boards ? boards[index % CHUNK] : undefined;
      },
      want(index) {
        const chunk = Math.floor(index / CHUNK);
        const wanted = load(chunk);
        const next = [];
        if ((chunk + 1) * CHUNK <= last()) next.push(chunk + 1);
        if (chunk > 0 && index % CHUNK < BEHIND) next.push(chunk - 1);
        const prefetch = () => next.forEach((other) => load(other).catch(() => {}));
        wanted.then(prefetch, () => {}); // after the wanted chunk, not competing with it
        return wanted;
      },
    };
  }

  function fromHash() {
    const match = /^#frame=([0-9]+)$/.exec(window.location.hash);
    return match ? Number(match[1]) : 0;
  }

  function start() {
    setTexts(state.texts);
    bind();
    go(fromHash());
    root.dataset.ready = "true"; // keys and controls answer from now on
  }

  async function fromApi() {
    state.boards = apiBoards(root.dataset.framesUrl);
    const first = state.boards.want(0).catch(() => {}); // fetched beside the log
    const response = await fetch(root.dataset.logUrl, { credentials: "same-origin" });
    if (!response.ok) throw new Error(`the server answered ${response.status}`);
    state.texts = (await response.json()).frames;
    await first; // frame 0 is in the page; with the first chunk in, the first steps are instant
    start();
  }

  async function fromExport(node) {
    const bytes = Uint8Array.from(atob(node.textContent.trim()), (c) => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
    const data = JSON.parse(await new Response(stream).text());
    const boards = data.frames.map((frame) => frame.svg);
    state.boards = {
      board: (index) => boards[index].map((piece) => data.pieces[piece]).join(""),
      want: () => Promise.resolve(),
    };
    state.texts = data.frames.map(({ svg, ...text }) => text);
    start();
  }

  function fromLive(url) {
    state.live = true;
    const boards = [];
    state.boards = { board: (index) => boards[index], want: () => Promise.resolve() };
    bind();
    root.dataset.ready = "true";
    const events = new EventSource(url);
    events.addEventListener("header", (event) => {
      boards.length = 0; // a reconnected stream starts again
      el.incidentList.replaceChildren();
      state.position = 0;
      state.drawn = -1;
      setHeader(JSON.parse(event.data));
      setTexts([]);
    });
    events.addEventListener("frame", (event) => {
      const { svg, ...text } = JSON.parse(event.data);
      const following = state.follow;
      boards.push(svg);
      append(text);
      if (text.incidents.length) drawMarks();
      if (following) go(last(), state.playing);
      else status();
    });
    events.addEventListener("result", (event) => {
      if (!state.header) return;
      state.header.result = JSON.parse(event.data);
      if (state.position === last()) showResult(true);
    });
    events.addEventListener("failure", (event) => say(JSON.parse(event.data).message));
    events.addEventListener("end", () => {
      events.close();
      el.note.textContent = state.header
        ? "The match is over: step through it as a replay."
        : "The match ended before it started.";
    });
  }

  state.drawn = el.board.querySelector("svg") ? 0 : -1; // frame 0's board, if drawn here
  const failed = (error) => say(`The frames could not be loaded: ${error.message}`);
  const data = byId("match-data");
  if (data) setHeader(JSON.parse(data.textContent));
  const embedded = byId("match-frames");
  if (embedded) fromExport(embedded).catch(failed);
  else if (root.dataset.source === "live") fromLive(root.dataset.eventsUrl);
  else fromApi().catch(failed);
})();
