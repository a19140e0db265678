"""The copy-paste test's plan and judgement on a small fake page, without a built site.

tests/test_copy_paste.py runs every page of the built site; these tests check the two layers it
relies on with a page written here and a fake interpreter, so that a comparison switched off (an
included ``.out`` no longer compared, an expected-output block lost by the plan) fails in the fast
part of the suite (``-m "not site"``):

* the plan (tests/support/paste_plan.py) gives each block the output shown under it, as many as
  the Markdown model finds (docs_tools.docs_model.expected_outputs);
* the judgement (tests/support/copy_paste.py) reports a block that printed something else, and a
  run that compared fewer outputs than the page shows.
"""

from __future__ import annotations

import html

import pytest
from bs4 import BeautifulSoup

from docs_tools.docs_model import REPO, expected_outputs, parse_markdown
from tests.support import paste_plan
from tests.support.copy_paste import Outcome, PageCache, RunContext, run_page
from tests.support.paste_plan import html_code_blocks, plan_blocks

SNIPPET = "snippets/storage/legacy_half_storage"
PAGE = f"""# A page {{#a}}

```python
--8<-- "{SNIPPET}.py"
```

```text
--8<-- "{SNIPPET}.out"
```

```python
print(1 + 1)
```

<!--pytest-codeblocks:expected-output-->
```text
2
```

```python
x = 3
```

<!--pytest.mark.cuda-->
```python
print(torch.cuda.device_count())
```

<!--pytest-codeblocks:expected-output-->
```text
1
```

```console
pip install torch
```
"""


def _built(md) -> str:
    """The page's content as the site build renders its code blocks (an include shows the file)."""
    divs = []
    for f in md.fences:
        text = (REPO / f.include).read_text(encoding="utf-8") if f.include else f.body
        divs.append(f'<div class="highlight"><pre><code>{html.escape(text)}</code></pre></div>')
    return "<article>" + "\n".join(divs) + "</article>"


@pytest.fixture
def page(monkeypatch):
    monkeypatch.setattr(paste_plan, "_has_cuda", lambda: False)
    md = parse_markdown(PAGE, "en", "fake.md")
    blocks = plan_blocks(md, html_code_blocks(BeautifulSoup(_built(md), "html.parser")), has_module=lambda _: True)
    return md, blocks


class FakeInterpreter:
    """Stands in for the reader's interpreter: every block that is not skipped runs and prints
    what the page shows under it, except the ``wrong`` ones."""

    def __init__(self, wrong=()):
        self.wrong = set(wrong)

    def __call__(self, blocks, workdir, env, timeout, files, python=None):
        results = [{"index": b.index, "status": "skipped" if b.skip else "ok"} for b in blocks]
        stdout = {b.index: ("something else\n" if b.index in self.wrong else (b.expected or "")) for b in blocks
                  if not b.skip}
        return Outcome(results=results, stdout=stdout, stderr={}, returncode=0, tail="")


def _run(blocks, shown, tmp_path, runner):
    context = RunContext(wheel="w", venv="reader-0", packages=(), cpu="cpu", env=(), runner="r")
    return run_page("docs/en/fake.md", blocks, {}, context, {}, tmp_path, 60, None, PageCache(root=tmp_path / "c"),
                    shown=shown, runner=runner)[0]


def test_the_plan_gives_each_block_the_output_shown_under_it(page):
    md, blocks = page
    assert [f.include or f.body for f in expected_outputs(md)] == [f"{SNIPPET}.out", "2\n", "1\n"]
    assert [(b.index, b.origin, b.expected, b.skip) for b in blocks] == [
        (1, f"{SNIPPET}.py", (REPO / f"{SNIPPET}.out").read_text(encoding="utf-8"), None),
        (2, "docs/en/fake.md:11", "2\n", None),
        (3, "docs/en/fake.md:20", None, None),
        (4, "docs/en/fake.md:25", "1\n", "needs a CUDA GPU"),
    ]


def test_every_shown_output_is_compared(page, tmp_path):
    md, blocks = page
    assert _run(blocks, len(expected_outputs(md)), tmp_path, FakeInterpreter()) == []


@pytest.mark.parametrize("wrong, origin", [(1, f"block 1 ({SNIPPET}.py)"), (2, "block 2 (docs/en/fake.md:11)")])
def test_a_block_that_prints_something_else_fails(page, tmp_path, wrong, origin):
    """An included .out and an inline expected output are both compared with what the block printed."""
    md, blocks = page
    found = _run(blocks, len(expected_outputs(md)), tmp_path, FakeInterpreter(wrong=[wrong]))
    assert len(found) == 1 and origin in found[0] and "printed something else" in found[0], found


@pytest.mark.parametrize("lost", [1, 2])
def test_an_output_the_run_did_not_compare_fails(page, tmp_path, lost):
    """An output the plan lost (or the comparison skipped) is an output nobody checked."""
    md, blocks = page
    blocks[lost - 1].expected = None
    found = _run(blocks, len(expected_outputs(md)), tmp_path, FakeInterpreter())
    assert len(found) == 1 and "shows 3 checked outputs" in found[0] and "compared 1 and skipped 1" in found[0], found
