// The game's page, live: each entry the server reads from the journal is
// put on top as it comes (the page works without this, as it was loaded).
(function () {
  "use strict";
  if (!window.EventSource) { return; }
  var body = document.body;
  var feed = document.getElementById("feed");
  var after = body.getAttribute("data-after") || "0";
  var source = new EventSource("events?with=text&after=" + encodeURIComponent(after));
  var pending = null;

  source.onopen = function () { body.setAttribute("data-live", "open"); };
  source.onerror = function () { body.setAttribute("data-live", "closed"); };

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }

  source.addEventListener("text", function (m) {
    var id = m.lastEventId;
    if (document.getElementById("entry-" + id)) { return; }
    var d = JSON.parse(m.data);
    var a = el("article", "entry");
    a.id = "entry-" + id;
    a.setAttribute("data-arrived", String(Date.now()));
    var h = el("h3");
    h.appendChild(el("span", "number", "#" + id));
    h.appendChild(document.createTextNode(" "));
    h.appendChild(el("span", "line", d.line));
    h.appendChild(document.createTextNode(" "));
    h.appendChild(el("span", "when", "turn " + d.turn));
    a.appendChild(h);
    a.appendChild(el("pre", "stack", d.text));
    feed.insertBefore(a, feed.firstChild);
    body.setAttribute("data-after", id);
    if (pending === null) { pending = setTimeout(refreshRoster, 150); }
  });

  // The roster and the turn as they stand now, from units.json.
  function refreshRoster() {
    pending = null;
    fetch("units.json").then(function (r) { return r.json(); }).then(function (u) {
      if (u.turn !== undefined) { document.getElementById("turn").textContent = u.turn; }
      var roster = document.getElementById("roster");
      var armies = u.armies || [];
      var parts = [];
      armies.forEach(function (army) {
        var div = el("div", "army");
        div.appendChild(el("h3", null, army.name + (army.side ? " (" + army.side + ")" : "")));
        var table = el("table", "roster");
        var head = el("thead"), tr = el("tr");
        army.columns.forEach(function (c) { var th = el("th", null, c); th.scope = "col"; tr.appendChild(th); });
        head.appendChild(tr);
        table.appendChild(head);
        var tbody = el("tbody");
        army.units.forEach(function (unit) {
          var row = el("tr");
          army.columns.forEach(function (c) {
            var td = el("td", null, unit[c] === undefined ? "" : String(unit[c]));
            td.setAttribute("data-label", c);
            row.appendChild(td);
          });
          tbody.appendChild(row);
        });
        table.appendChild(tbody);
        div.appendChild(table);
        (army.notes || []).forEach(function (n) { div.appendChild(el("p", "note", n)); });
        parts.push(div);
      });
      roster.textContent = "";
      parts.forEach(function (p) { roster.appendChild(p); });
    }).catch(function () {});
  }
})();
