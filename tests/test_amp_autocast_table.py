"""The generated autocast table: current for the installed torch, and what the pages say about it."""

from __future__ import annotations

import re
from pathlib import Path

import torch

from reference_impl.amp.autocast_table import OPS, format_autocast_table, probe_autocast

REPO = Path(__file__).resolve().parent.parent
COMMITTED = REPO / "snippets" / "amp" / "autocast_op_table.out"
COLUMNS = [(torch.bfloat16, torch.float32), (torch.bfloat16, torch.bfloat16), (torch.float16, torch.float32)]


def test_committed_table_matches_the_installed_torch():
    # test_snippets.py checks the same file byte for byte; this test says what to do about it.
    fresh = format_autocast_table("cpu", COLUMNS) + "\n"
    assert COMMITTED.read_text() == fresh, (
        "the autocast op table changed with this torch; regenerate it with "
        "`.venv/bin/python -m pytest tests/test_snippets.py -k autocast_op_table --update-outputs`, "
        "review the diff, and update the prose of docs/*/amp/autocast.md#op-table if a row moved"
    )


def test_table_names_the_torch_version():
    first = COMMITTED.read_text().splitlines()[0]
    assert first == f"generated with torch {torch.__version__} on cpu"


def test_every_op_appears_once():
    rows = [line.split()[0] for line in COMMITTED.read_text().splitlines()[4:]]
    assert len(rows) == len(OPS)


def test_the_three_behaviours_the_page_describes():
    cpu = probe_autocast("cpu", torch.bfloat16)
    cpu16 = probe_autocast("cpu", torch.bfloat16, torch.bfloat16)
    # 1. lower precision: matrix products are cast down
    for op in ("a @ b", "F.linear", "F.conv2d", "torch.bmm", "torch.addmm"):
        assert cpu[op] == "bfloat16", op
    # 2. float32: losses are cast up, even from bfloat16 inputs
    for op in ("F.mse_loss", "F.cross_entropy", "F.nll_loss", "torch.prod", "torch.cdist"):
        assert cpu16[op] == "float32", op
    # 3. input dtype: everything else is left alone
    for op in ("F.relu", "torch.softmax", "torch.sum", "F.layer_norm"):
        assert cpu[op] == "float32" and cpu16[op] == "bfloat16", op


def test_errors_are_recorded_not_raised(monkeypatch):
    def broken(inputs):
        raise RuntimeError("no kernel")

    monkeypatch.setitem(OPS, "broken", broken)
    assert probe_autocast("cpu", torch.bfloat16)["broken"] == "error: RuntimeError"
    assert re.search(r"^broken +error: RuntimeError", format_autocast_table("cpu", COLUMNS[:1]), re.M)
