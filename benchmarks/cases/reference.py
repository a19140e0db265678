"""reference_impl's readable implementations against PyTorch's own kernels.

Each [ReferencePair][benchmarks.cases.reference.ReferencePair] names a
reference function, the PyTorch kernel it re-implements, an input maker and a
way to count bit-exact agreements: the two float32 roundings of
``reference_impl.storage`` and int8 quantization against torchao's
``quantize_affine``. To benchmark another reference, append a pair to
`REFERENCE_PAIRS`: the
case picks it up, times both functions in alternating rounds and reports how
many outputs agree bit for bit and how much slower the readable version is.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import torch

from benchmarks.catalog import Msg
from benchmarks.config import BenchConfig
from benchmarks.report import CaseResult, Column, comparison_cells, timed_columns

__all__ = ["REFERENCE_PAIRS", "ReferencePair", "bit_exact_count", "float32_test_values", "normal_test_values", "run"]


def float32_test_values(n: int, device: str = "cpu") -> torch.Tensor:
    """Random float32 values over the whole exponent range, plus the special values.

    Args:
        n: Number of values (at least 16).
        device: Where to create them.

    Returns:
        A float32 tensor of ``n`` values: random bit patterns (every exponent, both
        signs, subnormals, inf and NaN included) with 0, -0, inf, -inf, NaN and the
        float16 overflow boundary at the front.

    Examples:
        >>> float32_test_values(16).dtype, float32_test_values(16).numel()
        (torch.float32, 16)
    """
    g = torch.Generator().manual_seed(0)
    bits = torch.randint(-(2**31), 2**31, (n,), generator=g, dtype=torch.int64).to(torch.int32)
    x = bits.view(torch.float32)
    special = torch.tensor(
        [0.0, -0.0, float("inf"), -float("inf"), float("nan"), 65504.0, 65519.99, 65520.0, 6.1e-5, 3e-8, 1.23],
        dtype=torch.float32,
    )
    x[: special.numel()] = special
    return x.to(device)


def bit_exact_count(a: torch.Tensor, b: torch.Tensor) -> int:
    """Count positions where two same-dtype tensors agree bit for bit (any NaN matches any NaN).

    NaN payloads are not specified by IEEE 754 rounding, so two NaNs count as agreeing;
    every other value must have the identical bit pattern (``-0.0`` differs from ``0.0``).

    Args:
        a: A tensor.
        b: A tensor of the same dtype and shape.

    Returns:
        The number of agreeing elements.

    Examples:
        >>> import torch
        >>> bit_exact_count(torch.tensor([1.0, 2.0, -0.0]).half(), torch.tensor([1.0, 3.0, 0.0]).half())
        1
    """
    ints = {1: torch.int8, 2: torch.int16, 4: torch.int32, 8: torch.int64}[a.element_size()]
    same = a.contiguous().view(ints) == b.contiguous().view(ints)
    if a.is_floating_point():
        same |= a.isnan() & b.isnan()
    return int(same.sum())


@dataclass(frozen=True)
class ReferencePair:
    """A reference implementation and the PyTorch kernel it re-implements.

    Attributes:
        name: Row label, e.g. ``"float32 -> float16"``.
        reference_name: How the reference is called (shown in the table).
        kernel_name: How the PyTorch kernel is called.
        reference: The reference function (tensor in, tensor out).
        kernel: The PyTorch function (tensor in, tensor out).
        make_input: ``(n, device) -> tensor``.
        agree: ``(reference_out, kernel_out) -> number of bit-exact elements``.
    """

    name: Msg | str
    reference_name: str
    kernel_name: str
    reference: Callable[[torch.Tensor], torch.Tensor]
    kernel: Callable[[torch.Tensor], torch.Tensor]
    make_input: Callable[[int, str], torch.Tensor] = float32_test_values
    agree: Callable[[torch.Tensor, torch.Tensor], int] = bit_exact_count


def _storage_pairs() -> list[ReferencePair]:
    from reference_impl.storage import float32_to_bfloat16, float32_to_float16

    return [
        ReferencePair(
            "float32 -> float16", "reference_impl.storage.float32_to_float16(x)", "x.half()",
            float32_to_float16, torch.Tensor.half,
        ),
        ReferencePair(
            "float32 -> bfloat16", "reference_impl.storage.float32_to_bfloat16(x)", "x.bfloat16()",
            float32_to_bfloat16, torch.Tensor.bfloat16,
        ),
    ]


def normal_test_values(n: int, device: str = "cpu") -> torch.Tensor:
    """``n`` float32 values from a normal distribution with standard deviation 4.

    With the scale 0.05 used below, some values fall outside the int8 range (so clamping
    is exercised) and many land exactly on a rounding tie (``x * 20`` ends in .5).

    Args:
        n: Number of values.
        device: Where to create them.

    Returns:
        A float32 tensor.

    Examples:
        >>> normal_test_values(8).shape
        torch.Size([8])
    """
    g = torch.Generator().manual_seed(0)
    return (torch.randn(n, generator=g) * 4).to(device)


def _quantization_pairs() -> list[ReferencePair]:
    from importlib.util import find_spec

    if find_spec("torchao") is None:  # optional dependency: the row is left out
        return []
    from torchao.quantization.quant_primitives import quantize_affine

    from reference_impl.quantization import quantize_per_tensor

    def kernel(x: torch.Tensor) -> torch.Tensor:
        scale = torch.tensor([0.05], device=x.device)
        zero_point = torch.tensor([3], device=x.device)
        return quantize_affine(x, (x.numel(),), scale, zero_point, torch.int8, -128, 127)

    return [
        ReferencePair(
            Msg("label.quantize_per_tensor"),
            "reference_impl.quantization.quantize_per_tensor(x, 0.05, 3, torch.int8)",
            "torchao quantize_affine(x, (x.numel(),), 0.05, 3, torch.int8, -128, 127)",
            lambda x: quantize_per_tensor(x, 0.05, 3, torch.int8),
            kernel,
            make_input=normal_test_values,
        )
    ]


#: The pairs the ``reference`` case measures. Append to add a reference.
REFERENCE_PAIRS: list[ReferencePair] = _storage_pairs() + _quantization_pairs()


def run(cfg: BenchConfig) -> CaseResult:
    """Measure every pair in ``REFERENCE_PAIRS``: bit-exact agreement and relative speed.

    Args:
        cfg: The benchmark settings.

    Returns:
        The ``reference`` case.
    """
    n = 1 << (16 if cfg.quick else 20)
    result = CaseResult(
        "reference",
        "reference_impl vs PyTorch kernels",
        [
            Column("reference", "col.reference"),
            Column("kernel", "col.kernel"),
            Column("agree", "col.agree"),
            *timed_columns("col.pytorch_ms", "col.reference_ms"),
        ],
    )
    for pair in REFERENCE_PAIRS:
        x = pair.make_input(n, cfg.device)
        ref_out, kernel_out = pair.reference(x), pair.kernel(x)
        same = pair.agree(ref_out, kernel_out)
        c = cfg.compare((pair.kernel_name, lambda pair=pair, x=x: pair.kernel(x)), {
            pair.reference_name: lambda pair=pair, x=x: pair.reference(x)
        })[pair.reference_name]
        result.add_comparison(pair.name, c)
        result.rows.append(
            {
                "reference": pair.reference_name,
                "kernel": pair.kernel_name,
                "agree": f"{same:,} / {x.numel():,}",
                "agree_count": same,
                "n": x.numel(),
                **comparison_cells(c),
            }
        )
    result.notes += [
        Msg("note.rounding_rows", n=n),
        Msg("note.quantization_rows", n=n),
        Msg("note.reference_readable"),
    ]
    return result
