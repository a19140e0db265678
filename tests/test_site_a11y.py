"""Accessible and readable on a phone, in headless Chromium.

* axe-core (pinned in package.json, installed into node_modules by
  ``.ci/setup browser``; injected from the file, nothing is fetched) audits one page
  of each kind against WCAG 2.1 A/AA: no violation at all, text contrast (>= 4.5:1)
  included; in the dark scheme, which changes only colours, the colour rules.
* At a 375 px wide viewport no page of either language scrolls sideways: long
  output lines scroll inside their own block.

The colours and the overflow rules live in docs/overrides/assets/site.css.
"""

from __future__ import annotations

import pytest

from docs_tools.docs_model import REPO
from tests.support.site_fixtures import Watched


pytestmark = [pytest.mark.site]

AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"

# One page of each kind (home, prose with tabs/tables/admonitions, notebook, API
# reference, benchmark tables, guide chapter, mistakes list, 404), split between
# the languages so that both are covered without auditing every page twice. The bench reference:
# a long API page, where skipping its objects off screen failed Lighthouse's contrast audit.
AUDITED = {
    "ja": ["", "storage/half-vs-float/", "notebooks/storage-dtypes/", "benchmarks/", "reference/bench/", "404.html"],
    "en": ["reference/storage/", "amp/grad-scaler/", "guide/tensors/", "mistakes/", "notebooks/amp-training/", "troubleshooting/"],
}

# The light scheme gets every WCAG 2.1 A/AA rule. The dark scheme changes colours only (Material's
# CSS custom properties under [data-md-color-scheme="slate"], and site.css's): the document, its
# names, roles and order are the same, so there it gets the rules whose outcome depends on colour.
# Every rule in both schemes took 45 s more of each run and found nothing the light run did not.
COLOUR_RULES = ["color-contrast", "link-in-text-block"]
WCAG_TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

RUN_AXE = """async (only) => {
  const result = await axe.run(document, {
    runOnly: only,
    resultTypes: ["violations"],
  });
  return result.violations.map(v => ({
    id: v.id,
    nodes: v.nodes.slice(0, 5).map(n => n.target.join(" ") + ": " + n.failureSummary.split("\\n").slice(1).join(" ")),
    count: v.nodes.length,
  }));
}"""


@pytest.mark.parametrize("lang", sorted(AUDITED))
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation(browser, base_url, lang, scheme):
    assert AXE.is_file(), "axe-core is not installed: run `bash .ci/setup browser` (npm ci)"
    context = browser.new_context(color_scheme=scheme)
    page = context.new_page()
    problems = []
    try:
        for path in AUDITED[lang]:
            page.goto(f"{base_url}{lang}/{path}", wait_until="load")
            expected = "slate" if scheme == "dark" else "default"
            assert page.locator("body").get_attribute("data-md-color-scheme") == expected
            page.add_script_tag(path=str(AXE))
            only = {"type": "rule", "values": COLOUR_RULES} if scheme == "dark" else {"type": "tag", "values": WCAG_TAGS}
            for v in page.evaluate(RUN_AXE, only):
                problems.append(f"{lang}/{path} [{scheme}] {v['id']} ({v['count']}):\n    " + "\n    ".join(v["nodes"]))
    finally:
        context.close()
    assert not problems, "\n".join(problems)


# Material sets overflow-x: hidden on <html>, so the document itself never scrolls
# sideways: a too-wide element is cut off instead. So look at every element: one
# that reaches past the right edge must sit inside a block that scrolls (or clips
# on purpose) below <body>.
NO_SIDEWAYS_SCROLL = """() => {
  const width = document.documentElement.clientWidth;
  const wide = [];
  if (document.documentElement.scrollWidth > width) wide.push(`page is ${document.documentElement.scrollWidth} px wide`);
  for (const e of document.querySelectorAll("body *")) {
    const r = e.getBoundingClientRect();
    if (r.right <= width + 1 || r.width === 0) continue;
    let contained = false;
    for (let p = e.parentElement; p && p !== document.body; p = p.parentElement) {
      if (["auto", "scroll", "hidden", "clip"].includes(getComputedStyle(p).overflowX)
          && p.getBoundingClientRect().right <= width + 1) { contained = true; break; }
    }
    if (!contained && getComputedStyle(e).visibility !== "hidden") {
      wide.push(`${e.tagName.toLowerCase()}.${e.className} reaches ${Math.round(r.right)} px`);
    }
  }
  return wide.slice(0, 6);
}"""


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_every_page_loads_cleanly_and_fits_a_phone(browser, base_url, built_site, lang):
    """One sweep over every built page at a 375 px phone viewport: no console error, no failed or
    third-party request, and nothing that scrolls the page sideways (long lines scroll in their block)."""
    pages = sorted(p.relative_to(built_site / lang).parent.as_posix() for p in (built_site / lang).glob("**/index.html"))
    assert len(pages) >= 40
    watched = Watched(browser, base_url, viewport={"width": 375, "height": 740}, is_mobile=True, has_touch=True)
    wide = {}
    try:
        for rel in pages:
            path = "" if rel == "." else rel + "/"
            # "load", not "networkidle": waiting out half a second of quiet on every page cost a
            # minute per language. Requests issued later still reach the watchers; the site-wide
            # ones (search index, worker) are awaited on the last page below.
            watched.page.goto(f"{base_url}{lang}/{path}", wait_until="load")
            found = watched.page.evaluate(NO_SIDEWAYS_SCROLL)
            if found:
                wide[f"{lang}/{path}"] = found
        watched.page.wait_for_load_state("networkidle")
        watched.check_clean()
    finally:
        watched.context.close()
    assert not wide, "pages that scroll sideways at 375 px:\n" + "\n".join(f"{k}: {v}" for k, v in wide.items())
