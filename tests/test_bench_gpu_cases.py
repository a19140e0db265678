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
