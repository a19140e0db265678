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
        if dtype == "float8 scaling":  # the cost of quantizing the operands: no product, no error
            continue
        assert r["pct_peak"] == "" or 0 < float(r["pct_peak"].rstrip(" %")) < 110, r
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


def test_every_gpu_case_runs_end_to_end_on_a_cpu_stand_in(tmp_path, capsys):
    """--dry-run: the GPU cases' own code (operands, rounds, checks, writing, both tables) on the CPU."""
    out = tmp_path / "dry"
    assert bench_main(["--device", "cuda", "--dry-run", "--out", str(out)]) == 0
    for case in GPU_CASES:
        data = __import__("json").loads((out / f"{case}.json").read_text(encoding="utf-8"))
        assert data["rows"], case
        for lang_file in (f"{case}.md", f"{case}.ja.md"):
            text = (out / lang_file).read_text(encoding="utf-8")
            assert "--dry-run" in text, f"{lang_file} does not say it is a stand-in run"
    rows = {(r["n"], r["dtype"]) for r in __import__("json").loads((out / "gpu_matmul.json").read_text())["rows"]}
    assert {d for _, d in rows} == {"float32", "tf32", "float16", "bfloat16", "float8_e4m3fn", "float8 scaling"}


def test_dry_run_never_writes_over_the_published_results(capsys):
    assert bench_main(["--device", "cuda", "--dry-run"]) == 2
    assert "--out" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="--device cuda"):
        BenchConfig.make(device="cpu", stand_in=True)


def test_the_timed_float8_call_is_the_product_alone(monkeypatch):
    """Operands are quantized once, before timing; the scaling is its own row."""
    import benchmarks.cases.gpu_matmul as gm

    a, b = torch.randn(32, 32), torch.randn(32, 32)
    calls = gm.prepare(a, b)
    counted = []
    real = gm.quantize_float8
    monkeypatch.setattr(gm, "quantize_float8", lambda *args, **kw: counted.append(1) or real(*args, **kw))
    out = calls["float8_e4m3fn"]()
    assert not counted, "the timed float8 call quantizes its operands: it would time the cast with the product"
    assert out.dtype == torch.bfloat16
    calls["float8 scaling"]()
    assert len(counted) == 2


def test_a_variant_that_did_not_engage_is_refused():
    from benchmarks.cases.gpu_matmul import check_engaged, float8_matmul
    from reference_impl.errors import VariantNotEngagedError

    with pytest.raises(VariantNotEngagedError, match="TF32 did not engage"):
        check_engaged("tf32", torch.ones(1), 1e-7, 1e-7, stand_in=False)
    check_engaged("tf32", torch.ones(1), 1e-7, 1e-7, stand_in=True)  # no TF32 on the CPU stand-in
    with pytest.raises(VariantNotEngagedError, match="quantize the operands"):
        float8_matmul(torch.ones(16, 16), torch.tensor(1.0), torch.ones(16, 16), torch.tensor(1.0))


def test_percent_of_peak_and_the_table():
    from benchmarks.peaks import find_gpu, load_peaks, percent_of_peak

    gpus = load_peaks()
    assert len(gpus) >= 12 and all(g.source for g in gpus)
    assert percent_of_peak("NVIDIA H200", "bfloat16", 989.5 / 2) == pytest.approx(50.0)
    assert percent_of_peak("NVIDIA GeForce RTX 4090", "float8_e4m3fn", 330.3) == pytest.approx(100.0)
    assert find_gpu("NVIDIA L40S").name == "L40S" and find_gpu("NVIDIA L4").name == "L4"
    assert percent_of_peak(None, "bfloat16", 1.0) is None  # the stand-in has no data sheet


def test_ratios_are_printed_beside_the_published_ones_for_this_class():
    from benchmarks.published import published_folder, published_ratios

    capability = torch.backends.cpu.get_cpu_capability()
    folder = published_folder(capability)
    ratios = published_ratios("matmul", folder)
    assert ratios, f"no published matmul ratios in {folder}"
    assert all(r > 0 for r in ratios.values())


class _FakeNvml:
    """Two GPUs; torch's device 0 is NVML's second (CUDA_VISIBLE_DEVICES=1)."""

    NVML_CLOCK_SM, NVML_CLOCK_MEM = 1, 2

    def __init__(self):
        self.shut = False

    def nvmlInit(self):
        pass

    def nvmlShutdown(self):
        self.shut = True

    def nvmlDeviceGetCount(self):
        return 2

    def nvmlDeviceGetHandleByIndex(self, i):
        return i

    def nvmlDeviceGetUUID(self, h):
        return [b"GPU-aaaa-0000", "GPU-BBBB-1111"][h]

    def nvmlSystemGetDriverVersion(self):
        return "580.65"

    def nvmlDeviceGetClockInfo(self, h, kind):
        return {0: 1000, 1: 1980}[h] if kind == 1 else 2619

    def nvmlDeviceGetMaxClockInfo(self, h, kind):
        return 1980


def test_the_stamp_names_torchs_device_by_uuid_not_the_first_gpu():
    from benchmarks.environment import nvml_facts

    fake = _FakeNvml()
    facts = nvml_facts("bbbb-1111", nvml=fake)  # torch's form: no "GPU-", other case
    assert facts == {"uuid": "GPU-bbbb-1111", "driver": "580.65", "sm": "1980 MHz", "sm_max": "1980 MHz",
                     "memory": "2619 MHz"}
    assert fake.shut
    assert nvml_facts("cccc", nvml=_FakeNvml()) is None  # no such device: unknown, not the first GPU's facts


def test_peak_patterns_leave_variants_with_other_peaks_out():
    """A card whose data sheet differs from the listed one (H100 NVL, a laptop RTX 4090, the 4090 D,
    a PCIe V100) gets no percentage rather than a wrong one."""
    from benchmarks.peaks import find_gpu

    for name in ("NVIDIA H100 NVL", "NVIDIA H200 NVL", "NVIDIA GeForce RTX 4090 Laptop GPU",
                 "NVIDIA GeForce RTX 4090 D", "Tesla V100-PCIE-16GB"):
        assert find_gpu(name) is None, name
    assert find_gpu("NVIDIA H100 80GB HBM3").name == "H100 SXM"
    assert find_gpu("NVIDIA H100 PCIe").name == "H100 PCIe"
    assert find_gpu("Tesla V100-SXM2-32GB").name == "Tesla V100 SXM2"


def test_timers_that_disagree_refuse_the_figure():
    from benchmarks.cases.gpu_matmul import check_timers
    from reference_impl.errors import VariantNotEngagedError

    assert check_timers("float16", 2.0, 2.0) == 1.0
    for event_ms, loop_ms in ((1.0, 2.5), (2.5, 1.0)):
        with pytest.raises(VariantNotEngagedError, match="disagree"):
            check_timers("float16", event_ms, loop_ms)


@pytest.mark.skipif(torch.__version__.split("+")[0] != "2.13.0", reason="states what torch 2.13's Inductor does")
def test_inductor_in_2_13_still_reads_the_legacy_tf32_getter():
    """gpu/tf32.md (both languages): "Inductor in 2.13 still calls the legacy getter", so mixing the
    old and new TF32 switches can raise inside torch.compile."""
    import inspect

    from torch._inductor import codecache, select_algorithm

    sources = inspect.getsource(codecache) + inspect.getsource(select_algorithm)
    assert "get_float32_matmul_precision()" in sources
