"""Prove that the tests can fail: break one thing at a time and check that the right test catches it.

Run by ``bash .ci/prove-tests-fail`` (after ``.ci/setup``), in a scratch clone of this checkout
(its committed state plus the working tree's changes to tracked files), never in the checkout itself.

For every mutation:

1. the selection it names is first run on the **unbroken** tree: it must select at least one
   test and pass (a ``-k`` that selects nothing exits 5; that is a broken mutation, not a catch);
2. the mutation is applied and the same selection runs again: pytest must exit with 1 (tests
   failed, not 2/3/4/5: an error in collection, an internal error, a usage error or no tests
   would also be non-zero) and a test whose id matches ``expect`` must be among the failures;
3. the tree is restored.

The baselines are cached per selection, so a selection shared by several mutations runs once.
The summary lists every mutation as ``caught``, ``NOT CAUGHT`` or ``BROKEN`` (the unbroken run
failed or selected nothing) and the script exits 1 unless every one was caught.

Usage::

    .venv/bin/python .ci/prove_tests_fail.py            # every mutation
    .venv/bin/python .ci/prove_tests_fail.py -k float8  # those whose name contains "float8"
    .venv/bin/python .ci/prove_tests_fail.py --list
    .venv/bin/python .ci/prove_tests_fail.py --ci       # the fastest of each kind, no baselines (.ci/test)

``--ci`` runs the mutations named in ``CI_MUTATIONS``: the fastest of each kind among those that need
no built site. It skips the baselines (``.ci/test`` runs it right after the whole suite passed, these
tests among them), so each costs one pytest run in the scratch clone.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


@dataclass
class Mutation:
    name: str
    shell: str  # a bash command run in the scratch clone's root that breaks one thing
    pytest: list[str]  # the selection that must catch it
    expect: str  # regex matched against the failing tests' ids ("file::name[param]")
    extra: list[str] = field(default_factory=list)  # pytest options for both runs (e.g. --snippets-as-files)


HALF = "docs/ja/storage/half-vs-float.md docs/en/storage/half-vs-float.md"
PRINT_123 = "print(torch.tensor(1.23, dtype=torch.float16).item())"

MUTATIONS: list[Mutation] = [
    # -- blocks, outputs and warnings (the copy-paste test, in a reader's own virtualenv) --
    Mutation("broken snippet run alone", "echo 'raise RuntimeError(\"broken on purpose\")' >> snippets/storage/create_dtypes.py",
             ["tests/test_snippets.py", "-k", "create_dtypes"], r"create_dtypes", ["--snippets-as-files"]),
    Mutation("broken inline block", f"sed -i 's/{PRINT_123}/{PRINT_123.replace('.item()', '.itemz()')}/' {HALF}",
             ["tests/test_copy_paste.py", "-k", "half-vs-float.md"], r"test_page_pastes_cleanly\[storage/half-vs-float\.md\]"),
    Mutation("wrong .out output", "sed -i 's/1.2305/1.2300/' snippets/storage/legacy_half_storage.out",
             ["tests/test_copy_paste.py", "-k", "half-vs-float.md"], r"test_page_pastes_cleanly\[storage/half-vs-float\.md\]"),
    Mutation("wrong inline expected output", f"sed -i 's/^1.23046875$/1.23/' {HALF}",
             ["tests/test_copy_paste.py", "-k", "half-vs-float.md"], r"test_page_pastes_cleanly\[storage/half-vs-float\.md\]"),
    Mutation("deprecation warning in a block",
             f"sed -i 's/{PRINT_123}/torch.set_default_tensor_type(torch.FloatTensor); {PRINT_123}/' {HALF}",
             ["tests/test_copy_paste.py", "-k", "half-vs-float.md"], r"test_page_pastes_cleanly\[storage/half-vs-float\.md\]"),
    # -- the two languages --
    Mutation("missing translation (page)", "rm docs/en/storage/index.md", ["tests/test_parity.py"], r"test_parity"),
    Mutation("heading id differs", "sed -i 's/{#speed}/{#speed-en}/' docs/en/storage/half-vs-float.md",
             ["tests/test_parity.py"], r"test_parity"),
    Mutation("code differs between languages (a value changed on the English page only)",
             f"sed -i 's/{PRINT_123}/{PRINT_123.replace('1.23', '1.25')}/' docs/en/storage/half-vs-float.md", ["tests/test_parity.py"], r"test_parity"),
    Mutation("stale Japanese section",
             r"sed -i 's/^# Storage and precision {#storage}$/# Storage and precision {#storage}\n\nA sentence the Japanese page has not caught up with./' docs/en/storage/index.md",
             ["tests/test_translations.py"], r"test_translations"),
    # -- lint --
    Mutation("py fence (silently skipped by pytest-codeblocks)",
             r"printf '\n```py\nprint(1)\n```\n' | tee -a docs/ja/storage/index.md >> docs/en/storage/index.md",
             ["tests/test_doc_lint.py"], r"test_doc_lint"),
    Mutation("unchecked text output",
             r"printf '\n```text\ninvented output\n```\n' | tee -a docs/ja/storage/index.md >> docs/en/storage/index.md",
             ["tests/test_doc_lint.py"], r"test_doc_lint"),
    Mutation("hard-wrapped Japanese paragraph", r"printf '\nこれは折り返した\n日本語の段落です。\n' >> docs/ja/storage/index.md",
             ["tests/test_doc_lint.py"], r"test_doc_lint"),
    Mutation("seed-article jargon in prose", r"printf '\nThe seed article gets this wrong.\n' >> docs/en/storage/index.md",
             ["tests/test_doc_lint.py", "-k", "stand_on_their_own"], r"stand_on_their_own"),
    Mutation("space splitting Japanese emphasis", r"printf '\nこれは *強調* です。\n' >> docs/ja/storage/index.md",
             ["tests/test_doc_lint.py", "-k", "splitting_spaces"], r"splitting_spaces"),
    Mutation("glossary variant (訓練) in Japanese prose", r"printf '\nモデルを訓練します。\n' >> docs/ja/storage/index.md",
             ["tests/test_glossary.py"], r"test_glossary"),
    Mutation("snippet relying on an earlier block's import", "sed -i 's/^import torch$/import math/' snippets/storage/create_dtypes.py",
             ["tests/test_snippets.py", "-k", "defines_what"], r"defines_what"),
    # -- notebooks --
    Mutation("failing notebook cell",
             """python - <<'PY'
