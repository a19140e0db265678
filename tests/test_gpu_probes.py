"""The GPU probes of the support matrix (``python -m benchmarks.probes``), proven on the CPU.

Every probe's dry run passes here (its code runs end to end, only the GPU-only calls substituted);
every probe names cells that exist in the support matrix of both languages (its cells come from
docs/data/support_matrix.toml, rendered as each language shows them); every "not checked" cell of
the NVIDIA rows the probes were written for (benchmarks.probes.NVIDIA_ROWS) has a probe and a
footnote that says so; the command refuses without a GPU and writes
its environment stamp.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import torch

from benchmarks import provenance
from benchmarks.probes import NVIDIA_ROWS, PROBES, ProbeResult, cell_ids, load
from benchmarks.probes.base import Attempt, attempt, column_id, verdict
from benchmarks.probes.cli import main, run_probe

DOCS = Path(__file__).resolve().parents[1] / "docs"
NOT_CHECKED = {"en": "not checked", "ja": "未確認"}
MEASURED = {"en": "measured on H[12]00", "ja": "H[12]00 で実測"}  # the label of a cell measured on the H100 or H200 (regexes)


def _hook():
    """docs/hooks/support_matrix.py, imported by path: the matrix's cells come from its data file."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("support_matrix_hook", DOCS / "hooks" / "support_matrix.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _matrix(lang: str) -> tuple[dict[str, str], dict[str, str]]:
    """The NVIDIA cells of the support matrix by cell id, as ``lang``'s page shows them (rendered
    from docs/data/support_matrix.toml), and the footnotes of ``docs/<lang>/support-matrix.md`` by name.

    A cell id is ``sm<major><minor>.<table id>.<column id>``: the table ids are the headings the
    tables sit under (tests/test_support_matrix.py checks that), the column ids the data's.
    """
    hook = _hook()
    data, messages = hook.load_data(), hook.load_messages(lang)
    text = (DOCS / lang / "support-matrix.md").read_text(encoding="utf-8")
    footnotes = dict(re.findall(r"^\[\^([\w-]+)\]: (.*)$", text, re.MULTILINE))
    cells: dict[str, str] = {}
    for table_id, table in data["table"].items():
        for row in data["rows"]:
            capability = data["row"][row].get("capability")
            if data["row"][row]["vendor"] != "nvidia" or capability is None:
                continue
            major, minor = capability.split(".")
            for column in table["columns"]:
                assert column == column_id(hook.load_messages("en")["column"][table_id][column]), (table_id, column)
                cells[f"sm{major}{minor}.{table_id}.{column}"] = hook.render_cell(table["cell"][row][column], messages)
    return cells, footnotes


MATRIX = {lang: _matrix(lang) for lang in ("en", "ja")}


def _notes(cell: str) -> list[str]:
    return re.findall(r"\[\^([\w-]+)\]", cell)


def _scaled_mm_has_a_cpu_kernel() -> bool:
    """torch 2.13 has a CPU kernel for _scaled_mm; torch 2.11 (the H100 machine's) has none."""
    return torch._C._dispatch_has_kernel_for_dispatch_key("aten::_scaled_mm", "CPU")


@pytest.mark.parametrize("name", PROBES)
def test_every_probe_dry_run_passes_on_the_cpu(name):
    """The probe's whole code path runs on this CPU, with only the GPU-only calls substituted."""
    result = run_probe(name, "cpu")
    module = load(name)
    assert result.cell_id == f"sm90.{module.PROBE.cell}"  # the dry run names the row it was written for
    assert result.probe == name and result.footnote == module.PROBE.footnote and not result.decides
    assert result.evidence.startswith("dry run on the CPU, decides nothing"), result.evidence
    assert result.warnings == (), result.warnings  # warnings are errors here: none may be recorded
    assert result.seconds is not None and result.seconds < 60
    if name == "float8_e5m2_inference" and not _scaled_mm_has_a_cpu_kernel():
        # guarded by kernel availability: torch 2.11 refuses _scaled_mm on a CPU, so the dry run can
        # only show that the probe catches that real refusal
        assert result.outcome == "refused" and "scaled_mm" in (result.error or ""), result
        return
    assert result.outcome == "works", result.evidence
    assert result.native is True, result.evidence  # the low-precision kernel (or its stand-in) ran
    assert result.error is None, result.error


