"""The test machinery itself: each rule fails on the mistake it exists to catch.

.ci/prove-tests-fail does the same end to end on a scratch clone (broken block,
wrong output, missing translation, console error, ...); these are the fast,
always-run versions for the Markdown rules.
"""

from __future__ import annotations

import pytest

from tests.doc_runner import normalize_output, run_block
from tests.docs_lint import (
    fence_problems,
    heading_problems,
    japanese_wrap_problems,
    optional_package_problems,
    third_party_assets,
)
from tests.docs_model import parse_markdown


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


def test_block_runner_makes_warnings_errors_and_runs_main():
    with pytest.raises(UserWarning):
        run_block("import warnings\nwarnings.warn('x')\n", "x.md")
    assert run_block("if __name__ == '__main__':\n    print('main')\n", "x.md") == "main\n"


def test_block_runner_reports_markdown_line_numbers():
    with pytest.raises(ZeroDivisionError) as info:
        run_block("x = 1\ny = 1 / 0\n", "docs/en/x.md", first_line=10)
    assert info.traceback[-1].lineno + 1 == 11


def test_output_normalization_only_ignores_trailing_space():
    assert normalize_output("a  \nb\n\n") == "a\nb"
    assert normalize_output("a b") != normalize_output("a  b")


def test_paste_runner_behaves_like_an_interactive_session(tmp_path):
    """One interpreter for all blocks; no __file__; a titled block runs as a saved file; warnings are errors."""
    from tests.copy_paste import Block, problems, run_pasted
    from tests.test_snippets import snippet_env

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
