"""What every probe shares: its identity, its result record, the support matrix's cell ids, the
layer it quantizes, a guarded attempt and the verdict.

A probe asks one question of the support matrix (``docs/*/support-matrix.md``) that no run,
source line or data sheet behind the page has settled, and answers it on the GPU at hand: it
runs the workflow of the cell, catches the real exception where the library refuses, compares
the result with a float64 reference, and records which operators and CUDA kernels ran.

A cell id is ``sm<major><minor>.<table>.<column>``: the compute capability of the GPU, the
heading id of the matrix's table (``float8-inference``) and its column header made an id
(``e5m2``, ``tinygemm packing`` -> ``tinygemm-packing``). ``tests/test_gpu_probes.py`` checks
that every probe's cells exist on the page, in both languages.

A probe module holds a [Probe][benchmarks.probes.base.Probe] named ``PROBE`` (its cell, footnote,
source line, question and what its dry run substitutes) and ``run(device)``, which builds its case
with [linear_case][benchmarks.probes.base.linear_case], tries the workflow with
[run_config][benchmarks.probes.base.run_config], judges it with
[verdict][benchmarks.probes.base.verdict] and [product][benchmarks.probes.base.product], and
returns ``PROBE.result(...)``. Only what the probe asks differs from one module to the next.
"""

from __future__ import annotations

import copy
import re
import traceback
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from typing import Any
from unittest import mock

import torch
from torch import nn

from benchmarks.config import relative_l2

__all__ = [
    "NVIDIA_ROWS",
    "OUTCOMES",
    "Attempt",
    "LinearCase",
    "Probe",
    "ProbeResult",
    "attempt",
    "capability_of",
    "cell_id",
    "column_id",
    "error_text",
    "kernels_line",
    "linear_case",
    "mx_product_stand_in",
    "patched",
    "product",
    "run_config",
    "stand_in_op",
    "verdict",
]

#: What a probe can conclude. ``works``: the workflow ran and its result is right; ``refused``: the
#: library or PyTorch raised (the error says what); ``wrong``: it ran and gave a wrong result;
#: ``undecided``: the probe could not reach a verdict (it timed out or crashed, or something the
#: workflow needs besides the GPU, such as the ``mslk`` package, is not installed).
OUTCOMES = ("works", "refused", "wrong", "undecided")

#: The compute capabilities that have a row in the support matrix.
NVIDIA_ROWS: tuple[tuple[int, int], ...] = ((7, 0), (7, 5), (8, 0), (8, 6), (8, 9), (9, 0), (10, 0), (12, 0))

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


def mx_product_stand_in() -> tuple[object, str, Callable[..., Any]]:
    """torchao's MX product (its emulated branch) under the name of the kernel it stands in for.

    Both MXFP8 probes' dry runs patch ``torchao.prototype.mx_formats.mx_tensor._addmm_mx_dispatch``
    with it (a ``(module, attribute, replacement)`` entry for [patched][benchmarks.probes.base.patched]),
    so that the profiler sees ``aten::_scaled_mm`` where the GPU would run it.
    """
    from torchao.prototype.mx_formats import mx_tensor

    return (mx_tensor, "_addmm_mx_dispatch", stand_in_op("aten::_scaled_mm", mx_tensor._addmm_mx_dispatch))


@dataclass(frozen=True)
class Probe:
    """Who a probe is: the cell it decides and what the support matrix cites for it.

    Each probe module binds one as ``PROBE``; the command reads the module's ``PROBE`` and calls its
    ``run(device)``.

    Attributes:
        cell: The cell id without its ``sm<capability>`` row (``int4.tinygemm-packing``).
        footnote: The support-matrix footnote the cell cites, without ``[^ ]``.
        source: The line of library source the footnote quotes (a link).
        question: What the probe asks, in one sentence (``--list`` prints it).
        stand_in: What the dry run on a CPU substitutes for the GPU-only calls.

    Examples:
        >>> p = Probe("int4.tinygemm-packing", "tinygemm", "https://example.org", "Does it run?", "nothing")
        >>> r = p.result("cpu", "works", ["ran", "its product: x"], native=True, kernels=("k",) * 9)
        >>> r.cell_id, r.evidence.splitlines(), r.footnote, len(r.kernels)
        ('sm90.int4.tinygemm-packing', ['ran', 'its product: x'], 'tinygemm', 8)
    """

    cell: str
    footnote: str
    source: str
    question: str
    stand_in: str

    def result(
        self,
        device: str,
        outcome: str,
        lines: Sequence[str],
        *,
        error: str | None = None,
        native: bool | None = None,
        kernels: Sequence[str] = (),
    ) -> ProbeResult:
        """The probe's result for the cell of this GPU's compute capability (the stand-in's on a CPU).

        Args:
            device: ``"cuda"``, or ``"cpu"`` for the dry run.
            outcome: One of ``OUTCOMES``.
            lines: The evidence, one line per attempt or finding.
            error: What the workflow raised (``Type: message``), or None.
            native: Whether the low-precision kernel ran; None where the workflow did not run.
            kernels: The CUDA kernels that ran (the first 8 are kept).
        """
        return ProbeResult(
            cell_id=cell_id(capability_of(device), self.cell),
            outcome=outcome,
            evidence="\n".join(lines),
            error=error,
            native=native,
            footnote=self.footnote,
            source=self.source,
            kernels=tuple(kernels)[:8],
        )