@pytest.mark.parametrize("lang", ["en", "ja"])
@pytest.mark.parametrize("name", PROBES)
def test_every_probe_names_cells_of_the_support_matrix(name, lang):
    cells, footnotes = MATRIX[lang]
    module = load(name)
    ids = cell_ids(name)
    assert len(ids) == len(NVIDIA_ROWS)
    missing = [i for i in ids if i not in cells]
    assert not missing, f"{name} decides cells that are not in docs/{lang}/support-matrix.md: {missing}"
    footnote = module.PROBE.footnote
    assert footnote in footnotes, f"[^{footnote}] is not a footnote of docs/{lang}/support-matrix.md"
    cited = [i for i in ids if footnote in _notes(cells[i])]
    assert cited, f"no cell of {name}'s column cites [^{footnote}]"
    # the footnote tells the reader that the probe exists, by name
    assert "python -m benchmarks.probes" in footnotes[footnote] and f"`{name}`" in footnotes[footnote]


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_every_not_checked_gpu_cell_has_a_probe(lang):
    """A GPU cell the page leaves open names a probe that decides it, and the same cells are open in both languages."""
    cells, footnotes = MATRIX[lang]
    probed = {cell for name in PROBES for cell in cell_ids(name)}
    rows = {f"sm{major}{minor}." for major, minor in NVIDIA_ROWS}  # the rows the probes were written for
    open_cells = {cell_id for cell_id, text in cells.items() if NOT_CHECKED[lang] in text and cell_id.startswith(tuple(rows))}
    assert open_cells, "no 'not checked' GPU cell found: has the page changed its words?"
    assert not open_cells - probed, f"'not checked' GPU cells without a probe: {sorted(open_cells - probed)}"
    for cell_id in open_cells:
        assert any("python -m benchmarks.probes" in footnotes.get(n, "") for n in _notes(cells[cell_id])), cell_id
    other = MATRIX["en" if lang == "ja" else "ja"][0]
    assert open_cells == {
        c for c, text in other.items() if NOT_CHECKED["en" if lang == "ja" else "ja"] in text and c.startswith(tuple(rows))
    }


def test_measured_cells_are_the_same_in_both_languages_and_link_their_output():
    measured = {}
    for lang in ("en", "ja"):
        cells, _ = MATRIX[lang]
        measured[lang] = {c for c, text in cells.items() if re.search(MEASURED[lang], text)}
        for c in measured[lang]:
            assert re.search(r"\[" + MEASURED[lang] + r"\]\([^)]+#[\w-]+\)", cells[c]), (lang, c, cells[c])
            assert c.startswith("sm90."), f"only the H100 and the H200 (both 9.0) have been measured: {c}"
    assert measured["en"] == measured["ja"]
    assert {"sm90.float8-training.e4m3fn", "sm90.float8-training.e5m2", "sm90.float8-inference.e4m3fn"} <= measured["en"]
    # e5m2 ran on the H100 in training only; as inference it ran on the H200, in the probes
    assert "measured on H200" in MATRIX["en"][0]["sm90.float8-inference.e5m2"]


def test_the_cells_measured_on_the_h200_are_what_its_probes_found():
    """A cell marked "measured on H200" by a probe is what that probe found on the H200: "native" where it
    worked on the GPU's own kernels, and a probe that decided nothing marks no cell."""
    report = json.loads((DOCS.parent / "benchmarks/results/cuda-h200/probes.json").read_text(encoding="utf-8"))
    assert report["environment"]["gpu_name"] == "NVIDIA H200" and report["environment"]["gpu_capability"] == "9.0"
    data = _hook().load_data()
    marked = set()
    for table_id, table in data["table"].items():
        for column, cell in table["cell"]["sm90"].items():
            measured = cell.get("measured", {})
            if "benchmarks/results/cuda-h200/probes.json" in measured.get("out", []):
                assert measured.get("gpu") == "H200", (table_id, column)
                marked.add((f"sm90.{table_id}.{column}", cell["value"]))
    found = {(r["cell_id"], "native") for r in report["probes"] if r["outcome"] == "works" and r["native"] is True}
    assert marked <= found, f"cells marked from the probes that the probes did not find native: {marked - found}"
    assert {c for c, _ in marked} == {c for c, _ in found} - {"sm90.int8-torchao.dynamic"}, (
        "a probe that worked natively on the H200 and is not marked (int8 dynamic is the H100's measured cell)")


