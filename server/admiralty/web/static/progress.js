// A running tournament's page: reload it when its progress changes (a match finished, or
// the tournament stopped). The server renders everything; this only asks whether to.
"use strict";
(function () {
  const line = document.getElementById("progress");
  if (!line || line.dataset.state !== "running") return;
  const every = 3000;
  async function check() {
    try {
      const response = await fetch(line.dataset.api, { cache: "no-store" });
      if (response.ok) {
        const now = await response.json();
        if (now.state !== line.dataset.state || String(now.played) !== line.dataset.played) {
          window.location.reload();
          return;
        }
      }
    } catch (error) {
      // the server is away for now: try again later
    }
    setTimeout(check, every);
  }
  setTimeout(check, every);
})();
