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
