// The language links, on top of what the build writes (docs/hooks/alternates.py).
//
// The build already points the header's language links at the same page in the other
// language, and writes <link rel="alternate" hreflang> to the same page in each language
// into the head (for search engines). This script does two things more:
//
// 1. Material's script requests a sitemap.xml next to every <link rel="alternate"> when
//    the page has loaded (it expects them to point at the language roots, not at pages), so
//    every page view would ask for two or three files that do not exist. Material does that
//    in its DOMContentLoaded listener, registered by its bundle before this script runs; so
//    the links are out of its sight until then and back right after, in the same task:
//    the document keeps them. (Material's selector change is discussed upstream:
//    squidfunk/mkdocs-material#6582.) Material's `navigation.instant` would undo this: it
//    runs the same lookup for every page it loads itself.
// 2. The reader stays in the same section: the link takes the current #fragment along
//    (both languages have the same heading ids; tests/test_parity.py enforces it).
(function () {
  "use strict";
  var SELECTOR = 'link[rel="alternate"][hreflang]';
  if (document.readyState === "loading") {
    var hidden = Array.prototype.slice.call(document.querySelectorAll(SELECTOR));
    hidden.forEach(function (link) { link.removeAttribute("rel"); });
    document.addEventListener("DOMContentLoaded", function () {
      hidden.forEach(function (link) { link.setAttribute("rel", "alternate"); });
    }, { once: true });
  }

  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element && event.target.closest("a.md-select__link[hreflang]");
    if (!link) return;
    var target = new URL(link.getAttribute("href"), location.href);
    target.hash = location.hash;
    link.href = target.href;
    // Follow this link: Material's own handler would look the page up in sitemaps it has not loaded.
    event.stopPropagation();
  }, true);
})();
