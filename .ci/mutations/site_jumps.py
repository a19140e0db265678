"""Jumps to a section with content-visibility in site.css (README "Lighthouse"): the API reference is
skipped off screen block by block, and scrollable.js keeps the heading a link jumped to in view while
the blocks around it are drawn. tests/test_site.py follows links on a reference page. Needs a site build.
"""

_JS = "docs/overrides/assets/scrollable.js"
_TEST = ["tests/test_site.py", "-k", "link_on_the_page or link_to_a_section"]

MUTATIONS = [
    Mutation("site jumps: scrollable.js no longer brings the heading back after a jump (blocks drawn around it move it away)",
             EDIT.format(path=_JS, old='document.addEventListener("contentvisibilityautostatechange"', new='document.addEventListener("xx-contentvisibilityautostatechange"'),
             _TEST, r"test_a_link_on_the_page_shows_its_heading|test_a_link_to_a_section_shows_its_heading"),
]