import json
for lang in ("ja", "en"):
    p = f"docs/{lang}/notebooks/half-vs-float.ipynb"; nb = json.load(open(p))
    nb["cells"][2]["source"] = "raise ValueError('broken cell on purpose')"
    json.dump(nb, open(p, "w"))
PY""",
             ["tests/test_notebooks.py", "-k", "half-vs-float"], r"half-vs-float"),
    # -- the built site in Chromium --
    Mutation("console error", r"""printf '\n<script>console.error("broken on purpose")</script>\n' | tee -a docs/ja/storage/half-vs-float.md >> docs/en/storage/half-vs-float.md""",
             ["tests/test_site.py", "-k", "loads_cleanly and ja/storage"], r"loads_cleanly"),
    Mutation("third-party request (CDN script)",
             """python - <<'PY'
p = "mkdocs.yml"; s = open(p).read()
s = s.replace("extra_javascript:\\n", "extra_javascript:\\n  - https://cdn.jsdelivr.net/npm/foo@1/foo.js\\n", 1)
open(p, "w").write(s)
PY""",
             ["tests/test_site.py", "-k", "loads_cleanly and ja/storage"], r"loads_cleanly"),
    Mutation("language switch script emptied (Material then asks for a sitemap.xml next to each page's alternates)",
             ": > docs/overrides/assets/language-switch.js",
             ["tests/test_site.py", "-k", "language_switch"], r"language_switch"),
    # -- findable from outside (tests/test_site_findable.py) --
    Mutation("alternates hook off: language links to the home pages again", "sed -i '/docs\\/hooks\\/alternates.py/d' mkdocs.yml",
             ["tests/test_site_findable.py", "-k", "alternates"], r"alternates"),
    Mutation("descriptions hook off: every page has the site's description", "sed -i '/docs\\/hooks\\/descriptions.py/d' mkdocs.yml",
             ["tests/test_site_findable.py", "-k", "description"], r"description"),
    Mutation("page wider than a phone (every-page sweep)",
             r"""printf '\n<div style="width: 1200px">too wide on purpose</div>\n' | tee -a docs/ja/guide/tensors.md >> docs/en/guide/tensors.md""",
             ["tests/test_site_a11y.py", "-k", "every_page and en"], r"every_page"),
    Mutation("content-visibility on list items again (a numbered list restarts at 1 on each item, bullets clipped)",
             r"sed -i 's/^\.md-typeset > :is(ul, ol):nth-child(n+8) > li > \*,/.md-typeset > :is(ul, ol):nth-child(n+8) > li,/' docs/overrides/assets/site.css",
             ["tests/test_site.py", "-k", "off_screen"], r"off_screen"),
    Mutation("content-visibility on definition lists again (a jump to troubleshooting#messages-quantization lands 2,000 px past its heading)",
             r"sed -i 's/^\.md-typeset > :is(ul, ol):nth-child(n+8) > li > \*,/.md-typeset > dl > *,\n&/' docs/overrides/assets/site.css",
             ["tests/test_site.py", "-k", "link_to_a_section"], r"link_to_a_section"),
    Mutation("content-visibility on the API reference's objects again (Lighthouse's contrast audit failed on the bench reference: axe-core#2768)",
             r"sed -i 's/ \.number-explorer, \.doc, form,/ .number-explorer, form,/' docs/overrides/assets/site.css",
             ["tests/test_site_a11y.py", "-k", "axe and light-ja"], r"axe_finds_no_violation"),
    Mutation("spawn example without its save-as title (copy-paste test)",
             """sed -i 's/```python title="ddp_spawn.py"/```python/' docs/ja/guide/applied/distributed.md docs/en/guide/applied/distributed.md""",
             ["tests/test_copy_paste.py", "-k", "distributed.md"], r"distributed\.md"),
    # -- issue 22: holes that used to let a wrong result pass --
    Mutation("tolerance: Adam at lr 0.01 falls from 0.964 to 0.850 (only lr 0.1 and 1 of SGD/RMSprop may move)",
             "sed -i 's/^Adam         0.278    0.922    0.964/Adam         0.278    0.922    0.850/' snippets/guide/lr_sweep.out",
             ["tests/test_snippets.py", "-k", "lr_sweep"], r"lr_sweep", ["--snippets-as-files"]),
    Mutation("tolerance: torchao accuracy 0.978 -> 0.935 (only the relative L2 error may move)",
             "sed -i '2s/accuracy 0.978/accuracy 0.935/' snippets/quantization/torchao_quantize.out",
             ["tests/test_snippets.py", "-k", "torchao_quantize"], r"torchao_quantize", ["--snippets-as-files"]),
    Mutation("an output shown under the wrong code (another snippet's .out)",
             "sed -i 's|snippets/guide/lr_sweep.out|snippets/guide/schedule_early_stop.out|' docs/ja/guide/optimizers.md docs/en/guide/optimizers.md",
             ["tests/test_doc_lint.py"], r"test_doc_lint"),
    Mutation("a block switched off for good: skipif(True, ...)",
             """sed -i 's/pytest.mark.skipif(__import__("torch").accelerator.is_available(),/pytest.mark.skipif(True,/' docs/ja/storage/sharing.md docs/en/storage/sharing.md""",
             ["tests/test_doc_lint.py"], r"test_doc_lint"),
    Mutation("a CUDA marker on plain CPU code",
             """python - <<'PY'
