"""The support matrix is data: docs/data/support_matrix.toml, rendered into both languages.

Every cell has a source (its footnotes' sources or its measured GPU run); a cell that contradicts
the compute-capability rule of its column fails; both languages render the same cells from the
data, with labels from docs/data/messages.<lang>.toml that exist in both catalogs and agree with
each page's legend; the pages hold placeholders, not hand-written cells; every test id a source
names is collected and every file it names exists. No built site needed.
"""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
DOCS = REPO / "docs"
LANGS = ("en", "ja")
SOURCE_KINDS = ("test", "probe", "out", "result", "upstream", "datasheet", "issue")
VALUES = ("native", "emulated", "no", "not-checked")


def _hook():
    """docs/hooks/support_matrix.py, imported by path (its render functions need no MkDocs)."""
    spec = importlib.util.spec_from_file_location("support_matrix_hook", DOCS / "hooks" / "support_matrix.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


HOOK = _hook()
DATA = HOOK.load_data()
MESSAGES = {lang: HOOK.load_messages(lang) for lang in LANGS}
PAGES = {lang: (DOCS / lang / "support-matrix.md").read_text(encoding="utf-8") for lang in LANGS}


def _cells():
    """(table id, row id, column id, cell) for every cell of the data."""
    for table_id, table in DATA["table"].items():
        for row in DATA["rows"]:
            for column in table["columns"]:
                yield table_id, row, column, table["cell"][row][column]


CELLS = list(_cells())


def _capability(row: str) -> tuple[int, int] | None:
    found = DATA["row"][row].get("capability")
    return None if found is None else tuple(int(x) for x in found.split("."))


def rule_value(rule: dict, capability: tuple[int, int]) -> str:
    """The value a rule gives a compute capability: the last step whose start is at or below it."""
    value = None
    for step in rule["steps"]:
        if tuple(int(x) for x in step["from"].split(".")) <= capability:
            value = step["value"]
    assert value is not None, f"the rule has no step at or below {capability}"
    return value


def _sources(cell: dict) -> list[dict]:
    found = [s for note in cell.get("notes", []) for s in DATA["note"].get(note, {}).get("sources", [])]
    if "measured" in cell:
        found += [{"out": path} for path in cell["measured"]["out"]]
    return found


# -- the data ----------------------------------------------------------------------------------


def test_every_table_has_every_row_and_column():
    assert len(CELLS) > 300, len(CELLS)
    for table_id, table in DATA["table"].items():
        assert list(table["cell"]) == DATA["rows"], f"{table_id}: rows {list(table['cell'])} are not rows = {DATA['rows']}"
        for row, cells in table["cell"].items():
            assert list(cells) == table["columns"], f"{table_id}.{row}: columns {list(cells)} are not {table['columns']}"


@pytest.mark.parametrize("table_id", list(DATA["table"]))
def test_every_cell_has_a_value_and_a_source(table_id):
    problems = []
    for t, row, column, cell in CELLS:
        if t != table_id:
            continue
        where = f"{t}.{row}.{column}"
        if cell.get("value") not in VALUES:
            problems.append(f"{where}: value {cell.get('value')!r} is not one of {VALUES}")
        unknown = [n for n in cell.get("notes", []) if n not in DATA["note"]]
        if unknown:
            problems.append(f"{where}: notes {unknown} have no [note.<name>] with sources in the data")
        if not _sources(cell):
            problems.append(f"{where}: no source (a note with sources, or a measured run)")
        if "measured" in cell and not cell["measured"].get("out"):
            problems.append(f"{where}: a measured run names no recorded output")
    assert not problems, "\n".join(problems)


def test_every_source_is_of_a_known_kind_and_complete():
    problems = []
    notes = {f"note.{k}": v["sources"] for k, v in DATA["note"].items()}
    notes |= {f"rule.{k}": v["sources"] for k, v in DATA["rule"].items()}
    for where, sources in notes.items():
        if not sources:
            problems.append(f"{where}: no sources")
        for source in sources:
            kinds = [k for k in SOURCE_KINDS if k in source]
            if len(kinds) != 1:
                problems.append(f"{where}: a source needs exactly one of {SOURCE_KINDS}: {source}")
                continue
            if kinds == ["upstream"]:
                missing = [k for k in ("version", "symbol", "read") if not source.get(k)]
                if missing:
                    problems.append(f"{where}: upstream {source['upstream']} lacks {missing}")
                tag = re.search(r"github\.com/pytorch/(pytorch|ao)/blob/([^/]+)/", source["upstream"])
                if tag:
                    expected = {"pytorch": "v" + DATA["version"]["torch"], "ao": "v" + DATA["version"]["torchao"]}[tag.group(1)]
                    if tag.group(2) != expected:
                        problems.append(f"{where}: {source['upstream']} is not at {expected}, the version the page documents")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("table_id", [t for t, table in DATA["table"].items() if table.get("rules")])
def test_cells_agree_with_their_rules(table_id):
    """A compute-capability threshold read in PyTorch's or torchao's source decides these cells:
    a cell that says otherwise (two rows swapped, a threshold misread) fails."""
    table = DATA["table"][table_id]
    problems = []
    for column, rule_id in table["rules"].items():
        assert column in table["columns"], f"{table_id}: rule for unknown column {column}"
        rule = DATA["rule"][rule_id]
        for row in DATA["rows"]:
            capability = _capability(row)
            if capability is None or DATA["row"][row]["vendor"] != rule["vendor"]:
                continue
            expected = rule_value(rule, capability)
            actual = table["cell"][row][column]["value"]
            if expected != "open" and actual != expected:
                problems.append(
                    f"{table_id}.{row}.{column} (capability {'.'.join(map(str, capability))}) says {actual!r}; "
                    f"rule {rule_id} ({rule['says']}) gives {expected!r}"
                )
    assert not problems, "\n".join(problems)


def test_rules_are_sorted_thresholds_with_known_values():
    for rule_id, rule in DATA["rule"].items():
        starts = [tuple(int(x) for x in s["from"].split(".")) for s in rule["steps"]]
        assert starts == sorted(starts) and starts[0] == (0, 0), f"rule {rule_id}: steps must start at 0.0, in order"
        assert {s["value"] for s in rule["steps"]} <= set(VALUES) | {"open"}, rule_id
        assert any("upstream" in s for s in rule["sources"]), f"rule {rule_id} names no upstream source line"
    used = {r for t in DATA["table"].values() for r in t.get("rules", {}).values()}
    assert used == set(DATA["rule"]), f"rules no column uses: {sorted(set(DATA['rule']) - used)}"


def test_the_rules_agree_with_the_installed_torch_and_torchao():
    """The thresholds as the installed torch 2.13 / torchao 0.18 code states them (their source text)."""
    import inspect

    import torch

    bf16 = inspect.getsource(torch.cuda.is_bf16_supported)
    assert ".major >= 8" in bf16, bf16
    assert "is_bf16_supported(including_emulation=False)" in inspect.getsource(torch.cuda.is_tf32_supported)
    from torchao import utils

    assert "get_device_capability() >= (8, 9)" in inspect.getsource(utils.is_sm_at_least_89)
    assert "get_device_capability() >= (10, 0)" in inspect.getsource(utils.is_sm_at_least_100)
    steps = {r: [(s["from"], s["value"]) for s in DATA["rule"][r]["steps"]] for r in DATA["rule"]}
    assert steps["bf16-native"] == [("0.0", "emulated"), ("8.0", "native")]
    assert steps["tf32"] == [("0.0", "no"), ("8.0", "native")]
    assert steps["torchao-float8-inference"] == [("0.0", "no"), ("8.9", "native")]
    assert steps["mx-sm100"][:2] == [("0.0", "no"), ("10.0", "native")]


_FLOAT8_DEFAULTS = """
import sys, types, torch
arch = sys.argv[1]
if arch != "none":  # what torch reports on a ROCm build with that GPU (no GPU needed to import torchao)
    torch.version.hip = "6.4.0"
    torch.cuda.is_available = lambda: True
    torch.cuda.get_device_properties = lambda device=0: types.SimpleNamespace(gcnArchName=arch + ":sramecc+:xnack-")
from torchao.quantization import Float8DynamicActivationFloat8WeightConfig
config = Float8DynamicActivationFloat8WeightConfig()
print(config.activation_dtype, config.weight_dtype)
"""


@pytest.mark.parametrize(("arch", "expected"), [
    ("gfx942", "torch.float8_e4m3fnuz"),  # MI300
    ("gfx950", "torch.float8_e4m3fn"),    # MI350: the OCP formats
    ("none", "torch.float8_e4m3fn"),      # not ROCm
], ids=["MI300", "MI350", "not-ROCm"])
def test_the_float8_inference_config_defaults_to_fnuz_on_an_mi300(arch, expected):
    """Note rocmf8inf (issue 40: it once said the config keeps e4m3fn on an MI300). The installed
    torchao's own code decides, at import, from what torch reports: Float8TypeConfig.__post_init__
    picks float8_e4m3fnuz on an MI300, and the config's dtypes default to that choice."""
    import os

    from docs_tools.warning_policy import pythonwarnings_env

    result = subprocess.run([sys.executable, "-c", _FLOAT8_DEFAULTS, arch], cwd=REPO, capture_output=True, text=True,
                            timeout=300, env={**os.environ, "PYTHONWARNINGS": pythonwarnings_env()})
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == [expected, expected], result.stdout


def test_the_cpu_scaled_mm_takes_tensorwise_and_rowwise_scales_only():
    """The CPU cells of the scaled_mm table (note smcpu), on this machine's torch: one scale per
    tensor and one per row give the product to float8 precision; 1x128 / 128x128 blocks are refused."""
    import torch
    import torch.nn.functional as F

    e4m3 = torch.float8_e4m3fn
    torch.manual_seed(0)
    x, w = torch.randn(128, 256), torch.randn(128, 256) * 0.05
    exact = x @ w.t()

    def rowwise(t):
        scale = (t.abs().amax(dim=1, keepdim=True) / torch.finfo(e4m3).max).clamp(min=1e-12)
        return (t / scale).to(e4m3), scale.float()

    x8, xs = rowwise(x)
    w8, ws = rowwise(w)
    out = F.scaled_mm(x8, w8.t(), xs, F.ScalingType.RowWise, ws.t(), F.ScalingType.RowWise, output_dtype=torch.float32)
    assert ((out - exact).norm() / exact.norm()).item() < 0.05
    xt, wt = (t.abs().max() / torch.finfo(e4m3).max for t in (x, w))
    out = F.scaled_mm((x / xt).to(e4m3), (w / wt).to(e4m3).t(), xt.float(), F.ScalingType.TensorWise,
                      wt.float(), F.ScalingType.TensorWise, output_dtype=torch.float32)
    assert ((out - exact).norm() / exact.norm()).item() < 0.05
    with pytest.raises(ValueError, match="Invalid scaling configuration") as refused:
        F.scaled_mm(x8, w8.t(), torch.ones(2, 128).t(), F.ScalingType.BlockWise1x128,
                    torch.ones(1, 2), F.ScalingType.BlockWise128x128, output_dtype=torch.bfloat16)
    assert "TensorWise" in str(refused.value) and "BlockWise" not in str(refused.value).split("Got")[0]


@pytest.mark.parametrize("lang", LANGS)
def test_each_footnote_cites_the_links_its_data_names(lang):
    """The data's sources of a note and the prose of that footnote name the same upstream lines,
    data sheets and issues, on both pages: neither can change its link alone."""
    footnotes = dict(re.findall(r"^\[\^([\w-]+)\]: (.*)$", PAGES[lang], re.M))
    problems = [
        f"[^{name}] does not cite {source[kind]}"
        for name, note in DATA["note"].items()
        for source in note["sources"]
        for kind in ("upstream", "datasheet", "issue")
        if kind in source and source[kind] not in footnotes.get(name, "")
    ]
    assert not problems, f"docs/{lang}/support-matrix.md:\n" + "\n".join(problems)


# -- files and tests the sources name ----------------------------------------------------------


def test_every_named_file_exists():
    paths = {s[k] for _, _, _, cell in CELLS for s in _sources(cell) for k in ("probe", "out", "result") if k in s}
    paths |= {s[k] for note in DATA["note"].values() for s in note["sources"] for k in ("probe", "out", "result") if k in s}
    missing = sorted(p for p in paths if not (REPO / p).is_file())
    assert not missing, f"sources name files that do not exist: {missing}"
    outs = {p for _, _, _, c in CELLS if "measured" in c for p in c["measured"]["out"]}
    assert all(p.endswith("_cuda.out") or p.startswith(("benchmarks/results/cuda/", "benchmarks/results/cuda-h200/")) for p in outs), outs


def test_every_measured_link_and_probe_points_at_something_real():
    problems = []
    for table_id, row, column, cell in CELLS:
        if "measured" not in cell:
            continue
        page, _, anchor = cell["measured"]["href"].partition("#")
        for lang in LANGS:
            target = DOCS / lang / page
            if not target.is_file() or (anchor and "{#" + anchor + "}" not in target.read_text(encoding="utf-8")):
                problems.append(f"{table_id}.{row}.{column}: {cell['measured']['href']} has no page or heading in {lang}")
    assert not problems, "\n".join(problems)


def test_every_named_test_is_collected():
    ids = sorted({s["test"] for note in DATA["note"].values() for s in note["sources"] if "test" in s})
    assert ids
    result = subprocess.run(
        [sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", *ids],
        cwd=REPO, capture_output=True, text=True, timeout=300,
    )
    collected = set(result.stdout.split())
    missing = [i for i in ids if i not in collected]
    assert not missing, f"tests the support matrix names that pytest does not collect: {missing}\n{result.stdout[-2000:]}{result.stderr[-2000:]}"


# -- the catalogs and the pages ----------------------------------------------------------------


def _keys(node, prefix=""):
    for key, value in node.items():
        if isinstance(value, dict):
            yield from _keys(value, f"{prefix}{key}.")
        else:
            yield f"{prefix}{key}"


def test_every_label_exists_in_both_catalogs():
    en, ja = (set(_keys(MESSAGES[lang])) for lang in LANGS)
    assert en == ja, f"only in messages.en.toml: {sorted(en - ja)}; only in messages.ja.toml: {sorted(ja - en)}"
    needed = {f"row.{r}" for r in DATA["rows"]} | {f"value.{v}" for v in VALUES}
    needed |= {f"column.{t}.{c}" for t, table in DATA["table"].items() for c in table["columns"]}
    needed |= {f"qualifier.{c['qualifier']}" for *_, c in CELLS if "qualifier" in c}
    assert not needed - en, f"labels the data needs and the catalogs lack: {sorted(needed - en)}"
    for lang in LANGS:
        for key in (k for k in _keys(MESSAGES[lang]) if k.startswith("qualifier.")):
            assert "{value}" in HOOK._label(MESSAGES[lang], *key.split(".")), f"{lang}: {key} must contain {{value}}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_value_labels_are_the_words_the_page_defines(lang):
    """The legend at the top of each page defines the four values in bold, in this order; the
    catalog's words must be those (a swapped label, 'native' shown as 'emulated', fails)."""
    legend = re.findall(r"^- \*\*(.+?)\*\*[:：]", PAGES[lang], re.M)[:4]
    assert legend == [MESSAGES[lang]["value"][v] for v in VALUES], (legend, MESSAGES[lang]["value"])


def _placeholders(lang):
    """(heading id above it, table id) for each placeholder of the page, in order."""
    heading, found = None, []
    for line in PAGES[lang].splitlines():
        m = re.match(r"#+ .*\{#([\w-]+)\}\s*$", line)
        if m:
            heading = m.group(1)
        m = HOOK.PLACEHOLDER.match(line)
        if m:
            found.append((heading, m.group(1)))
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_each_table_has_one_placeholder_under_its_heading(lang):
    found = _placeholders(lang)
    assert [t for _, t in found] == list(DATA["table"]), f"docs/{lang}: placeholders {found}"
    assert all(h == t for h, t in found), f"docs/{lang}: a placeholder must sit under the heading {{#<table id>}}: {found}"


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_holds_no_hand_written_cells(lang):
    """A cell typed into one page (a row of the matrix, or a whole table) would make the languages
    differ again: no table line may start with a hardware label or the header word."""
    labels = {MESSAGES[lang]["hardware"], *MESSAGES[lang]["row"].values()}
    labels |= {MESSAGES[other]["hardware"] for other in LANGS} | {v for o in LANGS for v in MESSAGES[o]["row"].values()}
    problems = [
        f"line {n}: {line[:80]}"
        for n, line in enumerate(PAGES[lang].splitlines(), 1)
        if line.startswith("|") and line.strip("| ").split("|")[0].strip() in labels
    ]
    assert not problems, f"docs/{lang}/support-matrix.md has matrix cells by hand (they belong in docs/data/support_matrix.toml):\n" + "\n".join(problems)


def _parsed(rendered: str, lang: str) -> dict[tuple[str, str], tuple]:
    """The rendered table back as (row, column) -> (value id, qualifier id, footnotes, link)."""
    messages = MESSAGES[lang]
    rows = {label: row for row, label in messages["row"].items()}
    values = sorted(((label, v) for v, label in messages["value"].items()), key=lambda x: -len(x[0]))
    lines = [l for l in rendered.splitlines() if l.startswith("|")][2:]
    out = {}
    for line in lines:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        row = rows[cells[0]]
        for n, text in enumerate(cells[1:]):
            notes = tuple(re.findall(r"\[\^([\w-]+)\]", text))
            link = re.findall(r"\]\(([^)]+)\)", text)
            head = re.split(r"\[", text)[0]
            value = next(v for label, v in values if label in head)
            qualifier = next((q for q, t in messages["qualifier"].items() if t.format(value=messages["value"][value]) in head), None)
            out[(row, n)] = (value, qualifier, notes, tuple(link))
    return out


def test_both_languages_render_the_same_cells():
    """Rendered from one data file, each language's table read back gives the same value,
    qualifier, footnotes and link in every cell."""
    problems = []
    en, ja = (HOOK.render_tables(lang) for lang in LANGS)
    for table_id in DATA["table"]:
        a, b = _parsed(en[table_id], "en"), _parsed(ja[table_id], "ja")
        assert len(a) == len(DATA["rows"]) * len(DATA["table"][table_id]["columns"])
        problems += [f"{table_id} {k}: en {a[k]} ja {b.get(k)}" for k in a if a[k] != b.get(k)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_the_pages_render_and_define_every_footnote_a_cell_cites(lang):
    rendered = HOOK.render_page(PAGES[lang], lang)
    assert "<!-- support-matrix:" not in rendered
    defined = set(re.findall(r"^\[\^([\w-]+)\]:", PAGES[lang], re.M))
    cited = {n for *_, c in CELLS for n in c.get("notes", []) + ([c["measured"]["note"]] if "measured" in c else [])}
    assert not cited - defined, f"docs/{lang}/support-matrix.md does not define footnotes the cells cite: {sorted(cited - defined)}"


def test_a_missing_or_doubled_placeholder_fails_the_build():
    page = PAGES["en"]
    with pytest.raises(HOOK.SupportMatrixError, match="missing"):
        HOOK.render_page(page.replace("<!-- support-matrix: int4 -->", ""), "en")
    with pytest.raises(HOOK.SupportMatrixError, match="twice"):
        HOOK.render_page(page + "\n<!-- support-matrix: int4 -->\n", "en")
