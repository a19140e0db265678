// A block that scrolls sideways (a wide table, a long notebook output line) must be
// reachable with the keyboard to be scrolled (WCAG 2.1.1): give it a tab stop.
// Checked by axe-core's scrollable-region-focusable rule in tests/test_site_a11y.py.
document$.subscribe(function () {
  document.querySelectorAll(".md-typeset__scrollwrap, .jupyter-wrapper pre").forEach(function (el) {
    if (el.scrollWidth > el.clientWidth && !el.hasAttribute("tabindex")) {
      el.setAttribute("tabindex", "0");
    }
  });
});
