"""Mutations of what a deployment publishes (tests/test_site_deploy.py): the files `.ci/build`
writes with SITE_URL (the root's sitemap index and 404 page, each page's canonical and hreflang
links) and the offline edition's zip as `.ci/offline` makes it.

Every one changes the site build's inputs, so each costs that test file's builds again (built_site's
two, then `.ci/build`'s four): none is in CI_MUTATIONS. They share one selection, whose unbroken
run is done once. Select them with `-k deploy`."""

# `Mutation` is provided by .ci/prove_tests_fail.py, which loads this file.
_EDIT = """python3 - <<'PY'
for p in {paths!r}:
    s = open(p, encoding="utf-8").read()
    old, new = {old!r}, {new!r}
    assert old in s, p + ": the mutation no longer applies: " + old
    open(p, "w", encoding="utf-8").write(s.replace(old, new, 1))
PY"""
_TESTS = ["tests/test_site_deploy.py"]
_OFFLINE_CONFIGS = ["mkdocs.offline.yml", "mkdocs.en.offline.yml"]

MUTATIONS = [
    # -- the root files (docs/hooks/root_pages.py) --
    Mutation("deploy: the root sitemap index names each language's sitemap by a relative address",
             _EDIT.format(paths=["docs/hooks/root_pages.py"], old="escape(url + code)", new="escape(code)"),
             _TESTS, r"test_the_root_holds_the_sitemap_index"),
    # the 404 page's base folder forced to /<lang>/ (right only without SITE_URL): at /guide/ its
    # styles and scripts are looked for at https://example.org/ja/assets/
    Mutation("deploy: the 404 pages take their assets from /ja/ whatever SITE_URL says",
             _EDIT.format(paths=["docs/hooks/root_pages.py"], old='if template_name != "404.html" or config.get("site_url"):',
                          new='if template_name != "404.html":'),
             _TESTS, r"test_the_404_pages_work_at_any_address"),
    # -- each page's head (docs/hooks/alternates.py) --
    Mutation("deploy: hreflang alternates root-relative under SITE_URL",
             _EDIT.format(paths=["docs/hooks/alternates.py"], old='return f"{root}{language}/{path}"',
                          new='return f"/{language}/{path}"'),
             _TESTS, r"test_every_page_has_its_canonical_address_and_absolute_alternates"),
    # the English build alone gets <SITE_URL>en/; the
    # Japanese one keeps SITE_URL itself, so its canonical links and sitemap miss the ja/
    Mutation("deploy: the Japanese build's site_url left at SITE_URL (its canonical links miss ja/)",
             _EDIT.format(paths=["docs/hooks/alternates.py"], old='    elif root and config.get("site_url")',
                          new='    elif here == "en" and root and config.get("site_url")'),
             _TESTS, r"(test_every_page_has_its_canonical_address_and_absolute_alternates|test_each_sitemap_lists_every_page_by_its_address)\[ja\]"),
    # -- the offline edition's zip (.ci/offline) --
    Mutation("deploy: .ci/offline builds and zips the Japanese edition only",
             _EDIT.format(paths=[".ci/offline"], old="build_both mkdocs.offline.yml mkdocs.en.offline.yml",
                          new=".venv/bin/mkdocs build --strict -f mkdocs.offline.yml"),
             _TESTS, r"test_the_offline_zip_holds_both_languages_and_every_page"),
    Mutation("deploy: .ci/offline zips the edition without its index.html",
             _EDIT.format(paths=[".ci/offline"], old=".venv/bin/python -c \"import shutil;",
                          new="rm site-offline/index.html\n.venv/bin/python -c \"import shutil;"),
             _TESTS, r"test_the_offline_zip_holds_both_languages_and_every_page"),
    # built with SITE_URL, as `.ci/build` builds it, the offline edition would link its pages'
    # canonical and alternate addresses to the deployed site
    Mutation("deploy: the offline edition keeps SITE_URL (links to the deployed site)",
             _EDIT.format(paths=["docs/hooks/alternates.py"], old="    if is_offline(config):\n",
                          new="    if is_offline(config) and not root:\n"),
             _TESTS, r"test_nothing_in_the_offline_zip_leaves_the_edition"),
    # Material's offline plugin then adds https://unpkg.com/iframe-worker/shim to every page
    Mutation("deploy: the offline edition's iframe-worker shim no longer vendored (a script from unpkg.com)",
             _EDIT.format(paths=_OFFLINE_CONFIGS, old="    - assets/iframe-worker/shim.js\n", new="    []\n"),
             _TESTS, r"test_nothing_in_the_offline_zip_leaves_the_edition"),
]
