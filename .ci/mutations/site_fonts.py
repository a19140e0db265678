"""The Japanese pages' font lists (docs/overrides/assets/site.css): without a Japanese font named, every
run of Japanese text is looked up in the system's fallback fonts and layout takes 3-5 times as long
(README "Lighthouse"). tests/test_site_ui_ja.py asks Chromium which fonts drew the text. Needs a site build.
"""

_CSS = "docs/overrides/assets/site.css"
_TEST = ["tests/test_site_ui_ja.py", "-k", "font"]

MUTATIONS = [
    Mutation("site fonts: the Japanese pages name no Japanese font for text (Material's list only)",
             EDIT.format(path=_CSS, old='html[lang="ja"] body {\n  --md-text-font-family:', new='html[lang="ja"] body {\n  --xx-text-font-family:'),
             _TEST, r"test_japanese_text_is_set_in_a_font_the_page_names"),
    Mutation("site fonts: the Japanese pages' code font list names no Japanese font (Material's list only)",
             EDIT.format(path=_CSS, old='    Arial, "DejaVu Sans", "IPAGothic", sans-serif;\n  --md-code-font-family:', new='    Arial, "DejaVu Sans", "IPAGothic", sans-serif;\n  --xx-code-font-family:'),
             _TEST, r"test_japanese_text_is_set_in_a_font_the_page_names"),
]
