// A running tournament's page keeps itself current: every data-refresh seconds it fetches itself again
// (the server answers 304 while nothing changed) and swaps in the header and the main part when they
// differ; it stops once the tournament is completed (the new page has no data-refresh). Without
// JavaScript the page's <noscript> meta refresh reloads it instead.
(function () {
  "use strict";
  var seconds = Number(document.body.dataset.refresh || 0);
  if (!seconds || !window.fetch || !window.DOMParser) return;

  function swap(fresh) {
    ["header", "main"].forEach(function (selector) {
      var shown = document.querySelector(selector);
      var next = fresh.querySelector(selector);
      if (shown && next && shown.innerHTML !== next.innerHTML) shown.innerHTML = next.innerHTML;
    });
    document.title = fresh.title;
  }

  function later() {
    window.setTimeout(check, seconds * 1000);
  }

  function check() {
    window.fetch(window.location.href, { cache: "no-cache", headers: { Accept: "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (html === null) return later();
        var fresh = new DOMParser().parseFromString(html, "text/html");
        swap(fresh);
        if (fresh.body.dataset.refresh) return later();
        delete document.body.dataset.refresh; // completed: nothing will change any more
      })
      .catch(later);
  }

  later();
})();
