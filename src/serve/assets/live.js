// A game's page, live: each entry the server reads from the journal is
// put on top as it comes, an entry an undo took back is marked so, the
// roster and the turn follow, and the bar says whether the page is live.
// The odds form answers in place. (The page works without this, as it
// was loaded.) Every fragment put in comes from this server, which
// escapes what it quotes; nothing here runs what a fragment holds.
(function () {
  "use strict";
  var body = document.body;
  var feed = document.getElementById("feed");
  var connection = document.getElementById("connection");
  var pending = null;
  var lostAt = null;
  var source = null;
  // Seconds without the server before the page says it may be elsewhere.
  var LONG = 15000;

  function say(state, text) {
    body.setAttribute("data-live", state);
    if (connection) { connection.textContent = text; }
  }

  // A fragment of this server's HTML as nodes.
  function nodes(html) {
    var t = document.createElement("template");
    t.innerHTML = html;
    return t.content;
  }

  // A note said under every answer alike (the example CRT's warning)
  // shows once, on the newest entry that has it.
  function noteOnce() {
    var seen = {};
    var all = document.querySelectorAll("details.standing[data-note]");
    for (var i = 0; i < all.length; i++) {
      var key = all[i].getAttribute("data-note");
      all[i].hidden = seen[key] === true;
      seen[key] = true;
    }
  }

  function markUndone(n) {
    var a = document.getElementById("entry-" + n);
    if (!a || a.hasAttribute("data-undone")) { return; }
    a.setAttribute("data-undone", "");
    var p = document.createElement("p");
    p.className = "undone-mark";
    p.textContent = "undone: a later undo took this back";
    var h = a.querySelector("h3");
    a.insertBefore(p, h ? h.nextSibling : a.firstChild);
  }

  function onEntry(m) {
    var d;
    try { d = JSON.parse(m.data); } catch (e) { return; }
    var id = m.lastEventId;
    if (d.undoes) { markUndone(d.undoes); }
    body.setAttribute("data-after", id);
    if (pending === null) { pending = setTimeout(refresh, 150); }
    if (!feed || document.getElementById("entry-" + id)) { return; }
    var a = nodes(d.html).firstElementChild;
    if (!a) { return; }
    a.setAttribute("data-arrived", String(Date.now()));
    feed.insertBefore(a, feed.firstChild);
    noteOnce();
    var empty = document.getElementById("feed-empty");
    if (empty) { empty.parentNode.removeChild(empty); }
  }

  // The roster and the turn as they stand now.
  function refresh() {
    pending = null;
    var roster = document.getElementById("roster-now");
    if (!roster) { return; }
    fetch("roster.html", { headers: { "Accept": "text/html" } }).then(function (r) {
      if (!r.ok) { throw new Error(String(r.status)); }
      return r.text();
    }).then(function (html) {
      var now = nodes(html).firstElementChild;
      if (!now || now.id !== "roster-now") { return; }
      roster.parentNode.replaceChild(now, roster);
      var turn = document.getElementById("turn");
      if (turn) { turn.textContent = now.getAttribute("data-turn") || turn.textContent; }
    }).catch(function () {});
  }

  function lost() {
    if (lostAt === null) { lostAt = Date.now(); }
    if (Date.now() - lostAt < LONG) {
      say("closed", "disconnected — reconnecting…");
    } else {
      say("closed", "disconnected: the server does not answer at this address. " +
        "If it was started again on another address, open the address it printed " +
        "(or scan its code); this page keeps trying here.");
    }
  }

  function connect() {
    if (!window.EventSource) { return; }
    var after = body.getAttribute("data-after") || "0";
    source = new EventSource("events?with=text&after=" + encodeURIComponent(after));
    source.onopen = function () {
      lostAt = null;
      say("open", "live");
      // Back after a break: the roster may have moved meanwhile.
      refresh();
    };
    source.onerror = function () {
      lost();
      // Closed for good (the address answered, but not as this server
      // does): try again from scratch in a moment.
      if (source.readyState === 2) {
        source.close();
        setTimeout(connect, 3000);
      }
    };
    source.addEventListener("text", onEntry);
  }

  // A line is one line: Enter sends it (the box only wraps it).
  function enterSends(field, form) {
    if (!field) { return; }
    field.addEventListener("keydown", function (e) {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        form.requestSubmit();
      }
    });
  }

  // Odds asked in place; without this the form opens the answer's page.
  var form = document.getElementById("odds-form");
  var answer = document.getElementById("odds-answer");
  if (form && answer && window.fetch) {
    enterSends(document.getElementById("odds-line"), form);
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var line = document.getElementById("odds-line").value.replace(/[\r\n]+/g, " ").trim();
      answer.setAttribute("aria-busy", "true");
      fetch("odds?part=answer&line=" + encodeURIComponent(line), {
        headers: { "Accept": "text/html" }
      }).then(function (r) { return r.text(); }).then(function (html) {
        answer.textContent = "";
        answer.appendChild(nodes(html));
      }, function () {
        answer.textContent = "not answered: no connection to the server";
      }).then(function () { answer.removeAttribute("aria-busy"); });
    });
  }

  noteOnce();
  connect();
})();