def test_attempt_keeps_the_real_exception_text():
    """A refusal is the finding: its own words are kept (here torchao's, on a CPU)."""
    if torch.cuda.is_available():
        pytest.skip("torchao's float8 inference refuses only where no GPU of compute capability 8.9+ is present")
    from torchao.quantization import (
        Float8DynamicActivationFloat8WeightConfig,
        quantize_,
    )

    model = torch.nn.Linear(32, 32).bfloat16()
    a = attempt("no GPU", lambda: quantize_(model, Float8DynamicActivationFloat8WeightConfig()), "cpu")
    assert a.error.startswith("AssertionError: Float8 dynamic quantization requires CUDA compute capability"), a.error
    assert verdict(a, torch.zeros(1, dtype=torch.float64), 0.1)[0] == "refused"


def test_verdict_tells_wrong_from_right():
    ref = torch.randn(64, 64, dtype=torch.float64)
    assert verdict(Attempt("right", output=ref.float()), ref, 0.05)[0] == "works"
    assert verdict(Attempt("transposed", output=ref.t().float()), ref, 0.05)[0] == "wrong"
    assert verdict(Attempt("nan", output=torch.full((64, 64), float("nan"))), ref, 0.05)[0] == "wrong"


def test_a_probe_that_fails_in_its_own_code_is_undecided(monkeypatch):
    module = load("int8_dynamic")

    def broken(device):
        raise KeyError("a bug in the probe")

    monkeypatch.setattr(module, "run", broken)
    result = run_probe("int8_dynamic", "cpu")
    assert result.outcome == "undecided" and result.error == "KeyError: 'a bug in the probe'"
    assert "the probe's own code failed" in result.evidence and not result.decides


def test_probe_result_rejects_an_unknown_outcome_and_round_trips():
    with pytest.raises(ValueError, match="outcome must be one of"):
        ProbeResult(cell_id="sm90.int4.tinygemm-packing", outcome="maybe", evidence="")
    r = ProbeResult(cell_id="sm90.int4.tinygemm-packing", outcome="works", evidence="x", kernels=("k",), warnings=("w",))
    assert ProbeResult.from_json(json.loads(json.dumps(r.to_json()))) == r


