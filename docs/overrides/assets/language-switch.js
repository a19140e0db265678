// Keep the reader on the same page when switching language.
//
// Each language is its own MkDocs site (/ja/, /en/) with the same page paths
// (tests/test_parity.py enforces that), so the matching page in the other
// language is: <other language root> + <path of this page below its root>.
// Material publishes this site's root as `base` in the #__config JSON.
(function () {
  "use strict";
  function rewriteLanguageLinks() {
    var configElement = document.getElementById("__config");
    if (!configElement) return;
    var config = JSON.parse(configElement.textContent);
    var siteRoot = new URL(config.base.replace(/\/?$/, "/"), location.href);
    if (location.href.indexOf(siteRoot.href) !== 0) return;
    var pagePath = location.href.slice(siteRoot.href.length);
    document.querySelectorAll("a.md-select__link[hreflang]").forEach(function (link) {
      if (!link.dataset.languageRoot) link.dataset.languageRoot = link.href;
      link.href = new URL(pagePath, link.dataset.languageRoot).href;
    });
  }
  if (window.document$ && typeof window.document$.subscribe === "function") {
    window.document$.subscribe(rewriteLanguageLinks);
  } else if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", rewriteLanguageLinks);
  } else {
    rewriteLanguageLinks();
  }
  window.addEventListener("hashchange", rewriteLanguageLinks);
  // Material's own handler (on document.body) resolves the target through the
  // other language's sitemap.xml, which lists only that site's pages, so it
  // would send the reader to the other language's home page. Follow our href.
  document.addEventListener("click", function (event) {
    var link = event.target instanceof Element && event.target.closest("a.md-select__link[hreflang]");
    if (!link) return;
    rewriteLanguageLinks();
    event.stopPropagation();
  }, true);
})();
