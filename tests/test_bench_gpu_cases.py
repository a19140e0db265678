"""The GPU cases of the benchmark: left out (and refused by name) on a CPU, their arithmetic checked on CPU."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from benchmarks import BenchConfig, run_bench
from benchmarks.cases import GPU_CASES, cases_for
from benchmarks.cases.gpu_matmul import (
    cpu_float8_skip_reason,
    cuda_event_ms,
    float8_scaled_matmul,
    loop_ms,
)
from benchmarks.cli import main as bench_main
from benchmarks.config import relative_l2
from reference_impl.errors import ConfigError, CudaUnavailableError

RESULTS = Path(__file__).resolve().parents[1] / "benchmarks" / "results"
#: torch 2.11 has no CPU kernel for scaled_mm (aten::_scaled_mm_v2): the float8 products run on a GPU only there.
NO_CPU_FLOAT8 = pytest.mark.skipif(cpu_float8_skip_reason() is not None, reason=cpu_float8_skip_reason() or "")


def test_gpu_cases_run_only_with_cuda(tmp_path, capsys):
    assert set(GPU_CASES) & set(cases_for("cpu")) == set()
    assert set(GPU_CASES) <= set(cases_for("cuda"))
    with pytest.raises(ConfigError, match="--device cuda"):
        run_bench(BenchConfig.make(quick=True), tmp_path, ["gpu_matmul"], log=lambda line: None)
    assert not list(tmp_path.iterdir())  # refused before anything is measured or written
    assert bench_main(["--cases", "gpu_matmul", "--out", str(tmp_path)]) == 2
    assert "measure a GPU" in capsys.readouterr().err


@NO_CPU_FLOAT8
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
    from benchmarks.cases.gpu_transformer_step import (
        STAND_IN,
        VARIANTS,
        make_block,
        make_step,
    )

    block = make_block(STAND_IN)
    x, y = torch.randn(2, 6, 32), torch.randint(0, 10, (2, 6))
    losses = {}
    for name in ("float32", "tf32", "autocast bfloat16"):  # float16 + GradScaler is a GPU recipe
        step = make_step(block, x, y, name)
        losses[name] = [float(step()) for _ in range(3)]
        assert step.logits_dtype == (VARIANTS[name][0] or torch.float32), name
        assert step.model is not block  # a fresh copy with its own optimizer
    assert losses["float32"] == losses["tf32"]  # TF32 changes nothing on a CPU
    assert losses["float32"][-1] < losses["float32"][0]  # the step trains
    assert abs(losses["autocast bfloat16"][-1] - losses["float32"][-1]) < 0.05
    assert torch.equal(block[-1].weight, make_block(STAND_IN)[-1].weight)  # the steps trained copies
    shared = torch.optim.AdamW(block.parameters(), lr=1e-4)
    steps = [make_step(block, x, y, name, optimizer=shared) for name in VARIANTS]
    assert all(s.model is block and s.optimizer is shared for s in steps)  # timed: one model for all
    assert [s.scaler is not None for s in steps] == [False, False, True, False]


# --- the transformer step's design: size, estimate, warm-up and rounds, checked without a GPU ---


def _h100_matmul_rates() -> dict[str, float]:
    """The best TFLOP/s per format of the committed H100 gpu_matmul run at n >= 4096, by step variant."""
    data = json.loads((RESULTS / "cuda" / "gpu_matmul.json").read_text(encoding="utf-8"))
    assert data["environment"]["gpu_name"] == "NVIDIA H100 80GB HBM3"
    best: dict[str, float] = {}
    for row in data["rows"]:
        if row["n"] >= 4096 and row["tflops"] is not None:
            best[row["dtype"]] = max(best.get(row["dtype"], 0.0), row["tflops"])
    return {"float32": best["float32"], "tf32": best["tf32"], "autocast float16 + GradScaler": best["float16"],
            "autocast bfloat16": best["bfloat16"]}


def test_the_step_is_compute_bound_by_the_h100s_own_figures():
    """d_model >= 4096, >= 16k tokens, several layers: every projection and feed-forward matmul at least
    16384 x 4096 x 4096, where the H100 reached 64-79 % of its peak (the old step's 1024-wide ones: 12 %),
    and those matmuls are nearly all of the step's FLOPs."""
    from benchmarks.cases.gpu_transformer_step import FULL

    assert FULL.layers >= 3 and FULL.d_model >= 4096 and FULL.tokens >= 16384 and FULL.ff == 4 * FULL.d_model
    assert FULL.d_model % FULL.heads == 0 and FULL.d_model // FULL.heads == 128  # flash attention's head size
    d, ff, s, c, L = FULL.d_model, FULL.ff, FULL.seq, FULL.classes, FULL.layers
    by_hand = 3 * FULL.tokens * (L * (3 * 2 * d * d + 2 * d * d + 2 * d * ff + 2 * ff * d + 2 * 2 * s * d) + 2 * d * c)
    assert FULL.flops() == by_hand
    assert FULL.flops() / 1e12 == pytest.approx(82.87, abs=0.01)
    linear = 3 * FULL.tokens * L * (8 * d * d + 4 * d * ff)
    assert linear / FULL.flops() > 0.95


@pytest.mark.parametrize("layers,d_model,heads,ff,classes", [(2, 32, 4, 64, 10), (3, 48, 6, 80, 7)])
def test_the_parameter_count_is_the_models(layers, d_model, heads, ff, classes):
    from benchmarks.cases.gpu_transformer_step import StepShape, make_block

    shape = StepShape(layers, d_model, heads, ff, classes, batch=1, seq=4)
    assert sum(p.numel() for p in make_block(shape).parameters()) == shape.parameters()


def test_the_case_fits_the_time_and_memory_of_an_h100():
    """Estimated from the committed H100 matmul rates: the case within about a minute, the whole
    --device cuda run within 240 s, >= 100 ms of GPU time per variant per round, float32 well under 80 GB."""
    from benchmarks.cases.gpu_transformer_step import (
        FULL,
        ROUND_MS,
        estimate_seconds,
        float32_memory_gib,
        steps_per_round,
    )

    rates = _h100_matmul_rates()
    est = estimate_seconds(FULL, rates, rounds=9)
    other_cases_s = 166.0 - 18.3  # the 2026-11-26 H100 run: 166 s in all, 18.3 s of it the old step (logs/3.log)
    assert est["case"] < 75 and other_cases_s + est["case"] < 240, est
    for name in rates:
        seconds = est[name]
        assert steps_per_round(seconds * 1e3, ROUND_MS) * seconds >= 0.1, name
    assert est["float32"] > 1.0 and est["autocast bfloat16"] > 0.1  # every step is long against launch overhead
    assert float32_memory_gib(FULL) < 40  # GiB; plus about 4 GB per layer were attention unfused: still < 80


def test_the_activation_estimate_bounds_what_autograd_keeps():
    """ACTIVATION_FLOATS (the memory estimate) against the bytes autograd saves in a float32 forward."""
    from benchmarks.cases.gpu_transformer_step import (
        ACTIVATION_FLOATS,
        StepShape,
        make_block,
    )

    shape = StepShape(layers=2, d_model=256, heads=2, ff=1024, classes=10, batch=2, seq=128)
    block = make_block(shape)
    params = {p.untyped_storage().data_ptr() for p in block.parameters()}
    saved: dict[int, int] = {}

    def pack(t: torch.Tensor) -> torch.Tensor:
        if t.untyped_storage().data_ptr() not in params:
            saved[t.untyped_storage().data_ptr()] = t.untyped_storage().nbytes()
        return t

    with torch.autograd.graph.saved_tensors_hooks(pack, lambda t: t):
        block(torch.randn(shape.batch, shape.seq, shape.d_model))
    per_token_layer = sum(saved.values()) / (4 * shape.d_model * shape.tokens * shape.layers)
    assert 8 < per_token_layer <= ACTIVATION_FLOATS, per_token_layer


def test_steps_per_round_reach_the_target():
    from benchmarks.cases.gpu_transformer_step import steps_per_round

    assert steps_per_round(8.37, 250.0) == 30  # the old float32 step would have needed 30 per round
    assert [steps_per_round(ms, 250.0) for ms in (2300.0, 250.0, 249.9, 0.0)] == [1, 1, 2, 1]
    for ms in (0.5, 3.0, 77.7, 120.0):
        n = steps_per_round(ms, 250.0)
        assert n * ms >= 250.0 > (n - 1) * ms


def test_warm_up_runs_passes_until_nothing_changes():
    from benchmarks.cases.gpu_transformer_step import round_order, warm_up

    calls = []
    steps = {name: (lambda name=name: calls.append(name)) for name in ("float32", "tf32", "bf16")}
    reserve = iter([0, 500, 700, 700, 700])  # the allocator grows in the first two passes
    passes, settled, last = warm_up(steps, lambda name, fn: (fn(), len(calls))[1], lambda: next(reserve))
    assert (passes, settled) == (3, True)
    assert calls == [*round_order(list(steps), 0), *round_order(list(steps), 1), *round_order(list(steps), 2)]
    assert last == {"float32": 8, "tf32": 9, "bf16": 7}  # the last pass's values (its order: bf16, float32, tf32)
    # a first pass that changes nothing still runs the minimum (AdamW's and the scaler's state appear in it)
    assert warm_up(steps, lambda name, fn: fn(), lambda: 0)[:2] == (2, True)
    growing = iter(range(100))
    assert warm_up(steps, lambda name, fn: fn(), lambda: next(growing), max_passes=4)[:2] == (4, False)
    with pytest.raises(ConfigError, match="min_passes"):
        warm_up(steps, lambda name, fn: fn(), lambda: 0, min_passes=0)


def test_rounds_time_every_variant_once_per_round_in_rotated_order():
    from benchmarks.cases.gpu_transformer_step import (
        compare_rounds,
        round_order,
        time_rounds,
    )

    calls = []
    per_round = {"float32": 1, "tf32": 2, "bf16": 4}

    def timer(fn, n):
        calls.append((fn(), n))
        return {"float32": 100.0, "tf32": 40.0, "bf16": 25.0}[calls[-1][0]], 0.0

    steps = {name: (lambda name=name: name) for name in per_round}
    times = time_rounds(steps, per_round, 4, timer)
    assert [name for name, _ in calls] == [n for r in range(4) for n in round_order(list(steps), r)]
    assert all(n == per_round[name] for name, n in calls)  # each measurement runs its variant's steps
    assert {name: len(t) for name, t in times.items()} == {"float32": 4, "tf32": 4, "bf16": 4}
    comparisons = compare_rounds(times)
    assert set(comparisons) == {"tf32", "bf16"}
    assert comparisons["bf16"].ratios == (4.0,) * 4 and not comparisons["bf16"].noisy
    with pytest.raises(ConfigError, match="rounds"):
        time_rounds(steps, per_round, 1, timer)


def test_the_spread_limit_of_the_step_is_1_10():
    from benchmarks.cases.gpu_transformer_step import SPREAD_LIMIT, StepComparison
    from benchmarks.report import comparison_cells

    assert SPREAD_LIMIT == 1.10
    steady = StepComparison("float32", "bf16", 1.0, 0.1, (10.0, 10.5, 10.9))
    wobbly = StepComparison("float32", "bf16", 1.0, 0.1, (10.0, 10.5, 11.2))
    assert not steady.noisy and wobbly.noisy
    assert comparison_cells(wobbly)["spread"].key == "spread.too_noisy" and wobbly.to_json()["too_noisy"]


def test_the_step_case_end_to_end_with_a_fake_clock(monkeypatch):
    """The whole case on the CPU stand-in, timed by a fake clock: steps per round from the warm-up's
    times, the ratios from the rounds, the notes; the real steps still run (checks, state, losses)."""
    import benchmarks.cases.gpu_transformer_step as ts

    ms = {"float32": 9.0, "tf32": 6.0, "autocast float16 + GradScaler": 3.0, "autocast bfloat16": 2.5}
    timed = []

    def fake_timer(step, n):
        step()
        timed.append((step.variant, n))
        return ms[step.variant], ms[step.variant]

    monkeypatch.setattr(ts, "cpu_timer", fake_timer)
    result = ts.run(BenchConfig.make(device="cuda", quick=True, stand_in=True))
    rows = {r["variant"]: r for r in result.rows}
    assert set(rows) == set(ts.VARIANTS) - {"float32"}
    warm = len(ts.VARIANTS) * 2  # two passes: the stand-in's state (the scaler's scale) did not change
    per_round = {name: math.ceil(ts.STAND_IN_ROUND_MS / t) for name, t in ms.items()}
    assert timed[:warm] and all(n == 1 for _, n in timed[:warm])
    assert timed[warm:] and all(n == per_round[v] for v, n in timed[warm:])
    assert len(timed) - warm == 5 * len(ts.VARIANTS)  # quick: 5 rounds, each variant once per round
    for name, row in rows.items():
        assert row["ratio"] == pytest.approx(ms["float32"] / ms[name])
        assert row["steps_per_round"] == f"{per_round['float32']} / {per_round[name]}"
        assert row["spread"] == "1.00" and row["peak_gib"] is None
    keys = [n.key for n in result.notes]
    assert keys == ["note.transformer_steps", "note.loss_after_steps", "note.step_rounds", "note.stand_in"]
    assert result.notes[2].args["passes"] == 2 and result.notes[2].args["limit"] == 1.10


@pytest.mark.cuda
def test_gpu_transformer_step_case_on_a_gpu():
    from benchmarks.cases.gpu_transformer_step import run

    result = run(BenchConfig.make(device="cuda", quick=True))
    rows = {r["variant"]: r for r in result.rows}
    assert set(rows) == {"tf32", "autocast float16 + GradScaler", "autocast bfloat16"}
    assert rows["autocast float16 + GradScaler"]["logits"] == "float16"
    assert all(r["peak_gib"] > 0 and r["loss_diff"] < 0.05 for r in rows.values()), rows
    assert all(0.5 < r["agreement"] < 2.0 for r in rows.values()), rows  # events and the host clock agree


def test_every_gpu_case_runs_end_to_end_on_a_cpu_stand_in(tmp_path, capsys):
    """--dry-run: the GPU cases' own code (operands, rounds, checks, writing, both tables) on the CPU."""
    out = tmp_path / "dry"
    assert bench_main(["--device", "cuda", "--dry-run", "--out", str(out)]) == 0
    for case in GPU_CASES:
        data = json.loads((out / f"{case}.json").read_text(encoding="utf-8"))
        assert data["rows"], case
        for lang_file in (f"{case}.md", f"{case}.ja.md"):
            text = (out / lang_file).read_text(encoding="utf-8")
            assert "--dry-run" in text, f"{lang_file} does not say it is a stand-in run"
    matmul = json.loads((out / "gpu_matmul.json").read_text(encoding="utf-8"))
    dtypes = {r["dtype"] for r in matmul["rows"]}
    if cpu_float8_skip_reason() is None:
        assert dtypes == {"float32", "tf32", "float16", "bfloat16", "float8_e4m3fn", "float8 scaling"}
    else:  # torch 2.11: the float8 rows are left out, and the table says why
        assert dtypes == {"float32", "tf32", "float16", "bfloat16"}
        assert "has no CPU kernel for scaled_mm (aten::_scaled_mm_v2)" in (out / "gpu_matmul.md").read_text()
    step = json.loads((out / "gpu_transformer_step.json").read_text(encoding="utf-8"))
    assert [r["variant"] for r in step["rows"]] == ["tf32", "autocast float16 + GradScaler", "autocast bfloat16"]
    assert [n["msg"] for n in step["notes"]][:3] == ["note.transformer_steps", "note.loss_after_steps", "note.step_rounds"]


def test_the_stand_in_leaves_float8_out_where_torch_has_no_cpu_kernel(monkeypatch):
    """torch 2.11: scaled_mm has a CUDA kernel only. The stand-in skips just the float8 rows and says why."""
    import benchmarks.cases.gpu_matmul as gm
    from benchmarks.catalog import render

    monkeypatch.setattr(gm, "cpu_float8_missing_op", lambda: "aten::_scaled_mm_v2")
    result = gm.run(BenchConfig.make(device="cuda", quick=True, stand_in=True))
    assert {r["dtype"] for r in result.rows} == {"float32", "tf32", "float16", "bfloat16"}
    (note,) = [n for n in result.notes if n.key == "note.float8_no_cpu_kernel"]
    assert "note.float8_scaled" not in [n.key for n in result.notes]
    assert f"torch {torch.__version__} has no CPU kernel for scaled_mm (aten::_scaled_mm_v2)" in render(note, "en")
    assert "aten::_scaled_mm_v2" in render(note, "ja")


def test_the_cpu_kernel_probe_reads_the_dispatchers_error(monkeypatch):
    import benchmarks.cases.gpu_matmul as gm

    message = ("Could not run 'aten::_scaled_mm_v2' with arguments from the 'CPU' backend. This could be because "
               "the operator doesn't exist for this backend")  # torch 2.11.0+cu130 (logs/rerun-2.log)

    def missing(*args, **kwargs):
        raise NotImplementedError(message)

    monkeypatch.setattr(gm, "float8_matmul", missing)
    probe = gm.cpu_float8_missing_op.__wrapped__  # uncached
    assert probe() == "aten::_scaled_mm_v2"
    monkeypatch.setattr(gm, "float8_matmul", lambda *a, **k: (_ for _ in ()).throw(NotImplementedError("other")))
    with pytest.raises(NotImplementedError, match="other"):
        probe()
    monkeypatch.setattr(gm, "float8_matmul", lambda *a, **k: torch.zeros(16, 16))
    assert probe() is None


def test_dry_run_never_writes_over_the_published_results(capsys):
    assert bench_main(["--device", "cuda", "--dry-run"]) == 2
    assert "--out" in capsys.readouterr().err
    with pytest.raises(ConfigError, match="--device cuda"):
        BenchConfig.make(device="cpu", stand_in=True)


@NO_CPU_FLOAT8
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
    for event_ms, host_ms in ((1.0, 2.5), (2.5, 1.0)):
        with pytest.raises(VariantNotEngagedError, match="disagree"):
            check_timers("float16", event_ms, host_ms)


@pytest.mark.skipif(torch.__version__.split("+")[0] != "2.13.0", reason="states what torch 2.13's Inductor does")
def test_inductor_in_2_13_still_reads_the_legacy_tf32_getter():
    """gpu/tf32.md (both languages): "Inductor in 2.13 still calls the legacy getter", so mixing the
    old and new TF32 switches can raise inside torch.compile."""
    import inspect

    from torch._inductor import codecache, select_algorithm

    sources = inspect.getsource(codecache) + inspect.getsource(select_algorithm)
    assert "get_float32_matmul_precision()" in sources


def test_the_step_cases_gpu_branches_with_a_fake_cuda(monkeypatch):
    """The GPU-only branches of the transformer step (peak memory, the allocator's reserve, the timers'
    cross-check, the notes) run here with torch.cuda's calls faked: a bug there would otherwise surface
    only on a GPU. The allocator grows once during the warm-up and once while timed."""
    import dataclasses

    import benchmarks.cases.gpu_transformer_step as ts
    from benchmarks import config
    from benchmarks.catalog import render

    # the reserve: before the warm-up, after its two passes (grown, then steady), before and after the rounds
    reserved = iter([0, 2**30, 2**30, 2**30, 2**30 + 2**20 * 64])
    monkeypatch.setattr(config, "require_cuda", lambda *args: None)
    monkeypatch.setattr(config.BenchConfig, "target_device", property(lambda self: "cpu"))
    monkeypatch.setattr(ts, "QUICK", ts.STAND_IN)
    monkeypatch.setattr(torch.cuda, "synchronize", lambda: None)
    monkeypatch.setattr(torch.cuda, "reset_peak_memory_stats", lambda: None)
    monkeypatch.setattr(torch.cuda, "max_memory_allocated", lambda: 3 * 2**30)
    monkeypatch.setattr(torch.cuda, "memory_reserved", lambda: next(reserved))
    monkeypatch.setattr(ts, "cuda_timer", lambda step, n: (step(), (40.0, 41.0))[1])
    real_check = ts.check_engaged
    monkeypatch.setattr(ts, "check_engaged", lambda *args: real_check(*args[:-1], True))  # no TF32 on a CPU
    cfg = dataclasses.replace(BenchConfig.make(device="cuda", quick=True, stand_in=True), stand_in=False)
    result = ts.run(cfg)
    assert all(r["peak_gib"] == 3.0 and r["agreement"] == pytest.approx(40 / 41) for r in result.rows)
    assert all(r["steps_per_round"] == "1 / 1" for r in result.rows)  # 40 ms per step >= 25 ms (quick)
    notes = {n.key: n for n in result.notes}
    assert notes["note.step_rounds"].args["passes"] == 2  # the second pass left the reserve as it was
    assert notes["note.step_peak_total"].args["peak"] == 3.0
    assert "64 MiB more while timed" in render(notes["note.allocator_grew"], "en")
    assert "note.stand_in" not in notes and "note.warmup_unsettled" not in notes
