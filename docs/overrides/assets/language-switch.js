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
// 3. The reader keeps the light or dark scheme they chose: Material stores it in localStorage
//    under a key scoped by the site's root ("/ja/.__palette", "/en/.__palette"), so each language
//    would start from the system's scheme again. The choice is copied to the other languages'
//    keys when it changes and when a language link is followed (tests/test_site.py).
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

  // Material's scope: the URL of this language's root (base.html sets __md_scope before any script).
  function paletteKey(lang) {
    var root = typeof __md_scope !== "undefined" ? __md_scope : new URL(".", location.href);
    var scope = lang ? new URL("../" + lang + "/", root) : root;
    return scope.pathname + ".__palette";
  }
  function sharePalette() {
    try {
      var chosen = localStorage.getItem(paletteKey());
      if (chosen === null) return;
      document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (link) {
        var key = paletteKey(link.getAttribute("hreflang"));
        if (key !== paletteKey()) localStorage.setItem(key, chosen);
      });
    } catch (error) {
      // No localStorage (a browser that blocks it): each language keeps its own scheme.
    }
  }
  document.addEventListener("change", function (event) {
    // After Material's own handler has stored the new scheme.
    if (event.target instanceof Element && event.target.closest("[data-md-component=palette]")) setTimeout(sharePalette, 0);
  });

  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element && event.target.closest("a.md-select__link[hreflang]");
    if (!link) return;
    sharePalette();
    var target = new URL(link.getAttribute("href"), location.href);
    target.hash = location.hash;
    link.href = target.href;
    // Follow this link: Material's own handler would look the page up in sitemaps it has not loaded.
    event.stopPropagation();
  }, true);
})();
