"""The test machinery itself: each rule fails on the mistake it exists to catch.

.ci/prove-tests-fail does the same end to end on a scratch clone (broken block,
wrong output, missing translation, console error, ...); these are the fast,
always-run versions for the Markdown rules.
"""

from __future__ import annotations

import pytest

from tests.support.docs_lint import (
    fence_problems,
    heading_problems,
    japanese_wrap_problems,
    optional_package_problems,
    third_party_assets,
)
from tests.support.docs_model import parse_markdown
from tests.support.outputs import normalize_output


def page(text, lang="en"):
    return parse_markdown(text, lang, "x.md")


@pytest.mark.parametrize(
    "fence",
    ["```py\nprint(1)\n```", "```pycon\n>>> 1\n```", '```python title="a.py"\nprint(1)\n```', "~~~python\nprint(1)\n~~~",
     "```bash\nls\n```", "```sh\nls\n```"],
)
def test_fences_that_would_be_skipped_are_rejected(fence):
    assert fence_problems(page(f"# T {{#t}}\n\n{fence}\n"))


def test_titled_python_fence_only_for_a_whole_snippet_of_that_name():
    ok = '# T {#t}\n\n```python title="ddp_spawn.py"\n--8<-- "snippets/guide/applied/ddp_spawn.py"\n```\n'
    assert fence_problems(page(ok)) == []
    wrong_name = ok.replace('title="ddp_spawn.py"', 'title="spawn.py"')
    assert fence_problems(page(wrong_name))


def test_optional_package_must_be_named_in_an_admonition_above():
    block = '```python\n--8<-- "snippets/guide/torchvision_mnist.py"\n```\n'
    assert optional_package_problems(page(f"# T {{#t}}\n\nSome prose about torchvision.\n\n{block}"))
    named = f'# T {{#t}}\n\n!!! note "Needs torchvision"\n    pip install torchvision\n\n{block}'
    assert optional_package_problems(page(named)) == []


def test_plain_python_and_console_fences_pass():
    text = "# T {#t}\n\n```python\nprint(1)\n```\n\n<!--pytest-codeblocks:expected-output-->\n```text\n1\n```\n\n```console\npip install x\n```\n"
    assert fence_problems(page(text)) == []


def test_unchecked_text_output_is_rejected():
    assert fence_problems(page("# T {#t}\n\n```python\nprint(1)\n```\n\n```text\n2\n```\n"))


def test_plain_skip_marker_is_rejected_but_cuda_is_allowed():
    assert fence_problems(page("# T {#t}\n\n<!--pytest.mark.skip-->\n```python\nprint(1)\n```\n"))
    assert fence_problems(page("# T {#t}\n\n<!--pytest.mark.cuda-->\n```python\nprint(1)\n```\n")) == []


def test_missing_include_is_rejected():
    assert fence_problems(page('# T {#t}\n\n```python\n--8<-- "snippets/nope/missing.py"\n```\n'))


def test_heading_without_id_is_reported():
    assert heading_problems(page("# Title\n\n## Sub {#sub}\n")) == ["docs/en/x.md: 'Title'"]


def test_hard_wrapped_japanese_is_reported_but_lists_and_code_are_not():
    assert japanese_wrap_problems(page("# 題 {#t}\n\nこれは折り返した\n段落です。\n", "ja"))
    ok = "# 題 {#t}\n\n- 一つ目\n- 二つ目\n\n```python\n# 日本語\n# 日本語\n```\n\n| 表 |\n| 表 |\n"
    assert japanese_wrap_problems(page(ok, "ja")) == []


def test_third_party_image_is_reported():
    assert third_party_assets(page("# T {#t}\n\n![x](https://example.com/a.png)\n"))


def test_output_normalization_only_ignores_trailing_space():
    assert normalize_output("a  \nb\n\n") == "a\nb"
    assert normalize_output("a b") != normalize_output("a  b")


# --- the rule for printed numbers (tests/support/outputs.py) ------------------


def test_output_tolerance_accepts_drift_within_the_declared_bound():
    from tests.support.outputs import compare_outputs, parse_tolerance

    tol = parse_tolerance("rel=0.02 abs=1e-6")
    assert compare_outputs("loss 0.1230  acc 95.1%\n", "loss 0.1235  acc 95.2%", tol) is None
    assert compare_outputs("error 4e-07", "error 3e-07", parse_tolerance("abs=2e-7")) is None
    assert compare_outputs("x  9.9 y", "x 10.0 y", parse_tolerance("rel=0.02")) is None  # a column got wider


def test_output_tolerance_still_fails_wrong_numbers_and_changed_text():
    from tests.support.outputs import compare_outputs, parse_tolerance

    tol = parse_tolerance("rel=0.02")
    assert "not within" in compare_outputs("loss 0.123", "loss 0.200", tol)
    assert "text differs" in compare_outputs("dtype float16", "dtype bfloat16", tol)
    assert "text differs" in compare_outputs("torch 2.13.0", "torch 2.11.0", tol)  # a version is text
    assert "lines" in compare_outputs("a 1\nb 2", "a 1", tol)
    assert "integers are exact" in compare_outputs("546856 bytes", "546857 bytes", tol)
    assert compare_outputs("loss 0.123", "loss 0.1235") is not None  # no tolerance declared: exact
    with pytest.raises(ValueError, match="rel=0.02"):
        parse_tolerance("2 percent")


