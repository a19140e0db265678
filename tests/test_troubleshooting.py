"""The troubleshooting page (docs/<lang>/troubleshooting.md, issue 33): a reader who arrives with a
symptom or a pasted message must land on the section that fixes it.

* Every link on the page, in both languages, points at a page that exists and at a heading id
  that page really has, and both languages link the same targets in the same order.
* Every message the page quotes is real: PyTorch printed it in one of the site's checked outputs
  (``snippets/**/*.out``), or it is produced here by a real run (the CPU allocator's error), or,
  for the one message only a GPU prints, the exception class exists here and the message is
  checked by a CUDA test where a GPU is present.
* The home page leads to the page (the two-click walk in Chromium is tests/test_site_troubleshooting.py).
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest
import torch

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
PAGE = "troubleshooting.md"
LANGS = ("en", "ja")

LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING_ID = re.compile(r"\{#([A-Za-z0-9_-]+)\}")
# A definition-list term that is one code span (single or double backticks): a quoted message.
TERM = re.compile(r"^(`{1,2}) ?(.+?) ?\1$")
# "RuntimeError: ..." as a traceback prints it; the site's outputs print "RuntimeError ..." too.
TYPED = re.compile(r"^(?:[\w.]+\.)?(\w+(?:Error|Warning|Exception)): (.+)$")

# Quoted in prose, produced by a real run in test_cpu_allocator_message_is_real.
CPU_OOM = "DefaultCPUAllocator: can't allocate memory"
# Quoted in prose; only a GPU prints it (c10/cuda/CUDACachingAllocator.cpp): checked by the CUDA test.
CUDA_OOM = "CUDA out of memory. Tried to allocate"


def page_text(lang: str, rel: str = PAGE) -> str:
    return (DOCS / lang / rel).read_text(encoding="utf-8")


def links(lang: str) -> list[str]:
    return [target for target in LINK.findall(page_text(lang)) if "://" not in target]


def quoted_messages(lang: str) -> list[str]:
    """The definition-list terms under 'A warning or an error message' (#messages)."""
    text = page_text(lang)
    section = text[text.index("{#messages}") :]
    lines = section.splitlines()
    out = []
    for line, following in zip(lines, lines[1:]):
        match = TERM.match(line)
        if match and following.startswith(":   "):
            out.append(match.group(2))
    return out


def checked_outputs() -> dict[Path, str]:
    """The outputs pages show, and what other CPU classes and torch versions printed (recorded/,
    each file checked against the digest recorded with it: tests/test_cpu_records.py)."""
    paths = sorted((REPO / "snippets").rglob("*.out")) + sorted((REPO / "recorded").rglob("*.out"))
    return {path: path.read_text(encoding="utf-8") for path in paths}


def test_the_page_and_its_nav_entry_exist_in_both_languages():
    for lang, config in (("ja", "mkdocs.yml"), ("en", "mkdocs.en.yml")):
        assert (DOCS / lang / PAGE).is_file()
        assert re.search(rf"^  - [^:\n]+: {PAGE}$", (REPO / config).read_text(encoding="utf-8"), re.M), config


@pytest.mark.parametrize("lang", LANGS)
def test_the_home_page_links_to_it(lang):
    assert f"]({PAGE})" in page_text(lang, "index.md")


@pytest.mark.parametrize("lang", LANGS)
def test_every_link_reaches_an_existing_section(lang):
    missing = []
    for target in links(lang):
        path, _, anchor = target.partition("#")
        page = (DOCS / lang / PAGE).parent / path if path else DOCS / lang / PAGE
        if not page.is_file():
            missing.append(f"{target}: no page {page.relative_to(DOCS)}")
            continue
        if not anchor:
            missing.append(f"{target}: links a page, not the section that fixes the symptom")
        elif anchor not in HEADING_ID.findall(page.read_text(encoding="utf-8")):
            missing.append(f"{target}: {page.relative_to(DOCS)} has no heading {{#{anchor}}}")
    assert not missing, "\n".join(missing)


def test_both_languages_link_the_same_sections_in_the_same_order():
    assert links("ja") == links("en")


@pytest.mark.parametrize("lang", LANGS)
def test_every_symptom_and_every_message_links_to_its_fix(lang):
    text = page_text(lang)
    for section in re.split(r"^## ", text, flags=re.M)[1:]:
        assert LINK.search(section), f"a section without a link to a fix: {section.splitlines()[0]}"
    blocks = re.split(r"\n(?=`)", text[text.index("{#messages}") :])
    for block in blocks[1:]:
        assert LINK.search(block), f"a message without a link to its fix: {block.splitlines()[0]}"


def test_both_languages_quote_the_same_messages():
    assert quoted_messages("ja") == quoted_messages("en")
    assert len(quoted_messages("en")) >= 30


# Messages of installed libraries that no run on a CPU prints (they need a GPU, another torch, or a
# package left out on purpose): each is read, word for word, from the library's installed source
# (package, file relative to its folder). The pages mark them "not run here".
FROM_SOURCE = {
    "Using FP8 quantized models requires a GPU or XPU, we will default to dequantizing the model to bf16":
        ("transformers", "quantizers/quantizer_finegrained_fp8.py"),
    "ValueError: You cannot cast a bitsandbytes model in a new `dtype`.": ("transformers", "modeling_utils.py"),
    "Skipping import of cpp extensions due to incompatible torch version.": ("torchao", "__init__.py"),
    "FP8 quantized models is only supported on GPUs with compute capability >= 8.9 (e.g 4090/H100)":
        ("transformers", "quantizers/quantizer_finegrained_fp8.py"),
    "MXFP4 quantization requires Triton: CUDA requires Triton >= 3.4.0,": ("transformers", "quantizers/quantizer_mxfp4.py"),
    "MXFP4 quantization requires the `kernels` package:": ("transformers", "quantizers/quantizer_mxfp4.py"),
    "MXFP4 quantization is only supported on GPUs with compute capability >= 7.5":
        ("transformers", "quantizers/quantizer_mxfp4.py"),
    "`run_compressed` is deprecated and will be removed in a future version.": ("transformers", "utils/quantization_config.py"),
    "MXFP4 quantization don't support training, please consider dequantizing the model first by passing"
    " quantization_config=Mxfp4Config(dequantize=True) to .from_pretrained()": ("transformers", "quantizers/quantizer_mxfp4.py"),
    "ValueError: Loading pre-quantized NVFP4 checkpoints is not supported yet.": ("transformers", "quantizers/quantizer_nvfp4.py"),
    "ValueError: Calling `cuda()` is not supported for `8-bit` quantized models.": ("transformers", "modeling_utils.py"),
}


def package_dir(name: str) -> Path:
    """The folder of an installed top-level package, found without importing it (transformers imports
    torchao); skips where it is not installed. Shared with test_troubleshooting_quotes.py."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        pytest.skip(f"{name} is not installed (the site's examples extra)")
    return Path(next(iter(spec.submodule_search_locations)))


def _installed_source(package: str, relative: str) -> str:
    return (package_dir(package) / relative).read_text(encoding="utf-8")


@pytest.mark.parametrize("message", quoted_messages("en"))
def test_each_quoted_message_was_printed_by_pytorch(message):
    """The text after 'SomeError: ' occurs in a checked output, with the same exception or warning name;
    or, for a message no CPU run prints, in the installed library's source (``FROM_SOURCE``)."""
    typed = TYPED.match(message)
    kind, text = typed.groups() if typed else (None, message)
    if message in FROM_SOURCE:
        assert text in _installed_source(*FROM_SOURCE[message]), f"{message!r}: not in {FROM_SOURCE[message]}"
        return
    found = [path for path, out in checked_outputs().items() if text in out and (kind is None or kind in out)]
    assert found, f"{message!r} is in no snippets/**/*.out: copy it from a real run"


def test_every_message_read_from_source_is_still_quoted():
    assert set(FROM_SOURCE) <= set(quoted_messages("en")), set(FROM_SOURCE) - set(quoted_messages("en"))


@pytest.mark.parametrize("lang", LANGS)
def test_the_out_of_memory_messages_are_quoted(lang):
    text = page_text(lang)
    section = text[text.index("{#out-of-memory}") : text.index("{#slower}")]
    for quoted in (f"`{CPU_OOM}`", "`torch.OutOfMemoryError`", f"`{CUDA_OOM}`"):
        assert quoted in section


def test_cpu_allocator_message_is_real():
    with pytest.raises(RuntimeError) as caught:
        torch.empty(2**50, dtype=torch.uint8)  # 1 PiB: refused at once, nothing is touched
    assert CPU_OOM in str(caught.value)


def test_the_gpu_out_of_memory_exception_exists():
    assert issubclass(torch.OutOfMemoryError, RuntimeError)


@pytest.mark.cuda
def test_cuda_out_of_memory_message_is_real():
    with pytest.raises(torch.OutOfMemoryError) as caught:
        torch.empty(2**50, dtype=torch.uint8, device="cuda")
    assert str(caught.value).startswith(CUDA_OOM)
