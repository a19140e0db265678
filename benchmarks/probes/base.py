"""What every probe shares: its result record, the support matrix's cell ids, a guarded attempt.

A probe asks one question of the support matrix (``docs/*/support-matrix.md``) that no run,
source line or data sheet behind the page has settled, and answers it on the GPU at hand: it
runs the workflow of the cell, catches the real exception where the library refuses, compares
the result with a float64 reference, and records which operators and CUDA kernels ran.

A cell id is ``sm<major><minor>.<table>.<column>``: the compute capability of the GPU, the
heading id of the matrix's table (``float8-inference``) and its column header made an id
(``e5m2``, ``tinygemm packing`` -> ``tinygemm-packing``). ``tests/test_gpu_probes.py`` checks
that every probe's cells exist on the page, in both languages.
"""

from __future__ import annotations

import re
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any
from unittest import mock

import torch

from benchmarks.config import relative_l2

__all__ = [
    "NVIDIA_ROWS",
    "OUTCOMES",
    "Attempt",
    "ProbeResult",
    "attempt",
    "capability_of",
    "cell_id",
    "column_id",
    "error_text",
    "patched",
    "stand_in_op",
    "verdict",
]

#: What a probe can conclude. ``works``: the workflow ran and its result is right; ``refused``: the
#: library or PyTorch raised (the error says what); ``wrong``: it ran and gave a wrong result;
#: ``undecided``: the probe could not reach a verdict (it timed out or crashed, or something the
#: workflow needs besides the GPU, such as the ``mslk`` package, is not installed).
OUTCOMES = ("works", "refused", "wrong", "undecided")

#: The compute capabilities that have a row in the support matrix.
NVIDIA_ROWS: tuple[tuple[int, int], ...] = ((7, 0), (7, 5), (8, 0), (8, 6), (8, 9), (9, 0), (10, 0))

#: The capability a dry run's cell ids name: the one of the GPU the probes were written for.
STAND_IN_CAPABILITY = (9, 0)


def column_id(header: str) -> str:
    """A column header of the support matrix as the last part of a cell id.

    Examples:
        >>> column_id("e5m2"), column_id("weights only"), column_id("`Int4WeightOnlyConfig`")
        ('e5m2', 'weights-only', 'int4weightonlyconfig')
    """
    return re.sub(r"[^a-z0-9]+", "-", header.replace("`", "").lower()).strip("-")


def cell_id(capability: Sequence[int], cell: str) -> str:
    """The id of one cell: the row of ``capability`` in the table and column ``cell``.

    Args:
        capability: ``(major, minor)``, as ``torch.cuda.get_device_capability()`` gives it.
        cell: ``<table heading id>.<column id>``.

    Returns:
        ``sm<major><minor>.<cell>``.

    Examples:
        >>> cell_id((9, 0), "float8-inference.e5m2")
        'sm90.float8-inference.e5m2'
    """
    major, minor = capability
    return f"sm{major}{minor}.{cell}"


def capability_of(device: str) -> tuple[int, int]:
    """The compute capability of the GPU, or the stand-in's (9.0) for a dry run on the CPU."""
    if device == "cpu":
        return STAND_IN_CAPABILITY
    major, minor = torch.cuda.get_device_capability()
    return (major, minor)


def error_text(err: BaseException, limit: int = 400) -> str:
    """``Type: message`` of an exception, on one line, at most ``limit`` characters.

    Examples:
        >>> error_text(AssertionError("Float8 dynamic quantization requires\\nCUDA"))
        'AssertionError: Float8 dynamic quantization requires CUDA'
    """
    message = " ".join(str(err).split())
    text = f"{type(err).__name__}: {message}" if message else type(err).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


@dataclass(frozen=True)
class ProbeResult:
    """What one probe found.

    Attributes:
        cell_id: The support-matrix cell (``sm90.float8-inference.e5m2``).
        outcome: One of ``OUTCOMES``.
        evidence: What ran and what came out, one line per attempt.
        error: The exception the workflow raised (``Type: message``), or None.
        native: Whether the low-precision kernel the cell is about ran (seen by the profiler);
            None where the workflow did not run.
        decides: Whether this result settles the cell: a real GPU run on a row of the matrix that
            reached a verdict. A dry run decides nothing.
        probe: The probe's module name.
        footnote: The support-matrix footnote the cell cites, ``[^name]``.
        source: The line of library source the footnote quotes.
        kernels: CUDA kernels that ran during the workflow (at most a few names).
        seconds: Wall time of the probe.
        warnings: Warnings the workflow raised (recorded, not turned into errors).
    """

    cell_id: str
    outcome: str
    evidence: str
    error: str | None = None
    native: bool | None = None
    decides: bool = False
    probe: str = ""
    footnote: str = ""
    source: str = ""
    kernels: tuple[str, ...] = ()
    seconds: float | None = None
    warnings: tuple[str, ...] = field(default_factory=tuple)

    def __post_init__(self) -> None:
        if self.outcome not in OUTCOMES:
            raise ValueError(f"outcome must be one of {OUTCOMES}, got {self.outcome!r}")

    def to_json(self) -> dict[str, Any]:
        """The result as a JSON-ready dict."""
        data = asdict(self)
        data["kernels"] = list(self.kernels)
        data["warnings"] = list(self.warnings)
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProbeResult:
        """The inverse of ``to_json``."""
        return cls(**{**data, "kernels": tuple(data.get("kernels", ())), "warnings": tuple(data.get("warnings", ()))})


