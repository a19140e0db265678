// What scrolling needs on this site's pages: tab stops on blocks that scroll sideways, and the
// heading of a section a link jumped to kept in view while the blocks around it are drawn.
//
// A block that scrolls sideways (a wide table, a long notebook output line) must be
// reachable with the keyboard to be scrolled (WCAG 2.1.1): give it a tab stop.
// Checked by axe-core's scrollable-region-focusable rule in tests/test_site_a11y.py.
// Tables (Material's .md-typeset__scrollwrap) get one whether or not they are wider than the
// screen: off screen, the browser skips their layout (content-visibility in site.css), and
// measuring each would lay them all out again. Code blocks get theirs in the HTML
// (docs/hooks/code_focus.py).
document$.subscribe(function () {
  document.querySelectorAll(".md-typeset__scrollwrap").forEach(function (el) {
    if (!el.hasAttribute("tabindex")) {
      el.setAttribute("tabindex", "0");
    }
  });
  document.querySelectorAll(".jupyter-wrapper pre").forEach(function (el) {
    if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) {
      el.setAttribute("tabindex", "0");
    }
  });
});
// After a jump (#id), blocks drawn around the heading (content-visibility, site.css) can move it:
// it is scrolled to again each time one is drawn, for 5 s, until the reader scrolls.
(function () {
  var target = null;
  var until = 0;
  function arm() {
    var id = decodeURIComponent(location.hash.slice(1));
    target = id ? document.getElementById(id) : null;
    until = Date.now() + 5000;
  }
  function disarm() { target = null; }
  ["wheel", "touchstart", "keydown", "pointerdown"].forEach(function (type) {
    window.addEventListener(type, disarm, { passive: true, capture: true });
  });
  window.addEventListener("hashchange", arm);
  document.addEventListener("contentvisibilityautostatechange", function () {
    if (!target || Date.now() > until) return;
    requestAnimationFrame(function () {
      if (target) target.scrollIntoView();
    });
  }, true);
  arm();
})();
