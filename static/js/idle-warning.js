// The idle warning (accounts.middleware.IdleTimeoutMiddleware): shown a little before the session's
// idle limit; "Stay signed in" sends one request, which counts as activity. Any page load starts over.
(function () {
  "use strict";
  var box = document.getElementById("idle-warning");
  if (!box) { return; }
  var idle = parseInt(box.getAttribute("data-idle-seconds"), 10) * 1000;
  var warn = parseInt(box.getAttribute("data-warn-seconds"), 10) * 1000;
  var left = box.querySelector("[data-idle-left]");
  var form = box.querySelector("[data-idle-keepalive]");
  var started = Date.now();

  function minutes(ms) {
    var m = Math.max(1, Math.ceil(ms / 60000));
    return m + (m === 1 ? " minute" : " minutes");
  }

  function tick() {
    var remaining = idle - (Date.now() - started);
    if (remaining <= 0) {
      window.location.reload(); // the server has ended the session: the sign-in page says so
      return;
    }
    if (remaining <= warn) {
      left.textContent = minutes(remaining);
      box.hidden = false;
    }
  }

  function restart() {
    started = Date.now();
    box.hidden = true;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" })
      .then(function (response) { if (response.ok) { restart(); } else { window.location.reload(); } });
  });
  document.body.addEventListener("htmx:afterRequest", restart); // htmx requests count as activity
  window.setInterval(tick, 15000);
})();
