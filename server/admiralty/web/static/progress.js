// A page that changes while it is open (a running tournament, an arena): #progress names
// a small JSON answer (data-poll) and the one the page was made from (data-seen); the
// page reloads when the answer changes (a match started or finished, the tournament
// stopped). The server renders everything; this only asks whether to.
"use strict";
(function () {
  const line = document.getElementById("progress");
  if (!line || !line.dataset.poll) return;
  const every = 3000;
  const seen = JSON.stringify(JSON.parse(line.dataset.seen));
  async function check() {
    try {
      const response = await fetch(line.dataset.poll, { cache: "no-store" });
      if (response.ok && JSON.stringify(await response.json()) !== seen) {
        window.location.reload();
        return;
      }
    } catch (error) {
      // the server is away for now: try again later
    }
    setTimeout(check, every);
  }
  setTimeout(check, every);
})();