def test_the_command_refuses_without_a_gpu(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(torch.cuda, "is_available", lambda: False)
    assert main(["--out", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no CUDA GPU" in err and "--dry-run" in err
    assert not list(tmp_path.iterdir())  # refused before anything is written
    assert main(["--dry-run"]) == 2 and "--out" in capsys.readouterr().err


def test_the_dry_run_command_writes_probes_json_with_the_stamp(tmp_path):
    """One probe through the real command: a child process, the JSON and its environment stamp."""
    assert main(["--dry-run", "--out", str(tmp_path), "--probes", "int8_dynamic"]) == 0
    report = json.loads((tmp_path / "probes.json").read_text(encoding="utf-8"))
    env = report["environment"]
    for key in ("date", "gpu_name", "gpu_capability", "gpu_driver", "torch", "torch_cuda", "torchao", "python"):
        assert key in env, key
    assert env["dry_run"] is True and env["torch"] == torch.__version__ and env["stand_in_capability"] == "9.0"
    (probe,) = report["probes"]
    assert probe["probe"] == "int8_dynamic" and probe["cell_id"] == "sm90.int8-torchao.dynamic"
    assert probe["outcome"] == "works" and probe["decides"] is False
    assert provenance.problems(report) == [] and report["provenance"]["recorded"] == "measured by python -m benchmarks.probes"


def test_the_budget_bounds_the_run(tmp_path):
    """A probe that would start past the budget is recorded as not run, and the status says so."""
    assert main(["--dry-run", "--out", str(tmp_path), "--budget", "0"]) == 1
    report = json.loads((tmp_path / "probes.json").read_text(encoding="utf-8"))
    assert [p["probe"] for p in report["probes"]] == list(PROBES)
    assert all(p["outcome"] == "undecided" and "budget" in p["evidence"] for p in report["probes"])


@pytest.mark.cuda
def test_probes_on_a_gpu(tmp_path):
    """On a GPU: the stamp names it, and a probe's result decides the cell of its row."""
    assert main(["--out", str(tmp_path), "--probes", "int8_dynamic"]) == 0
    report = json.loads((tmp_path / "probes.json").read_text(encoding="utf-8"))
    env = report["environment"]
    assert env["gpu_name"] == torch.cuda.get_device_name() and env["dry_run"] is False
    major, minor = torch.cuda.get_device_capability()
    assert env["gpu_capability"] == f"{major}.{minor}"
    (probe,) = report["probes"]
    assert probe["cell_id"] == f"sm{major}{minor}.int8-torchao.dynamic"
    assert probe["outcome"] in ("works", "refused", "wrong")
    assert probe["decides"] is ((major, minor) in NVIDIA_ROWS)


def _sig3(x: float) -> str:
    """A TFLOP/s figure as the pages write it: three significant digits, thousands separated."""
    rounded = float(f"{x:.3g}")
    return f"{rounded:,.0f}" if rounded >= 100 else f"{rounded:g}"


def test_the_h100_figures_on_the_matrix_are_the_committed_results():
    """Every H100 figure the support matrix quotes comes from benchmarks/results/cuda; a new GPU run that
    changes one fails here and points at the note to rewrite."""
    results = DOCS.parent / "benchmarks" / "results" / "cuda"
    matmul = json.loads((results / "gpu_matmul.json").read_text(encoding="utf-8"))
    rows = {(r["n"], r["dtype"]): r for r in matmul["rows"]}
    best = {d: max(r["tflops"] for (n, dt), r in rows.items() if dt == d) for d in ("float32", "tf32", "float16", "bfloat16", "float8_e4m3fn")}
    figures = [_sig3(v) for v in best.values()]
    figures += [_sig3(rows[(n, d)]["tflops"]) for n in (1024, 4096, 8192) for d in ("float8_e4m3fn", "bfloat16")]
    # float8 with both operands quantized per product is slower than bfloat16 at every size
    for n in (1024, 4096, 8192):
        assert rows[(n, "float8_e4m3fn")]["events_ms"] + rows[(n, "float8 scaling")]["events_ms"] > rows[(n, "bfloat16")]["events_ms"]
    amp = json.loads((results / "amp_step.json").read_text(encoding="utf-8"))["comparisons"]
    figures += [f"{amp[k]['ratio']:.2f}" for k in ("autocast float16 + GradScaler", "autocast bfloat16")]
    torchao = json.loads((results / "torchao.json").read_text(encoding="utf-8"))["rows"]
    for r in torchao:
        figures.append(f"{r['ratio']:.2f}" if r["ratio"] > 1 else f"{1 / r['ratio']:.2f}")
    step = json.loads((results / "gpu_transformer_step.json").read_text(encoding="utf-8"))["rows"]
    tf32 = next(r for r in step if r["variant"] == "tf32")
    assert round(tf32["spread"]["args"]["spread"], 1) == 1.5  # "spread by a factor of 1.5"
    scaled_mm = (DOCS.parent / "snippets" / "gpu" / "float8_scaled_mm_cuda.out").read_text(encoding="utf-8")
    figures.append(re.search(r"relative error (\d+\.\d) ?%", scaled_mm).group(1) + " %")  # [^h100smm]
    for lang in ("en", "ja"):
        text = (DOCS / lang / "support-matrix.md").read_text(encoding="utf-8")
        missing = [f for f in figures if f not in text]
        assert not missing, f"docs/{lang}/support-matrix.md does not quote these H100 results: {missing}"


def test_the_h200_section_quotes_the_probes_figures():
    """support-matrix.md#probes-h200 (both languages) quotes each probe's relative error as probes.json records
    it; support-matrix.md is excluded from tests/test_prose_figures.py, so its figures are checked here."""
    report = json.loads((DOCS.parent / "benchmarks/results/cuda-h200/probes.json").read_text(encoding="utf-8"))
    recorded = {m for r in report["probes"] for m in re.findall(r"relative error (\d+\.\d+) %", r["evidence"])}
    for lang in ("en", "ja"):
        text = (DOCS / lang / "support-matrix.md").read_text(encoding="utf-8")
        section = text[text.index("{#probes-h200}"):]
        section = section[: section.index("\n## ")]
        quoted = set(re.findall(r"(\d+\.\d+) ?%", section))
        assert quoted and quoted <= recorded, f"{lang}: figures not in probes.json: {sorted(quoted - recorded)}"
