"""The GPU cases of the benchmark: left out (and refused by name) on a CPU, their arithmetic checked on CPU."""

from __future__ import annotations

import pytest
import torch

from benchmarks import BenchConfig, run_bench
from benchmarks.cases import GPU_CASES, cases_for
from benchmarks.cases.gpu_matmul import cuda_event_ms, float8_scaled_matmul, loop_ms
from benchmarks.cli import main as bench_main
from benchmarks.config import relative_l2
from reference_impl.errors import ConfigError, CudaUnavailableError


def test_gpu_cases_run_only_with_cuda(tmp_path, capsys):
    assert set(GPU_CASES) & set(cases_for("cpu")) == set()
    assert set(GPU_CASES) <= set(cases_for("cuda"))
    with pytest.raises(ConfigError, match="--device cuda"):
        run_bench(BenchConfig.make(quick=True), tmp_path, ["gpu_matmul"], log=lambda line: None)
    assert not list(tmp_path.iterdir())  # refused before anything is measured or written
    assert bench_main(["--cases", "gpu_matmul", "--out", str(tmp_path)]) == 2
    assert "measure a GPU" in capsys.readouterr().err


def test_float8_scaled_matmul_is_really_float8_and_close():
    g = torch.Generator().manual_seed(0)
    a, b = torch.randn(128, 256, generator=g) * 3, torch.randn(256, 64, generator=g)
    reference = a.double() @ b.double()
    out = float8_scaled_matmul(a, b)
    assert out.dtype == torch.bfloat16 and out.shape == (128, 64)
    error = relative_l2(out, reference)
    # e4m3 keeps 3 mantissa bits: clearly worse than bfloat16 (7 bits), still a few percent at most
    assert relative_l2(a.bfloat16() @ b.bfloat16(), reference) < error < 0.06, error


def test_timers():
    assert loop_ms(lambda: torch.ones(8).sum(), 5, "cpu") > 0
    if not torch.cuda.is_available():
        with pytest.raises(CudaUnavailableError, match="loop_ms"):
            cuda_event_ms(lambda: None, 1)


@pytest.mark.cuda
def test_gpu_matmul_case_on_a_gpu():
    from benchmarks.cases.gpu_matmul import run

    result = run(BenchConfig.make(device="cuda", quick=True))
    rows = {(r["n"], r["dtype"]): r for r in result.rows}
    assert {n for n, _ in rows} == {1024, 4096}
    for (n, dtype), r in rows.items():
        assert 0.5 < r["agreement"] < 2.0, r  # CUDA events and the synchronized loop agree
        assert r["error"] < {"float32": 1e-5, "tf32": 5e-3, "float16": 5e-3, "bfloat16": 2e-2}.get(dtype, 0.06), r


def test_transformer_step_variants_on_cpu():
    from benchmarks.cases.gpu_transformer_step import VARIANTS, make_block, make_step

    block = make_block(32, 4, 64, 5)
    x, y = torch.randn(2, 6, 32), torch.randint(0, 5, (2, 6))
    losses = {}
    for name in ("float32", "tf32", "autocast bfloat16"):  # float16 + GradScaler is a GPU recipe
        step, seen = make_step(block, x, y, name)
        losses[name] = [float(step()) for _ in range(3)]
        assert seen["logits"] == (VARIANTS[name][0] or torch.float32), name
    assert losses["float32"] == losses["tf32"]  # TF32 changes nothing on a CPU
    assert losses["float32"][-1] < losses["float32"][0]  # the step trains
    assert abs(losses["autocast bfloat16"][-1] - losses["float32"][-1]) < 0.05
    assert torch.equal(block[1].weight, make_block(32, 4, 64, 5)[1].weight)  # the steps trained copies


@pytest.mark.cuda
def test_gpu_transformer_step_case_on_a_gpu():
    from benchmarks.cases.gpu_transformer_step import run

    result = run(BenchConfig.make(device="cuda", quick=True))
    rows = {r["variant"]: r for r in result.rows}
    assert set(rows) == {"tf32", "autocast float16 + GradScaler", "autocast bfloat16"}
    assert rows["autocast float16 + GradScaler"]["logits"] == "float16"
    assert all(r["peak_mib"] > 0 and r["loss_diff"] < 0.05 for r in rows.values()), rows
