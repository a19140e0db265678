"""MkDocs hooks shared by both language builds (mkdocs.yml, mkdocs.en.yml).

After the default-language build, write ``<site>/index.html``: the root of the
served site sends readers to the Japanese site (the default), with plain links
to both languages for readers without JavaScript or meta refresh.
"""

from __future__ import annotations

from pathlib import Path

ROOT_PAGE = """<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<title>PyTorch 精度と量子化ガイド / PyTorch Precision &amp; Quantization Guide</title>
<meta http-equiv="refresh" content="0; url=ja/">
<link rel="canonical" href="ja/">
<link rel="icon" href="ja/assets/images/favicon.png">
</head>
<body>
<p><a href="ja/">日本語</a> · <a href="en/" hreflang="en">English</a></p>
</body>
</html>
"""


def on_post_build(config, **kwargs):
    if config["theme"]["language"] != "ja":
        return
    site_root = Path(config["site_dir"]).parent
    (site_root / "index.html").write_text(ROOT_PAGE, encoding="utf-8")
