"""The reader's light or dark scheme survives the language switch (issue 33), in Chromium.

Material stores the choice in localStorage under a key scoped by the site's root, which differs
between /ja/ and /en/; docs/overrides/assets/language-switch.js copies it across.
"""

from __future__ import annotations

import pytest

pytestmark = [pytest.mark.site]

PAGE = "storage/half-vs-float/"


def scheme(page):
    return page.locator("body").get_attribute("data-md-color-scheme")


def toggle(page):
    page.locator("form[data-md-component=palette] label:visible").first.click()


def switch_language(page, target):
    page.locator(".md-header__option .md-select").hover()
    page.locator(f'a.md-select__link[hreflang="{target}"]').click()
    page.wait_for_load_state("networkidle")


@pytest.mark.parametrize("start,target", [("ja", "en"), ("en", "ja")])
def test_chosen_scheme_is_kept_across_the_language_switch(watched, base_url, start, target):
    page = watched.page
    page.goto(f"{base_url}{start}/{PAGE}", wait_until="networkidle")
    first = scheme(page)
    toggle(page)
    chosen = scheme(page)
    assert {first, chosen} == {"default", "slate"}
    switch_language(page, target)
    assert page.url == f"{base_url}{target}/{PAGE}"
    assert scheme(page) == chosen
    # Chosen again in the other language, and back: the first language follows too.
    toggle(page)
    assert scheme(page) == first
    switch_language(page, start)
    assert scheme(page) == first
    watched.check_clean()


def test_scheme_chosen_in_one_language_holds_in_the_other_without_the_switch(watched, base_url):
    """Reaching the other language by any link (its home page typed in, a search result) keeps it too."""
    page = watched.page
    page.goto(f"{base_url}en/", wait_until="networkidle")
    first = scheme(page)
    toggle(page)
    chosen = scheme(page)
    assert chosen != first
    page.goto(f"{base_url}ja/{PAGE}", wait_until="networkidle")
    assert scheme(page) == chosen
    watched.check_clean()
