"""reference_impl.quantization.compare: replaced modules, sizes, errors, the bare-module pitfall."""

from __future__ import annotations

import pytest
import torch
from torch import nn

from reference_impl.errors import ConfigError, NotAModuleError
from reference_impl.quantization import (
    NothingQuantizedError,
    compare_models,
    replaced_modules,
    state_dict_bytes,
)
from tests.test_quantization_affine import legacy_quantization


def _model():
    torch.manual_seed(0)
    return nn.Sequential(nn.Linear(64, 128), nn.ReLU(), nn.Linear(128, 10)).eval()


def test_dynamic_quantization_is_reported():
    model = _model()
    with legacy_quantization():
        q = torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
        report = compare_models(model, q, torch.randn(8, 64))
    assert set(report.replaced) == {"0", "2"}
    assert report.replaced["0"] == ("torch.nn.Linear", "torch.ao.nn.quantized.dynamic.Linear")
    assert 2.5 < report.size_ratio < 4.0  # small model: pickle overhead weighs in; large layers approach 4x
    assert report.rel_l2 < 0.05
    assert report.speedup is None and "latency" not in report.format_table()


def test_bare_module_is_caught():
    lin = nn.Linear(8, 8)
    with legacy_quantization():
        same = torch.ao.quantization.quantize_dynamic(lin, {nn.Linear}, dtype=torch.qint8)
    assert type(same) is nn.Linear
    with pytest.raises(NothingQuantizedError, match="wrap a bare layer"):
        compare_models(lin, same, torch.randn(2, 8))
    with pytest.raises(ValueError):  # also a ValueError
        compare_models(lin, same, torch.randn(2, 8))


def test_torchao_weights_count_as_replaced():
    pytest.importorskip("torchao")
    import warnings

    from torchao.quantization import Int8WeightOnlyConfig, quantize_

    model = _model()
    q = _model()
    with warnings.catch_warnings():
        quantize_(q, Int8WeightOnlyConfig())
    found = replaced_modules(model, q)
    assert set(found) == {"0", "2"}
    assert "Int8Tensor" in found["0"][1]
    assert state_dict_bytes(q) < state_dict_bytes(model)


def test_latency_rounds_alternate():
    model = _model()
    with legacy_quantization():
        q = torch.ao.quantization.quantize_dynamic(model, {nn.Linear}, dtype=torch.qint8)
        report = compare_models(model, q, torch.randn(4, 64), rounds=2, min_run_time=0.01)
    assert len(report.speedups) == 2 and report.float_seconds > 0 and report.quantized_seconds > 0
    assert "speed-up" in report.format_table()


def test_argument_errors():
    with pytest.raises(NotAModuleError, match="float_model must be a torch.nn.Module"):
        replaced_modules("model", nn.Linear(1, 1))
    with pytest.raises(ConfigError):
        compare_models(nn.Linear(1, 1), nn.Linear(1, 1), torch.ones(1, 1), rounds=-1)
