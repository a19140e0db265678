"""Pins the default that the compile page's "Compiled backward and autocast" section is about.

``torch._functorch.config.backward_pass_autocast`` decides which autocast state a compiled
backward assumes (read in ``torch/_functorch/_aot_autograd/graph_capture_wrappers.py`` when the
joint graph is traced): ``"same_as_forward"`` (the state around the compiled call), ``"off"``
(none), or a list of ``torch.autocast`` keyword dicts. Its default is ``"same_as_forward"`` in
torch 2.11.0 and 2.13.0 (both read here), which is wrong for AMP's recommended pattern (backward
outside autocast) when the forward has an ``autocast(enabled=False)`` island. The page, its snippet
``snippets/gpu/compile_backward_autocast.py`` (whose ``.out`` checks the behaviour: the snippet
test fails when the gradients stop differing or stop matching) and the rows in ``mistakes.md``
are written for that default. Upstream proposed switching it to ``"off"`` (pytorch PR 177287);
when a torch release does, this test fails and says what to revisit.
"""

from __future__ import annotations

import pytest
import torch
import torch._functorch.config as functorch_config

PAGES = (
    "docs/en/gpu/compile-autocast.md#backward-autocast and docs/ja/gpu/compile-autocast.md, "
    "snippets/gpu/compile_backward_autocast.py and its .out, the backward_pass_autocast rows of "
    "docs/*/mistakes.md"
)

# torch.__version__ is a TorchVersion: it compares as a version ("2.13.0+cpu" >= "2.11").
pytestmark = pytest.mark.skipif(
    torch.__version__ < "2.11",
    reason=(
        f"torch {torch.__version__} is older than the oldest supported torch (2.11): the option "
        "arrived with pytorch PR 156356 (2025) and its default there was never checked"
    ),
)


def test_option_exists():
    assert hasattr(functorch_config, "backward_pass_autocast"), (
        f"torch {torch.__version__} has no torch._functorch.config.backward_pass_autocast: "
        f"the fix the page recommends is gone; revisit {PAGES}"
    )


def test_default_is_same_as_forward():
    default = functorch_config.backward_pass_autocast
    assert default == "same_as_forward", (
        f"torch {torch.__version__} changed the default of torch._functorch.config."
        f"backward_pass_autocast to {default!r} (was 'same_as_forward' in 2.11 and 2.13): "
        f"rerun the snippet with --update-outputs and revisit {PAGES}"
    )


def test_patch_restores_the_default():
    """The snippet sets "off" with ``config.patch``; the blocks pasted after it need the default back."""
    before = functorch_config.backward_pass_autocast
    with functorch_config.patch(backward_pass_autocast="off"):
        assert functorch_config.backward_pass_autocast == "off"
    assert functorch_config.backward_pass_autocast == before