@dataclass
class Attempt:
    """One call of a workflow: what it returned or raised, and what ran.

    Attributes:
        label: What was tried (``e5m2 activations, e4m3fn weights``).
        output: The tensor it returned, or None.
        error: ``Type: message`` of what it raised, or None.
        ops: Operator names the profiler saw (``aten::_scaled_mm``, ``mslk::bf16i4bf16_rowwise``).
        kernels: CUDA kernel names the profiler saw (none on a CPU).
    """

    label: str
    output: torch.Tensor | None = None
    error: str | None = None
    ops: frozenset[str] = frozenset()
    kernels: tuple[str, ...] = ()

    def ran(self, *names: str) -> bool:
        """Whether an operator whose name contains one of ``names`` ran."""
        return any(name in op for op in self.ops for name in names)


def attempt(label: str, fn: Callable[[], torch.Tensor], device: str) -> Attempt:
    """Call ``fn`` under ``torch.no_grad`` and the profiler; catch what it raises.

    Args:
        label: What is tried, for the evidence.
        fn: The workflow: quantize and run, returning the output tensor.
        device: ``"cuda"`` (kernels are recorded too) or ``"cpu"``.

    Returns:
        The attempt. An exception is caught and kept as text; the traceback is not needed to
        decide a cell.

    Examples:
        >>> a = attempt("ones", lambda: torch.ones(2) * 2, "cpu")
        >>> a.error, a.output.tolist(), a.ran("aten::mul")
        (None, [2.0, 2.0], True)
        >>> attempt("refused", lambda: torch.ones(2).view(3), "cpu").error
        "RuntimeError: shape '[3]' is invalid for input of size 2"
    """
    from torch.profiler import ProfilerActivity, profile

    activities = [ProfilerActivity.CPU] + ([ProfilerActivity.CUDA] if device == "cuda" else [])
    result = Attempt(label)
    try:
        with profile(activities=activities, acc_events=True) as prof, torch.no_grad():
            out = fn()
            if device == "cuda":
                torch.cuda.synchronize()
        result.output = out
    except Exception as err:  # noqa: BLE001 - the refusal is the finding: keep its text
        result.error = error_text(err)
        return result
    events = prof.events()
    result.ops = frozenset(e.name for e in events if e.device_type == torch.autograd.DeviceType.CPU)
    kernels: list[str] = []
    for e in events:
        if e.device_type == torch.autograd.DeviceType.CUDA and e.name not in kernels:
            kernels.append(e.name)
    result.kernels = tuple(kernels)
    return result


def verdict(a: Attempt, reference: torch.Tensor, limit: float) -> tuple[str, str]:
    """The outcome of one attempt against a float64 reference, and a line of evidence.

    Args:
        a: The attempt.
        reference: The exact result (float64).
        limit: The largest relative L2 error that still counts as right.

    Returns:
        ``(outcome, line)``.

    Examples:
        >>> ref = torch.ones(4, dtype=torch.float64)
        >>> verdict(Attempt("close", output=torch.ones(4) * 1.01), ref, 0.05)
        ('works', 'close: ran, relative error 1.00 %')
        >>> verdict(Attempt("far", output=-torch.ones(4)), ref, 0.05)[0]
        'wrong'
        >>> verdict(Attempt("no", error="RuntimeError: not supported"), ref, 0.05)
        ('refused', 'no: refused: RuntimeError: not supported')
    """
    if a.error is not None:
        return "refused", f"{a.label}: refused: {a.error}"
    assert a.output is not None
    out = a.output.detach()
    if not torch.isfinite(out.float()).all():
        return "wrong", f"{a.label}: ran, but the output holds NaN or inf"
    error = relative_l2(out, reference)
    if error > limit:
        return "wrong", f"{a.label}: ran, but relative error {error * 100:.2f} % is over the {limit * 100:.0f} % limit"
    return "works", f"{a.label}: ran, relative error {error * 100:.2f} %"


def kernels_line(kernels: Sequence[str], most: int = 4) -> str:
    """The first few CUDA kernel names, for the evidence.

    Examples:
        >>> kernels_line(["a", "b"]), kernels_line([])
        ('CUDA kernels: a | b', 'CUDA kernels: none recorded')
    """
    if not kernels:
        return "CUDA kernels: none recorded"
    shown = " | ".join(k[:90] for k in kernels[:most])
    return f"CUDA kernels: {shown}" + (f" (+{len(kernels) - most} more)" if len(kernels) > most else "")


@contextmanager
def patched(patches: Sequence[tuple[Any, str, Any]]) -> Iterator[None]:
    """Replace attributes for the duration of a dry run (``(object, name, value)`` each).

    A missing attribute raises ``AttributeError`` rather than being created, so that a renamed
    function in torchao or PyTorch fails the dry run instead of being silently skipped; the one
    exception is an operator of a library that is not installed (``torch.ops.mslk``), created
    by [stand_in_op][benchmarks.probes.base.stand_in_op].
    """
    with ExitStack() as stack:
        for obj, name, value in patches:
            create = isinstance(obj, torch._ops._OpNamespace) and not hasattr(obj, name)
            stack.enter_context(mock.patch.object(obj, name, value, create=create))
        yield


def stand_in_op(name: str, impl: Callable[..., Any]) -> Callable[..., Any]:
    """``impl``, shown to the profiler under the name of the GPU operator it stands in for.

    Examples:
        >>> op = stand_in_op("aten::_weight_int4pack_mm", lambda x: x + 1)
        >>> attempt("stand-in", lambda: op(torch.zeros(1)), "cpu").ran("aten::_weight_int4pack_mm")
        True
    """
    from torch.profiler import record_function

    def call(*args: Any, **kwargs: Any) -> Any:
        with record_function(name):
            return impl(*args, **kwargs)

    return call


def traceback_tail(err: BaseException, lines: int = 6) -> str:
    """The last lines of a traceback (for a probe that failed in its own code)."""
    text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    return "\n".join(text.rstrip().splitlines()[-lines:])
