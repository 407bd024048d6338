// The umpire's page: each line is sent with the token in the address's
// fragment (never sent by the browser itself, never in a log), and with
// an Idempotency-Key of its own: a line the page sends again (after a
// dropped connection, a timeout, or the umpire pressing Send again on a
// line that was not answered) carries the same key, so the server
// applies it once and answers the retry with its first answer. Each
// answer is shown as the feed shows it (the server writes it: the line,
// its whole stack, its outcome, or its error with the words at fault
// marked), newest first.
(function () {
  "use strict";
  var token = location.hash.replace(/^#/, "");
  var form = document.getElementById("umpire");
  var input = document.getElementById("line");
  var answers = document.getElementById("answers");
  // The line sent last and its key, until it has an answer.
  var pending = null;
  // Tries of one line, the first included, one second apart.
  var TRIES = 3;

  function put(node) {
    var empty = document.getElementById("answers-empty");
    if (empty) { empty.parentNode.removeChild(empty); }
    answers.insertBefore(node, answers.firstChild);
  }

  // A fragment of this server's HTML (it escapes what it quotes).
  function shown(html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    var a = t.content.firstElementChild;
    if (a) { put(a); }
  }

  // A word from the page itself: no answer came.
  function say(line, text) {
    var a = document.createElement("article");
    a.className = "entry reply";
    var h = document.createElement("h3");
    var l = document.createElement("span");
    l.className = "line";
    l.textContent = line;
    h.appendChild(l);
    a.appendChild(h);
    var p = document.createElement("p");
    p.className = "answer error message";
    p.textContent = text;
    a.appendChild(p);
    put(a);
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
        "Accept": "text/html",
        "Authorization": "Bearer " + token,
        "Content-Type": "text/plain; charset=utf-8",
        "Idempotency-Key": key
      },
      body: line
    }).then(function (r) {
      var html = (r.headers.get("Content-Type") || "").indexOf("text/html") === 0;
      return r.text().then(function (t) { return { status: r.status, text: t, html: html }; });
    }, function () {
      return { status: 0, text: "", html: false };
    }).then(function (r) {
      if (unsettled(r.status) && left > 1) {
        setTimeout(function () { send(line, key, left - 1); }, 1000);
        return;
      }
      if (unsettled(r.status)) {
        say(line, "not sent (" + (r.status || "no connection") +
          "): press Resolve again; the line is applied once");
        return;
      }
      if (pending && pending.key === key) { pending = null; }
      if (r.html) {
        shown(r.text);
      } else {
        var why = r.status + " " + r.text;
        try { why = JSON.parse(r.text).error || why; } catch (x) { /* as it came */ }
        if (r.status === 401) {
          why += ": open the umpire's address the server printed, with its #token";
        }
        say(line, "refused: " + why);
      }
      if (r.status === 200 && input.value.replace(/[\r\n]+/g, " ").trim() === line) { input.value = ""; }
    });
  }

  // A line is one line: Enter sends it (the box only wraps it).
  input.addEventListener("keydown", function (e) {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      form.requestSubmit();
    }
  });

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var line = input.value.replace(/[\r\n]+/g, " ").trim();
    // The same line again before it was answered is the same line sent
    // again, not a second one.
    if (!pending || pending.line !== line) {
      pending = { line: line, key: newKey() };
    }
    send(line, pending.key, TRIES);
  });
})();