for lang in ("ja", "en"):
    p = f"docs/{lang}/storage/half-vs-float.md"; s = open(p, encoding="utf-8").read()
    s = s.replace("\\n```python\\n", "\\n<!--pytest.mark.cuda-->\\n```python\\n", 1)
    open(p, "w", encoding="utf-8").write(s)
PY""",
             ["tests/test_doc_lint.py"], r"test_doc_lint"),
    Mutation("reference_impl: the small-scale branch of the activation qparams deleted",
             """python - <<'PY'
p = "reference_impl/quantization/dynamic.py"; s = open(p).read()
i = s.index("    if scale < SMALL_SCALE_THRESHOLD:"); j = s.index("    zp_from_min = qmin - lo / scale")
open(p, "w").write(s[:i] + s[j:])
PY""",
             ["tests/test_quantization_dynamic.py", "-k", "activation_qparams"], r"equal_torchs_own_choice_exactly"),
    Mutation("reference_impl: float16 rounding ties away from zero instead of to even",
             "sed -i 's/round_up = (dropped > half) | ((dropped == half) \\& kept_is_odd)/round_up = dropped >= half/' reference_impl/storage/rounding.py",
             ["tests/test_storage_rounding.py"], r"test_storage_rounding"),
    Mutation("tested-with decided by each xdist worker (a failed run recorded)",
             """python - <<'PY'
