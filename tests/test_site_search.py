"""Search that finds: real queries typed into Material's search box in Chromium.

Each query names the page a reader looking for it wants; that page must be
among the first three results. At most one query per language may miss
(issue #17 asks for >= 29 of 30); the test prints every miss.
"""

from __future__ import annotations

from urllib.parse import urljoin, urlsplit

import pytest


pytestmark = [pytest.mark.site]

QUERIES = {
    "ja": [
        ("勾配スケーリング", "amp/grad-scaler/"),
        ("損失スケーリング", "amp/grad-scaler/"),
        ("GradScaler", "amp/grad-scaler/"),
        ("混合精度", "amp/"),
        ("autocast", "amp/autocast/"),
        ("custom_fwd", "amp/custom-fwd-bwd/"),
        ("推論 混合精度", "amp/inference/"),
        ("量子化", "quantization/"),
        ("動的量子化", "quantization/dynamic/"),
        ("静的量子化", "quantization/static/"),
        ("量子化を意識した学習", "quantization/qat/"),
        ("torchao", "quantization/torchao/"),
        ("半精度", "storage/half-vs-float/"),
        ("単精度", "storage/half-vs-float/"),
        ("bfloat16", "storage/half-vs-float/"),
        ("qint32", "storage/quantized/"),
        ("float8", "storage/dtypes/"),
        ("untyped_storage", "storage/dtypes/"),
        ("共有メモリ", "storage/sharing/"),
        ("ピン留め", "storage/sharing/"),
        ("自動微分", "guide/autograd/"),
        ("テンソル", "guide/tensors/"),
        ("オプティマイザ", "guide/optimizers/"),
        ("state_dict 保存", "guide/saving/"),
        ("DataLoader", "guide/data/"),
        ("強化学習", "guide/applied/rl/"),
        ("自然言語処理", "guide/applied/nlp/"),
        ("分散学習", "guide/applied/distributed/"),
        ("ベンチマーク", "benchmarks/"),
        ("unscale FP16 gradients", "amp/grad-scaler/"),
        ("device_type", "amp/custom-fwd-bwd/"),
        ("よくある間違い", "mistakes/"),
    ],
    "en": [
        ("gradient scaling", "amp/grad-scaler/"),
        ("loss scaling", "amp/grad-scaler/"),
        ("GradScaler", "amp/grad-scaler/"),
        ("mixed precision", "amp/"),
        ("autocast", "amp/autocast/"),
        ("custom_fwd", "amp/custom-fwd-bwd/"),
        ("inference mixed precision", "amp/inference/"),
        ("quantization", "quantization/"),
        ("dynamic quantization", "quantization/dynamic/"),
        ("static quantization", "quantization/static/"),
        ("quantization-aware training", "quantization/qat/"),
        ("torchao", "quantization/torchao/"),
        ("half precision", "storage/half-vs-float/"),
        ("float16", "storage/half-vs-float/"),
        ("bfloat16", "storage/half-vs-float/"),
        ("qint32", "storage/quantized/"),
        ("float8", "storage/dtypes/"),
        ("untyped_storage", "storage/dtypes/"),
        ("shared memory", "storage/sharing/"),
        ("pin_memory", "storage/sharing/"),
        ("autograd", "guide/autograd/"),
        ("tensors", "guide/tensors/"),
        ("optimizer", "guide/optimizers/"),
        ("state_dict save", "guide/saving/"),
        ("DataLoader", "guide/data/"),
        ("reinforcement learning", "guide/applied/rl/"),
        ("natural language processing", "guide/applied/nlp/"),
        ("distributed training", "guide/applied/distributed/"),
        ("benchmarks", "benchmarks/"),
        ("unscale FP16 gradients", "amp/grad-scaler/"),
        ("device_type", "amp/custom-fwd-bwd/"),
        ("common mistakes", "mistakes/"),
    ],
}

ALLOWED_MISSES = 1

READ_RESULTS = """() => [...document.querySelectorAll(".md-search-result__item > a")].map(a => a.getAttribute("href"))"""


def top_pages(hrefs: list[str], lang: str, n: int = 3) -> list[str]:
    """The first n distinct pages among the result links, as paths below /<lang>/ (no ?h=, no #section)."""
    pages: list[str] = []
    for href in hrefs:
        path = urlsplit(href).path
        page = path.split(f"/{lang}/", 1)[-1]
        if page not in pages:
            pages.append(page)
    return pages[:n]


def search(page, query: str) -> list[str]:
    box = page.locator("input.md-search__input")
    box.fill("")
    box.dispatch_event("keyup")
    page.wait_for_function("() => !document.querySelector('.md-search-result__item')", timeout=5000)
    box.fill(query)
    # Material searches on keyup, in a worker; until the worker has loaded the
    # index (and, for Japanese, lunr.ja and TinySegmenter) a query finds nothing.
    for _ in range(40):
        box.dispatch_event("keyup")
        hrefs = page.evaluate(READ_RESULTS)
        if hrefs:
            return hrefs
        page.wait_for_timeout(100)
    return []


@pytest.mark.parametrize("lang", sorted(QUERIES))
def test_search_finds_the_page(browser, base_url, lang):
    assert len(QUERIES[lang]) >= 30
    context = browser.new_context()
    page = context.new_page()
    misses = []
    try:
        page.goto(f"{base_url}{lang}/", wait_until="networkidle")
        page.locator("input.md-search__input").click()
        for query, expected in QUERIES[lang]:
            hrefs = [urljoin(page.url, h) for h in search(page, query)]
            found = top_pages(hrefs, lang)
            if expected not in found:
                misses.append(f"{query!r}: wanted {expected} in the top 3, got {found}")
    finally:
        context.close()
    print(f"{lang}: {len(QUERIES[lang]) - len(misses)}/{len(QUERIES[lang])} queries find their page", *misses, sep="\n  ")
    assert len(misses) <= ALLOWED_MISSES, "\n".join(misses)
