"""What quantization/torchao.md says about torchao's packed int4 on a CPU (#int4-packed), on the
installed torchao.

Issue 40: the page said ``PrototypeInt4WeightOnlyConfig`` needs bfloat16 weights and takes a group
size of 32, 64, 128 or 256 (its docstring's list). In torchao 0.18 float32 and float16 weights are
packed too, and 256 stops ``quantize_`` with an ``AssertionError`` (``Int4OpaqueTensor.from_hp``
accepts 32/64/128 only); only a group size that does not divide the input features leaves the
layer in float, with a log line. These tests run each case, and check that both pages quote the
error text torchao gives.
"""

from __future__ import annotations

import logging

import pytest
import torch
from torch import nn

from docs_tools.docs_model import DOCS

pytest.importorskip("torchao")

PAGES = {lang: (DOCS / lang / "quantization/torchao.md").read_text(encoding="utf-8") for lang in ("en", "ja")}


def _quantized(group_size: int, dtype: torch.dtype, in_features: int = 256) -> nn.Linear:
    from torchao.prototype.quantization.int4 import PrototypeInt4WeightOnlyConfig
    from torchao.quantization import quantize_

    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(in_features, 64)).to(dtype).eval()
    quantize_(model, PrototypeInt4WeightOnlyConfig(group_size=group_size, set_inductor_config=False))
    return model[0]


@pytest.mark.parametrize("dtype", [torch.float32, torch.float16, torch.bfloat16], ids=str)
@pytest.mark.parametrize("group_size", [32, 64, 128])
def test_float32_float16_and_bfloat16_weights_are_packed(group_size, dtype):
    layer = _quantized(group_size, dtype)
    assert type(layer.weight).__name__ == "Int4OpaqueTensor"
    with torch.no_grad():
        out = layer(torch.randn(4, 256, dtype=dtype))
    assert out.dtype == dtype and torch.isfinite(out).all()


def test_a_group_size_of_256_raises_the_error_both_pages_quote():
    with pytest.raises(AssertionError) as raised:
        _quantized(256, torch.bfloat16, in_features=512)
    quoted = str(raised.value).split(",")[0]
    assert quoted == "Expecting groupwise quantization with group size = 32/64/128", raised.value
    for lang, text in PAGES.items():
        assert f"`AssertionError: {quoted}`" in text, f"docs/{lang}/quantization/torchao.md does not quote {quoted!r}"


def test_a_group_size_that_does_not_divide_the_input_leaves_the_layer_in_float(caplog):
    with caplog.at_level(logging.INFO):
        layer = _quantized(32, torch.bfloat16, in_features=1000)
    assert type(layer.weight) is nn.Parameter and layer.weight.dtype == torch.bfloat16
    assert any("Skipping quantizing weight" in r.getMessage() for r in caplog.records), caplog.text


def test_the_pages_do_not_ask_for_bfloat16_weights_or_offer_256():
    assert "needs bfloat16 weights" not in PAGES["en"] and "128 or 256" not in PAGES["en"]
    assert "重みは bfloat16 にしておきます" not in PAGES["ja"] and "128、256 のうち" not in PAGES["ja"]