@pytest.mark.parametrize(
    "text", ["The seed article says so.", "As the seed's loop shows.", "元記事のコード", "See [the seed code](#x).",
             "Each replaces the source article."],
)
def test_seed_article_jargon_is_reported(text):
    from tests.support.docs_lint import jargon_problems

    assert jargon_problems("x.md", f"# T {{#t}}\n\n{text}\n")


def test_random_seeds_and_code_are_not_jargon():
    from tests.support.docs_lint import jargon_problems

    text = "# T {#t}\n\nWith a fixed seed, seeded workers and `torch.manual_seed(0)`.\n\n乱数シードを固定します。\n\n```python\nseed_article = 1\n```\n"
    assert jargon_problems("x.md", text) == []


@pytest.mark.parametrize(
    "text", ["線形層は *最後の* 次元に", "これは **重要** です", "[後述](#x) のとおり", "- **まず測る。** 次に"],
)
def test_spaces_that_split_japanese_emphasis_or_follow_links_are_reported(text):
    from tests.support.docs_lint import fix_japanese_typography, japanese_typography_problems

    assert japanese_typography_problems("x.md", text + "\n")
    assert japanese_typography_problems("x.md", fix_japanese_typography(text + "\n")) == []


@pytest.mark.parametrize(
    "text", ["線形層は*最後の*次元に", "**TorchScript** を使う", "[Gymnasium](https://x) です", "`a * b` と `c * d` の 2 つ", "*x* は"],
)
def test_usual_japanese_spacing_passes(text):
    from tests.support.docs_lint import japanese_typography_problems

    assert japanese_typography_problems("x.md", text + "\n") == []


def test_glossary_variant_is_reported_outside_code_only():
    from tests.support.glossary import variant_problems

    assert variant_problems("x.md", "モデルを訓練します。\n")
    assert variant_problems("x.md", "量子化で精度が落ちすぎる。\n")
    assert variant_problems("x.md", "`訓練` と書いたコード\n\n```python\n# 訓練\n```\n") == []


def test_space_before_a_japanese_link_is_reported_and_fixed():
    from tests.support.docs_lint import fix_japanese_typography, japanese_typography_problems

    text = "詳しくは [テンソル](tensors.md)の章で。\n"
    assert japanese_typography_problems("x.md", text)
    assert fix_japanese_typography(text) == "詳しくは[テンソル](tensors.md)の章で。\n"
    assert japanese_typography_problems("x.md", "ライブラリは [Gymnasium](https://x) です。\n") == []


def test_paste_runner_behaves_like_an_interactive_session(tmp_path):
    """One interpreter for all blocks; no __file__; a titled block runs as a saved file; warnings are errors."""
    from tests.support.copy_paste import Block, problems, run_pasted
    from tests.support.snippets import snippet_env

    blocks = [
        Block(1, "paste", "x = 41"),
        Block(2, "paste", "print(x + 1)", expected="42"),
        Block(3, "file", "import os\nprint(os.path.basename(__file__))", title="saved.py", expected="saved.py"),
        Block(4, "paste", "import saved"),  # the saved file is importable from the session
        Block(5, "paste", "print('never run')", skip="needs a CUDA GPU"),
        Block(6, "paste", "print(__file__)"),
    ]
    workdir = tmp_path / "page"
    workdir.mkdir()
    found = problems("page", blocks, run_pasted(blocks, workdir, snippet_env(), 120))
    assert len(found) == 1, found
    assert "block 6" in found[0] and "NameError" in found[0]
    assert "the interpreter died" not in found[0]
    warn = [Block(1, "paste", "import warnings\nwarnings.warn('deprecated')")]
    (tmp_path / "warn").mkdir()
    assert "UserWarning" in problems("w", warn, run_pasted(warn, tmp_path / "warn", snippet_env(), 120))[0]


def test_a_snippet_that_relies_on_an_earlier_block_is_caught():
    from tests.test_snippets import undefined_names

    assert undefined_names("x = torch.ones(2)\nprint(x)\n", "s.py") == ["torch"]
    assert undefined_names("def f():\n    return np.zeros(1)\n", "s.py") == ["np"]
    ok = "import torch\nfrom torch import nn\nclass M(nn.Module):\n    pass\nfor i in range(2):\n    print(i, M, torch)\n"
    assert undefined_names(ok, "s.py") == []


def test_the_docs_build_needs_no_test_dependency():
    """docs/hooks*.py (run by `mkdocs build`) import nothing that only the test extras install."""
    import subprocess
    import sys

    from tests.support.docs_model import REPO

    code = (
        "import sys\n"
        "for name in ('pytest', '_pytest', 'pytest_codeblocks', 'xdist', 'filelock', 'playwright', 'hypothesis'):\n"
        "    sys.modules[name] = None  # importing any of them now fails\n"
        f"sys.path[:0] = [{str(REPO)!r}, {str(REPO / 'docs')!r}]\n"
        "import hooks, hooks_site\n"
        "from tests.support.snippets import snippet_env\n"
        "snippet_env()\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
