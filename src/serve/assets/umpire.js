// The umpire's page: each line is sent with the token in the address's
// fragment (never sent by the browser itself, never in a log), and with
// an Idempotency-Key of its own: a line the page sends again (after a
// dropped connection, a timeout, or the umpire pressing Send again on a
// line that was not answered) carries the same key, so the server
// applies it once and answers the retry with its first answer.
(function () {
  "use strict";
  var token = location.hash.replace(/^#/, "");
  var form = document.getElementById("umpire");
  var input = document.getElementById("line");
  var answer = document.getElementById("answer");
  // The line sent last and its key, until it has an answer.
  var pending = null;
  // Tries of one line, the first included, one second apart.
  var TRIES = 3;

  function say(text) {
    var p = document.createElement("pre");
    p.textContent = text;
    answer.insertBefore(p, answer.firstChild);
  }

  // 16 random bytes in hex (crypto.randomUUID needs https, which a
  // club's own network does not have).
  function newKey() {
    var bytes = new Uint8Array(16);
    crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) {
      return (b < 16 ? "0" : "") + b.toString(16);
    }).join("");
  }

  // Not answered for good: the line may or may not have been applied,
  // and only its key can tell.
  function unsettled(status) {
    return status === 0 || status === 408 || status === 502 || status === 503 || status === 504;
  }

  function send(line, key, left) {
    fetch("lines", {
      method: "POST",
      headers: {
        "Authorization": "Bearer " + token,
        "Content-Type": "text/plain; charset=utf-8",
        "Idempotency-Key": key
      },
      body: line
    }).then(function (r) {
      return r.text().then(function (t) { return { status: r.status, text: t }; });
    }, function () {
      return { status: 0, text: "" };
    }).then(function (r) {
      if (unsettled(r.status) && left > 1) {
        setTimeout(function () { send(line, key, left - 1); }, 1000);
        return;
      }
      if (unsettled(r.status)) {
        say("not sent (" + (r.status || "no connection") + "): press Send again; it is applied once");
        return;
      }
      if (pending && pending.key === key) { pending = null; }
      var said;
      try {
        var j = JSON.parse(r.text);
        said = j.error ? "refused: " + j.error
          : line + (j.outcome ? " → " + (j.outcome.text || j.outcome.id || JSON.stringify(j.outcome)) : " done");
      } catch (x) { said = r.status + " " + r.text; }
      say(said);
      if (r.status === 200 && input.value === line) { input.value = ""; }
    });
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var line = input.value;
    // The same line again before it was answered is the same line sent
    // again, not a second one.
    if (!pending || pending.line !== line) {
      pending = { line: line, key: newKey() };
    }
    send(line, pending.key, TRIES);
  });
})();
