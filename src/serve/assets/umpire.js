// The umpire's page: each line is sent with the token in the address's
// fragment (never sent by the browser itself, never in a log).
(function () {
  "use strict";
  var token = location.hash.replace(/^#/, "");
  var form = document.getElementById("umpire");
  var input = document.getElementById("line");
  var answer = document.getElementById("answer");

  function say(text) {
    var p = document.createElement("pre");
    p.textContent = text;
    answer.insertBefore(p, answer.firstChild);
  }

  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var line = input.value;
    fetch("lines", {
      method: "POST",
      headers: { "Authorization": "Bearer " + token, "Content-Type": "text/plain; charset=utf-8" },
      body: line
    }).then(function (r) {
      return r.text().then(function (t) { return { status: r.status, text: t }; });
    }).then(function (r) {
      var said;
      try {
        var j = JSON.parse(r.text);
        said = j.error ? "refused: " + j.error
          : line + (j.outcome ? " → " + (j.outcome.text || j.outcome.id || JSON.stringify(j.outcome)) : " done");
      } catch (x) { said = r.status + " " + r.text; }
      say(said);
      if (r.status === 200) { input.value = ""; }
    }).catch(function (x) { say("not sent: " + x); });
  });
})();