p = "tests/support/tested_with.py"; s = open(p).read()
s = s.replace('    if hasattr(config, "workerinput"):  # an xdist worker: the controller decides for the whole run\\n        return\\n', '')
open(p, "w").write(s)
PY""",
             ["tests/test_tested_with.py"], r"not_recorded"),
    # -- issue 21: nothing but the reader's code --
    Mutation("test metadata in the code readers copy (a harness comment in a rendered block)",
             """python - <<'PY'
for lang in ("ja", "en"):
    p = f"docs/{lang}/storage/half-vs-float.md"; s = open(p, encoding="utf-8").read()
    s = s.replace("\\n```python\\n", "\\n```python\\n# allow-stderr: ^Failed to load\\n", 1)
    open(p, "w", encoding="utf-8").write(s)
PY""",
             ["tests/test_site.py", "-k", "loads_cleanly and ja/storage"], r"loads_cleanly"),
    # -- issue 25: Japanese all the way down --
    Mutation("a Japanese docstring that changes the code (a snippet's .ja.toml breaks out of its quotes)",
             """python - <<'PY'
from pathlib import Path
from docs_tools import localize
script = Path("snippets/storage/qint32_mistakes.py"); sidecar = localize.sidecar_path(script)
table = localize.load(sidecar)
table["Run one line of the common mistake and print what really happens."]["ja"] += '\"\"\"; print(1); \"\"\"'
sidecar.write_text("".join(
    f"[[text]]\\nen = {localize._toml_string(en)}\\n"
    + ("keep = true\\n" if e.get("keep") else f"ja = {localize._toml_string(e['ja'])}\\n")
    for en, e in table.items()), encoding="utf-8")
PY""",
             ["tests/test_snippets.py", "-k", "japanese and qint32_mistakes"], r"qint32_mistakes"),
    Mutation("a Japanese page's inline block whose code differs from the English one",
             "sed -i '0,/torch.tensor(1.23/s//torch.tensor(1.24/' docs/ja/storage/half-vs-float.md",
             ["tests/test_parity.py", "-k", "same_code and half-vs-float"], r"test_same_code"),
    Mutation("an English comment left on a Japanese page",
             """python - <<'PY'
p = "docs/ja/storage/half-vs-float.md"; s = open(p, encoding="utf-8").read()
s = s.replace("\\n```python\\n", "\\n```python\\n# the value that is really stored\\n", 1)
open(p, "w", encoding="utf-8").write(s)
PY""",
             ["tests/test_parity.py", "-k", "comment_in_japanese and half-vs-float"], r"comment_in_japanese"),
    Mutation("a spelling the style guide rules out (textlint with docs/prh.yml)",
             "sed -i '0,/オプティマイザ/s//オプティマイザー/' docs/ja/guide/optimizers.md",
             ["tests/test_style_ja.py"], r"follow_the_style_rules"),
    Mutation("an English interface string on the Japanese site (the permalink title)",
             "sed -i '/permalink_title: この見出しへのリンク/d' mkdocs.yml",
             ["tests/test_site_ui_ja.py", "-k", "japanese_interface"], r"japanese_interface"),
    # -- issue 31: what the caches keep must not outlive what it was computed from --
    Mutation("reference_impl changed under an unchanged page (the wheel the copy-paste test installs: the page's kept pass must not be reused)",
             "sed -i 's/round_up = (dropped > half) | ((dropped == half) \\& kept_is_odd)/round_up = dropped >= half/' reference_impl/storage/rounding.py",
             ["tests/test_copy_paste.py", "-k", "half-vs-float.md"], r"test_page_pastes_cleanly\[storage/half-vs-float\.md\]"),
    Mutation("a hook's code changed, not the config (the site build cache must build again)",
             """sed -i 's/    page.meta\\["description"\\] = text/    page.meta["description"] = "One text for every page."/' docs/hooks/descriptions.py""",
             ["tests/test_site_findable.py", "-k", "description"], r"description"),
    # -- issue 26: the GPU benchmark's method --
    Mutation("float8 timing includes the cast (the operands quantized inside the timed call)",
             """sed -i 's/calls\\["float8_e4m3fn"\\] = lambda: float8_matmul(a8, scale_a, b8, scale_b)/calls["float8_e4m3fn"] = lambda: float8_scaled_matmul(a32, b32)/' benchmarks/cases/gpu_matmul.py""",
             ["tests/test_bench_gpu_cases.py", "-k", "product_alone"], r"product_alone"),
    # -- issue 30: every number has a source, and both languages say the same numbers --
    Mutation("a prose figure changed in both languages with the translation record updated (3.8x -> 3.5x smaller)",
             "sed -i 's/the stored weights are 3.8× smaller/the stored weights are 3.5× smaller/' docs/en/quantization/alternatives.md"
             " && sed -i 's/格納される重みは 3.8 分の 1/格納される重みは 3.5 分の 1/' docs/ja/quantization/alternatives.md"
             " && .venv/bin/python -m docs_tools.translations --update docs/ja/quantization/alternatives.md"
             " && grep -q '3.5 分の 1' docs/ja/quantization/alternatives.md && grep -q '3.5× smaller' docs/en/quantization/alternatives.md",
             ["tests/test_prose_figures.py", "-k", "alternatives"], r"test_declared_figure_is_what_its_source_says\[quantization/alternatives\.md:3\.8"),
    Mutation("a number in a Japanese comment (65519 -> 65521, which rounds to inf)",
             "sed -i \"s/^ja = '上端での丸め。65519/ja = '上端での丸め。65521/\" snippets/storage/float16_range.ja.toml"
             " && grep -q 65521 snippets/storage/float16_range.ja.toml",
             ["tests/test_parity_numbers.py", "-k", "float16_range"], r"test_japanese_comments_have_the_numbers_of_the_english\[snippets/storage/float16_range"),
    Mutation("a number changed on one language's page only (Japanese prose: 65504 -> 65503)",
             "sed -i '0,/65504/s//65503/' docs/ja/storage/half-vs-float.md",
             ["tests/test_parity_numbers.py", "-k", "half-vs-float"], r"test_same_numbers_links_and_footnotes_per_section\[storage/half-vs-float"),
    # -- issue 30: the net checks that it is taut --
    Mutation("copy-paste comparison of .out files switched off (the runner skips blocks included from snippets/)",
             """python - <<'PY'
