"""A second, independent oracle for the rounding references: ml_dtypes (JAX's numpy dtypes).

The other rounding tests compare reference_impl with PyTorch's own casts; if PyTorch and the
reference shared a mistake, those tests could not see it. ml_dtypes implements bfloat16 and the
float8 formats separately (C++ behind numpy), so agreeing with it bit for bit is independent
evidence. Where the two libraries define overflow differently, the test says so:

* float32 -> float8_e4m3fn out of range: ml_dtypes gives NaN (the format has no inf), like the
  reference with ``saturate=False``; torch >= 2.13 saturates to +-448 (``saturate=True``);
* float32 -> float8_e5m2 out of range: both give +-inf (``saturate=False``).
"""

from __future__ import annotations

import numpy as np
import pytest
import torch

from reference_impl.storage import float32_to_bfloat16_bits, float32_to_float8_bits

ml_dtypes = pytest.importorskip("ml_dtypes")


def _sample() -> torch.Tensor:
    """float32 bit patterns around every binade edge and every halfway point of the narrow formats, plus random ones."""
    gen = torch.Generator().manual_seed(0)
    random_bits = torch.randint(-(2**31), 2**31 - 1, (200_000,), generator=gen, dtype=torch.int64).to(torch.int32)
    exponents = torch.arange(0, 256, dtype=torch.int32) << 23
    # around each exponent: the edges, and patterns whose low 16 / 20 / 21 bits sit at or next to a tie
    offsets = torch.tensor([0, 1, 2, (1 << 15) - 1, 1 << 15, (1 << 15) + 1, (1 << 16) - 1, (1 << 16) + (1 << 15),
                            (1 << 19) - 1, 1 << 19, (1 << 19) + 1, (1 << 20), (1 << 20) + (1 << 19),
                            (1 << 21) - 1, 1 << 21, (1 << 22) + (1 << 20), (1 << 23) - 1], dtype=torch.int32)
    edges = (exponents[:, None] + offsets[None, :]).flatten()
    bits = torch.cat([random_bits, edges, edges | torch.tensor(-(2**31), dtype=torch.int32)])
    return bits.view(torch.float32)


def _ml_cast(x: torch.Tensor, ml_type) -> np.ndarray:
    # numpy reports NaN/inf/overflow in a cast as a RuntimeWarning; here they are the point
    with np.errstate(invalid="ignore", over="ignore"):
        return x.numpy().astype(ml_type)


def _ml_bits(x: torch.Tensor, ml_type, np_int) -> np.ndarray:
    return _ml_cast(x, ml_type).view(np_int)


def _nan_mask(x: torch.Tensor) -> np.ndarray:
    return torch.isnan(x).numpy()


def test_bfloat16_rounding_equals_ml_dtypes_bit_for_bit():
    x = _sample()
    ours = float32_to_bfloat16_bits(x).numpy().view(np.uint16)
    theirs = _ml_bits(x, ml_dtypes.bfloat16, np.uint16)
    keep = ~_nan_mask(x)  # NaN payloads are not specified by either
    assert np.array_equal(ours[keep], theirs[keep]), np.flatnonzero(ours[keep] != theirs[keep])[:10]


@pytest.mark.parametrize(
    ("dtype", "ml_name"), [(torch.float8_e4m3fn, "float8_e4m3fn"), (torch.float8_e5m2, "float8_e5m2")], ids=["e4m3fn", "e5m2"]
)
def test_float8_rounding_equals_ml_dtypes_bit_for_bit(dtype, ml_name):
    x = _sample()
    ours = float32_to_float8_bits(x, dtype, saturate=False).numpy().view(np.uint8)
    theirs = _ml_bits(x, getattr(ml_dtypes, ml_name), np.uint8)
    ours_nan = np.isnan(float32_to_float8_bits(x, dtype, saturate=False).view(dtype).float().numpy())
    theirs_nan = np.isnan(_ml_cast(x, getattr(ml_dtypes, ml_name)).astype(np.float32))
    assert np.array_equal(ours_nan, theirs_nan), "the two disagree on which values become NaN"
    keep = ~ours_nan
    bad = np.flatnonzero(ours[keep] != theirs[keep])
    assert bad.size == 0, [(float(x[keep][i]), int(ours[keep][i]), int(theirs[keep][i])) for i in bad[:5]]


def test_the_oracle_differs_from_torch_only_where_torch_saturates():
    """ml_dtypes does not saturate e4m3fn; torch 2.13 does: the documented difference, nothing more."""
    x = torch.tensor([1.0, 448.0, 464.0, 465.0, 1e6], dtype=torch.float32)
    theirs = _ml_cast(x, ml_dtypes.float8_e4m3fn).astype(np.float32)
    assert theirs[:3].tolist() == [1.0, 448.0, 448.0] and np.isnan(theirs[3:]).all()