@dataclass(frozen=True)
class LinearCase:
    """The layer a probe quantizes: a seeded ``nn.Linear``, its input and their float64 product.

    Attributes:
        model: The layer, in evaluation mode, on the probe's device.
        x: Its input, ``rows`` by ``in_features``.
        reference: ``x @ W.T (+ b)`` in float64, what the quantized layer is judged against.
    """

    model: nn.Linear
    x: torch.Tensor
    reference: torch.Tensor

    def quantized(self, make_config: Callable[[], Any]) -> Callable[[], torch.Tensor]:
        """The workflow of a torchao config: build it, quantize a copy of the layer with ``quantize_``, run it on ``x``."""
        from torchao.quantization import quantize_

        q = copy.deepcopy(self.model)

        def call() -> torch.Tensor:
            quantize_(q, make_config())
            return q(self.x)

        return call


def linear_case(
    device: str,
    in_features: int,
    out_features: int,
    *,
    dtype: torch.dtype = torch.bfloat16,
    bias: bool = False,
    rows: int = 64,
) -> LinearCase:
    """A seeded ``nn.Linear(in_features, out_features)`` in ``dtype`` on ``device``, its input and the float64 product.

    The global seed is 0, set before the layer and then the input are drawn, so a probe's operands
    are the same on every run and device.

    Examples:
        >>> case = linear_case("cpu", 32, 16, dtype=torch.float32, bias=True, rows=4)
        >>> tuple(case.x.shape), case.reference.dtype, case.model.training
        ((4, 32), torch.float64, False)
        >>> bool(torch.allclose(case.model(case.x).double(), case.reference, atol=1e-5))
        True
    """
    torch.manual_seed(0)
    model = nn.Linear(in_features, out_features, bias=bias).to(device=device, dtype=dtype).eval()
    x = torch.randn(rows, in_features, device=device, dtype=dtype)
    reference = x.double() @ model.weight.double().t()
    if bias:
        reference = reference + model.bias.double()
    return LinearCase(model, x, reference)


def run_config(
    case: LinearCase,
    label: str,
    make_config: Callable[[], Any],
    device: str,
    stand_ins: Callable[[], Sequence[tuple[Any, str, Any]]] | None = None,
) -> Attempt:
    """Make a torchao config and try its workflow on ``case``, with the dry run's stand-ins on a CPU.

    Args:
        case: The layer and input.
        label: What is tried, for the evidence.
        make_config: Builds the config, inside the guarded attempt: whatever torchao raises, from
            the config to the forward pass, is the finding.
        device: ``"cuda"``, or ``"cpu"`` for the dry run.
        stand_ins: Returns the ``(object, name, value)`` substitutions of the dry run
            ([patched][benchmarks.probes.base.patched]); called on a CPU only.

    Returns:
        The attempt.
    """
    with patched(stand_ins() if stand_ins is not None and device == "cpu" else []):
        return attempt(label, case.quantized(make_config), device)


def product(a: Attempt, op: str, device: str) -> tuple[bool | None, list[str]]:
    """Whether the workflow's product ran as operator ``op``, and the evidence lines that say so.

    Returns:
        ``(native, lines)``: None and no lines where the workflow raised; on a GPU the lines end with
        the CUDA kernels that ran.

    Examples:
        >>> product(Attempt("x", output=torch.ones(1), ops=frozenset({"aten::mm"})), "aten::mm", "cpu")
        (True, ['its product: aten::mm'])
        >>> product(Attempt("x", output=torch.ones(1)), "aten::mm", "cpu")
        (False, ['its product: no aten::mm ran'])
        >>> product(Attempt("x", error="RuntimeError: no"), "aten::mm", "cpu")
        (None, [])
    """
    if a.error is not None:
        return None, []
    native = a.ran(op)
    lines = ["its product: " + (op if native else f"no {op} ran")]
    if device == "cuda":
        lines.append(kernels_line(a.kernels))
    return native, lines


def traceback_tail(err: BaseException, lines: int = 6) -> str:
    """The last lines of a traceback (for a probe that failed in its own code)."""
    text = "".join(traceback.format_exception(type(err), err, err.__traceback__))
    return "\n".join(text.rstrip().splitlines()[-lines:])