p = "tests/support/copy_paste.py"; s = open(p).read()
old = 'if b.expected is None or done.get(b.index, {}).get("status") != "ok":'
assert old in s
open(p, "w").write(s.replace(old, old[:-1] + ' or b.origin.startswith("snippets/"):'))
PY""",
             ["tests/test_copy_paste_plan.py"], r"test_copy_paste_plan\.py::test_every_shown_output_is_compared"),
    Mutation("benchmark rounds in a fixed order (no rotation, no reversal)",
             "sed -i 's/^        order = names\\[k:\\] + names\\[:k\\]$/        order = list(names)/; s/^        if r % 2:$/        if False:/' benchmarks/timing.py"
             " && grep -q 'order = list(names)' benchmarks/timing.py",
             ["tests/test_bench_order.py"], r"test_rounds_rotate_and_reverse"),
    # -- the support matrix is data (docs/data/support_matrix.toml; the pages hold placeholders) --
    Mutation("a support-matrix row swapped in both languages (the data: V100 and A100 of autocast training)",
             "sed -i -e 's/^\\[table\\.sixteen-bit-training\\.cell\\.sm70\\]$/[table.sixteen-bit-training.cell.TMP]/'"
             " -e 's/^\\[table\\.sixteen-bit-training\\.cell\\.sm80\\]$/[table.sixteen-bit-training.cell.sm70]/'"
             " -e 's/^\\[table\\.sixteen-bit-training\\.cell\\.TMP\\]$/[table.sixteen-bit-training.cell.sm80]/' docs/data/support_matrix.toml"
             " && grep -A2 -F '[table.sixteen-bit-training.cell.sm70]' docs/data/support_matrix.toml | grep -q 'native.*a100'",
             ["tests/test_support_matrix.py", "-k", "rules"], r"test_cells_agree_with_their_rules\[sixteen-bit-training\]"),
    Mutation("a support-matrix row swapped in one language (a hand-written table in place of the Japanese placeholder, V100 'native')",
             "python3 -c \"import pathlib; p = pathlib.Path('docs/ja/support-matrix.md'); t = p.read_text(encoding='utf-8');"
             " h = '| ハードウェア | float16(GradScaler あり) | bfloat16 | TF32 |\\n| --- | --- | --- | --- |\\n';"
             " r = '| NVIDIA 7.0(V100) | ネイティブ[^v100] | ネイティブ[^bf16cuda] | ネイティブ[^a100] |\\n';"
             " p.write_text(t.replace('<!-- support-matrix: sixteen-bit-training -->', h + r), encoding='utf-8')\""
             " && grep -q '^| NVIDIA 7.0(V100) | ネイティブ' docs/ja/support-matrix.md",
             ["tests/test_support_matrix.py", "-k", "hand_written or placeholder"], r"test_the_page_holds_no_hand_written_cells\[ja\]"),
    Mutation("a support-matrix label swapped in one language's catalog (ja: native shown as エミュレーション)",
             "sed -i -e 's/^native = \"ネイティブ\"$/native = \"エミュレーション\"/' -e 's/^emulated = \"エミュレーション\"$/emulated = \"ネイティブ\"/'"
             " docs/data/messages.ja.toml && grep -q '^native = \"エミュレーション\"' docs/data/messages.ja.toml",
             ["tests/test_support_matrix.py", "-k", "words"], r"test_the_value_labels_are_the_words_the_page_defines\[ja\]"),
    # -- the troubleshooting page (issue 33) --
    Mutation("a troubleshooting link to a heading that does not exist (ja)",
             "sed -i 's/#find-overflow)/#find-the-overflow)/' docs/ja/troubleshooting.md && grep -q 'find-the-overflow' docs/ja/troubleshooting.md",
             ["tests/test_troubleshooting.py", "-k", "link"], r"test_every_link_reaches_an_existing_section\[ja\]"),
    Mutation("a quoted error message that PyTorch never printed",
             "sed -i 's/Attempting to unscale FP16 gradients/Attempting to unscale float16 gradients/' docs/en/troubleshooting.md docs/ja/troubleshooting.md"
             " && grep -q 'unscale float16 gradients' docs/en/troubleshooting.md",
             ["tests/test_troubleshooting.py", "-k", "printed"], r"test_each_quoted_message_was_printed_by_pytorch\[ValueError: Attempting to unscale float16"),
    # -- one term per concept, and the API reference (2026-11-27) --
    Mutation("a Japanese page uses a term the glossary rules out (組の和 for ペアの和)",
             "sed -i '0,/ペアの和/s//組の和/' docs/ja/quantization/static.md && grep -q '組の和' docs/ja/quantization/static.md",
             ["tests/test_glossary.py", "-m", "not site"], r"test_glossary"),
    Mutation("a kana spelling the official-document rule writes in kanji (分かります -> わかります)",
             "sed -i '0,/分かります/s//わかります/' docs/ja/guide/training.md && grep -q 'わかります' docs/ja/guide/training.md",
             ["tests/test_style_ja.py"], r"test_japanese_pages_follow_the_style_rules"),
    Mutation("a Sphinx role in a docstring (renders literally in the API reference)",
             "sed -i '0,/``reference_impl``/s//:mod:`reference_impl`/' reference_impl/errors.py && grep -q ':mod:' reference_impl/errors.py",
             ["tests/test_api_docs.py"], r"test_docstrings_use_no_sphinx_roles"),
]


# A mutation that replaces one text of one file, for .ci/mutations/ (EDIT.format(path=, old=, new=)): it
# fails, and the mutation counts as BROKEN, when the text is no longer there.
EDIT = """python3 - <<'PY'
p = {path!r}; s = open(p, encoding="utf-8").read()
old, new = {old!r}, {new!r}
assert old in s, "the mutation no longer applies: " + old
open(p, "w", encoding="utf-8").write(s.replace(old, new, 1))
PY"""


# More mutations, one file per subject in .ci/mutations/ (so that work on one subject does not edit
# another's list): each defines MUTATIONS (a list of Mutation) and may define CI_MUTATIONS (names, as
# below). They are loaded here, after the list above, in file-name order.
def _load_more() -> None:
    import importlib.util

    global CI_MUTATIONS_MORE
    CI_MUTATIONS_MORE = []
    for path in sorted((Path(__file__).parent / "mutations").glob("*.py")):
        spec = importlib.util.spec_from_file_location(f"mutations_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        module.Mutation = Mutation  # the files use the class without importing this script
        module.EDIT = EDIT
        spec.loader.exec_module(module)
        MUTATIONS.extend(module.MUTATIONS)
        CI_MUTATIONS_MORE.extend(getattr(module, "CI_MUTATIONS", ()))


CI_MUTATIONS_MORE: list[str] = []
_load_more()


def sh(cmd: str, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, text=True, capture_output=True, **kw)


def outcomes(xml_path: Path) -> tuple[int, list[str]]:
    """(tests run, ids of failed/errored tests) from a junit XML file."""
    if not xml_path.exists():
        return 0, []
    root = ET.parse(xml_path).getroot()
    run, failed = 0, []
    for case in root.iter("testcase"):
        if case.find("skipped") is not None:
            continue
        run += 1
        if case.find("failure") is not None or case.find("error") is not None:
            module = case.get("classname", "").replace(".", "/")
            failed.append(f"{module}.py::{case.get('name')}")
    return run, failed


def run_pytest(clone: Path, args: list[str], tag: str) -> tuple[int, int, list[str], str]:
    xml = clone.parent / f"{tag}.xml"
    xml.unlink(missing_ok=True)
    proc = subprocess.run(
        [str(clone / ".venv/bin/python"), "-m", "pytest", "-p", "no:cacheprovider", "-q", "-p", "no:randomly",
         # xunit1: the copy-paste test records its skipped blocks with record_property, which pytest
         # warns is incompatible with the default xunit2 (and warnings are errors in this suite)
         f"--junitxml={xml}", "-o", "junit_family=xunit1", *args],
        cwd=clone, text=True, capture_output=True, env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )
    run, failed = outcomes(xml)
    return proc.returncode, run, failed, (proc.stdout + proc.stderr)[-2500:]


def restore(clone: Path) -> None:
    sh("git checkout -q -- . && git clean -qfd -e .venv -e node_modules -e .cache", clone)


def make_clone(clone: Path, commit: str | None = None) -> Path:
    """A scratch clone of this checkout with the working tree's changes committed, sharing its
    ``.venv``, ``node_modules`` and ``.cache``; with ``commit``, that commit alone (``--commit``:
    the working tree's changes, someone's work in progress, are left out)."""
    subprocess.run(["git", "clone", "-q", str(REPO), str(clone)], check=True)
    if commit is not None:
        subprocess.run(["git", "checkout", "-q", "--detach", commit], cwd=clone, check=True)
    else:
        # the working tree's changes to tracked files and its new files, so uncommitted work is proved too
        diff = subprocess.run(["git", "diff", "HEAD", "--binary"], cwd=REPO, capture_output=True, check=True).stdout
        if diff:
            subprocess.run(["git", "apply", "--whitespace=nowarn"], cwd=clone, input=diff, check=True)
        for rel in subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=REPO,
                                  capture_output=True, text=True, check=True).stdout.splitlines():
            (clone / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(REPO / rel, clone / rel)
    sh("git add -A && git -c user.name=p -c user.email=p@p commit -qm 'working tree' --allow-empty", clone)
    # .cache: the site build's content-keyed caches (notebooks, figures, wheel), so that each
    # site-test selection does not re-run every notebook; a mutation changes the keys it touches.
    for shared in (".venv", "node_modules", ".cache"):
        if (REPO / shared).exists():
            (clone / shared).symlink_to((REPO / shared).resolve())
    return clone


def prove_one(n: int, m: Mutation, clone: Path, baselines: dict[str, tuple[bool, str]], lock: threading.Lock,
              ci: bool) -> tuple[str, str]:
    """Run mutation ``m`` in ``clone``: its tests pass unbroken (the baseline, once per selection;
    taken as passed with ``ci``, after the whole suite), then fail with it applied."""
    t0 = time.time()
    selection = m.pytest + m.extra
    key = json.dumps(selection)
    with lock:
        known = baselines.get(key, (True, "") if ci else None)
    if known is None:
        code, run, failed, tail = run_pytest(clone, selection, f"base{n}")
        ok = code == 0 and run > 0
        why = "" if ok else (f"selects no test (exit {code})" if run == 0 else f"fails unbroken (exit {code}): {failed[:3]}\n{tail}")
        known = (ok, why)
        with lock:
            baselines[key] = known
    ok, why = known
    if not ok:
        status, detail = "BROKEN", why
    else:
        applied = sh(m.shell, clone)
        if applied.returncode != 0 or not sh("git status --porcelain", clone).stdout.strip():
            status, detail = "BROKEN", f"the mutation changed nothing or failed: {applied.stderr[-500:]}"
        else:
            code, run, failed, tail = run_pytest(clone, selection, f"mut{n}")
            hit = [f for f in failed if re.search(m.expect, f)]
            if code == 1 and hit:
                status, detail = "caught", hit[0]
            else:
                status = "NOT CAUGHT"
                detail = f"exit {code}, failed: {failed[:3] or 'none'} (expected one matching {m.expect!r})\n{tail if code != 1 else ''}"
    print(f"{status}: {m.name} -> {detail.strip()[:400]}  ({time.time() - t0:.0f} s)", flush=True)
    return status, m.name


# The fastest mutation of each kind that needs no built site (README "Proving the tests can fail"):
# .ci/test runs them after the suite (--ci). The kinds left out, and why, are in the README.
CI_MUTATIONS = (
    "copy-paste comparison of .out files switched off",  # page code and outputs (the runner's judgement)
    "a Japanese page's inline block whose code differs from the English one",  # the two languages
    "space splitting Japanese emphasis",  # lint
    "a Japanese docstring that changes the code",  # Japanese comments of the scripts
    "snippet relying on an earlier block's import",  # a snippet run alone
    "reference_impl: the small-scale branch of the activation qparams deleted",  # reference_impl
    "benchmark rounds in a fixed order",  # the benchmark's method
    "failing notebook cell",  # notebooks
    "a prose figure changed in both languages",  # figures tied to their sources
    "a number in a Japanese comment",  # the same numbers in both languages
    "a support-matrix row swapped in both languages",  # the support matrix as data
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("-k", action="append", default=[], help="only mutations whose name contains this text (repeatable: any of them)")
    parser.add_argument("--list", action="store_true")
    parser.add_argument("--ci", action="store_true", help="only CI_MUTATIONS, without baselines (.ci/test runs it after the suite)")
    parser.add_argument("--without-site", action="store_true",
                        help="leave out the mutations that only a site test (tests/test_site*.py) catches: each builds the site"
                        " in its scratch clone (minutes each); run them on their own with -k site or -k deploy")
    parser.add_argument("--commit", metavar="REV",
                        help="prove this commit (e.g. HEAD) as committed, without the working tree's changes")
    parser.add_argument("--jobs", type=int, default=2, help="mutations proved side by side, each in its own scratch clone (default 2: the cores CI has)")
    args = parser.parse_args()
    ci_names = (*CI_MUTATIONS, *CI_MUTATIONS_MORE)
    chosen = [m for m in MUTATIONS if not args.k or any(k.lower() in m.name.lower() for k in args.k)]
    if args.without_site:
        chosen = [m for m in chosen if not any(part.startswith("tests/test_site") for part in m.pytest)]
    if args.ci:
        missing = [n for n in ci_names if not any(m.name.startswith(n) for m in MUTATIONS)]
        if missing:
            print(f"CI_MUTATIONS names no mutation: {missing}")
            return 2
        chosen = [m for m in chosen if any(m.name.startswith(n) for n in ci_names)]
    if args.list:
        for m in chosen:
            print(f"{m.name}: {' '.join(m.pytest + m.extra)}  (expects {m.expect})")
        return 0
    if not chosen:
        print(f"no mutation matches {args.k!r}")
        return 2
    commit = None
    if args.commit:
        commit = subprocess.run(["git", "rev-parse", "--verify", f"{args.commit}^{{commit}}"], cwd=REPO,
                                capture_output=True, text=True, check=True).stdout.strip()
        print(f"proving commit {commit[:12]} as committed (the working tree's changes left out)", flush=True)
    scratch = Path(tempfile.mkdtemp(prefix="prove-tests-fail-"))
    try:
        # One scratch clone per job: the mutations are independent, and each one's pytest is one
        # process, so two run side by side on the two cores CI has (the --ci set: 108 s -> about 60 s).
        clones: queue.Queue[Path] = queue.Queue()
        for j in range(max(1, min(args.jobs, len(chosen)))):
            clones.put(make_clone(scratch / f"repo{j}", commit))
        baselines: dict[str, tuple[bool, str]] = {}
        lock = threading.Lock()

        def prove(n: int, m: Mutation) -> tuple[str, str]:
            clone = clones.get()
            try:
                return prove_one(n, m, clone, baselines, lock, args.ci)
            finally:
                restore(clone)
                clones.put(clone)

        with ThreadPoolExecutor(clones.qsize()) as pool:
            results = list(pool.map(lambda pair: prove(*pair), enumerate(chosen, 1)))
        caught = sum(s == "caught" for s, _ in results)
        print(f"\n{caught} of {len(results)} mutations caught"
              + "".join(f"\n  {s}: {name}" for s, name in results if s != "caught"))
        return 0 if caught == len(results) else 1
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
