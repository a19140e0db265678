"""Dynamically quantized Linear and RNNCell in integer arithmetic.

*Dynamic* quantization stores the weights as int8 ahead of time and quantizes
each activation batch on the fly, with a scale and zero point computed from that
batch's own min and max. A quantized Linear is then:

1. activation: float -> uint8 codes (``choose_activation_qparams``, per batch);
2. ``acc = sum_k (x_q - x_zp) * (w_q - w_zp)``: integer products summed in int32;
3. ``y = acc * (x_scale * w_scale) + bias``: back to float (the bias stays float32,
   as in PyTorch's dynamic modules).

These functions do each step in plain tensor arithmetic (CPU or CUDA) and are
checked against ``torch.ao.nn.quantized.dynamic.Linear`` and ``RNNCell``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from reference_impl.errors import ConfigError
from reference_impl._checks import require_tensor
from reference_impl.quantization._checks import require_float_input
from reference_impl.quantization.affine import (
    QParams,
    choose_qparams,
    quant_range,
    quantize_per_channel,
    quantize_per_tensor,
)

__all__ = [
    "QuantizedWeight",
    "choose_activation_qparams",
    "dynamic_linear",
    "dynamic_rnn_cell",
    "int32_accumulate",
    "int8_pairs_saturate",
    "quantize_weight",
    "requantized_linear",
]

#: fbgemm never uses an activation scale below this (values are spread to reach it).
SMALL_SCALE_THRESHOLD = 6.1e-5


@dataclass(frozen=True)
class QuantizedWeight:
    """An int8 weight matrix with its scale(s) and zero point(s).

    Attributes:
        q: int8 codes, shape (out_features, in_features).
        scale: float32, 0-d (per tensor) or (out_features,) (per channel).
        zero_point: int64, same shape as ``scale``.
    """

    q: torch.Tensor
    scale: torch.Tensor
    zero_point: torch.Tensor

    def dequantize(self) -> torch.Tensor:
        """The float32 weight these codes stand for."""
        s = self.scale.reshape(-1, 1) if self.scale.dim() else self.scale
        z = self.zero_point.reshape(-1, 1) if self.zero_point.dim() else self.zero_point
        return (self.q.to(torch.int64) - z.to(self.q.device)).to(torch.float32) * s.to(self.q.device)


def quantize_weight(weight: torch.Tensor, per_channel: bool = False) -> QuantizedWeight:
    """Quantize a float weight to int8, symmetric, as ``quantize_dynamic``'s default weight observer.

    Args:
        weight: float tensor (out_features, in_features).
        per_channel: One scale per output row instead of one for the tensor.

    Returns:
        The codes and parameters (zero points are 0: symmetric).

    Raises:
        NonFiniteInputError: The weight holds NaN or inf.

    Examples:
        >>> w = quantize_weight(torch.tensor([[0.5, -1.0], [0.25, 0.0]]))
        >>> w.q, round(w.scale.item(), 6)
        (tensor([[  64, -127],
                [  32,    0]], dtype=torch.int8), 0.007843)
    """
    require_float_input(weight, "weight")
    if per_channel:
        lo, hi = torch.aminmax(weight.detach().float(), dim=1)
        p = choose_qparams(lo.cpu(), hi.cpu(), torch.int8, symmetric=True)
        q = quantize_per_channel(weight.detach(), p.scale, p.zero_point, 0, torch.int8)
    else:
        lo, hi = torch.aminmax(weight.detach().float())
        p = choose_qparams(lo.item(), hi.item(), torch.int8, symmetric=True)
        q = quantize_per_tensor(weight.detach(), p.scale, p.zero_point, torch.int8)
    return QuantizedWeight(q, p.scale.to(weight.device), p.zero_point.to(weight.device))


def choose_activation_qparams(x: torch.Tensor, reduce_range: bool = True) -> QParams:
    """uint8 scale and zero point for one activation batch, as fbgemm's dynamic kernels pick them.

    The range is the batch's min and max widened to include 0. The zero point is
    taken from whichever end (min or max) gives the smaller rounding error, then
    rounded and clamped. ``reduce_range=True`` (PyTorch's default for the x86 and
    fbgemm engines) uses codes 0..127 only.

    Args:
        x: The float activation batch.
        reduce_range: Use 7 bits (0..127).

    Returns:
        Per-tensor parameters (float32 scale, int64 zero point).

    Raises:
        NonFiniteInputError: ``x`` holds NaN or inf.

    Examples:
        >>> p = choose_activation_qparams(torch.tensor([-1.0, 3.0]), reduce_range=False)
        >>> round(p.scale.item(), 6), p.zero_point.item()
        (0.015686, 64)
    """
    require_float_input(x)
    qmin, qmax = quant_range(torch.uint8, reduce_range)
    lo, hi = torch.aminmax(x.detach().float())
    lo = min(float(lo), 0.0)
    hi = max(float(hi), 0.0)
    scale = float(torch.tensor((hi - lo) / (qmax - qmin), dtype=torch.float32))  # computed in double, kept as float
    if scale == 0.0 or 1.0 / scale == float("inf"):
        scale = 0.1
    if scale < SMALL_SCALE_THRESHOLD:
        # A tiny range would give a tiny scale: fbgemm widens the range instead.
        org = scale
        scale = SMALL_SCALE_THRESHOLD
        if lo == 0.0:
            hi = scale * (qmax - qmin)
        elif hi == 0.0:
            lo = -scale * (qmax - qmin)
        else:
            lo, hi = lo * scale / org, hi * scale / org
    zp_from_min = qmin - lo / scale
    zp_from_max = qmax - hi / scale
    err_min = abs(qmin) - abs(lo / scale)
    err_max = abs(qmax) - abs(hi / scale)
    initial = zp_from_min if err_min < err_max else zp_from_max
    zero_point = int(min(max(round(initial), qmin), qmax))  # round(): half to even, like nearbyint
    return QParams(
        torch.tensor(scale, dtype=torch.float32), torch.tensor(zero_point), torch.uint8, qmin, qmax
    )


def int32_accumulate(
    x_q: torch.Tensor, x_zp: Any, w_q: torch.Tensor, w_zp: Any, saturate_pairs: bool = False
) -> torch.Tensor:
    """``sum_k (x_q[i, k] - x_zp) * (w_q[j, k] - w_zp)`` as int32: the integer matrix product.

    Every product of two 8-bit codes fits in 16 bits and the sums are exact
    integers; the result must fit int32, which is the accumulator width of the
    int8 kernels. (The products are summed in float64, which holds every integer
    below 2**53 exactly, so that the same code runs on CUDA, where integer matmul
    is not available.)

    ``saturate_pairs=True`` models the kernels of x86 CPUs without AVX512-VNNI
    (AVX2-only CPUs, or ``FBGEMM_ENABLE_INSTRUCTIONS=AVX2``): they multiply the
    raw uint8 activation codes by the raw int8 weight codes with ``vpmaddubsw``,
    which adds each pair of neighbouring products (k = 2m, 2m + 1) into a
    *saturating* int16, so a pair sum beyond [-32768, 32767] is clamped before
    the int32 accumulation; the zero points are corrected afterwards. Two
    products of 255 x 127 already overflow int16. Activations quantized with
    ``reduce_range`` (7 bits, codes <= 127) cannot overflow: that is why
    PyTorch's x86 qconfigs use it. VNNI CPUs (``vpdpbusd``) accumulate in int32
    directly and match ``saturate_pairs=False``.
    [`int8_pairs_saturate`][reference_impl.quantization.dynamic.int8_pairs_saturate]
    tells which one the installed PyTorch uses on this machine.

    Args:
        x_q: Activation codes (batch, in_features), uint8.
        x_zp: Activation zero point.
        w_q: Weight codes (out_features, in_features), int8.
        w_zp: Weight zero point(s): a number or one per output row.
        saturate_pairs: Model the int16 saturation of CPUs without VNNI.

    Returns:
        int32 tensor (batch, out_features).

    Raises:
        ConfigError: A sum does not fit int32.

    Examples:
        >>> x = torch.tensor([[130, 2]], dtype=torch.uint8)
        >>> w = torch.tensor([[1, -1], [127, 127]], dtype=torch.int8)
        >>> int32_accumulate(x, 2, w, 0)
        tensor([[  128, 16256]], dtype=torch.int32)
        >>> x = torch.tensor([[255, 255]], dtype=torch.uint8)
        >>> int32_accumulate(x, 0, w, 0), int32_accumulate(x, 0, w, 0, saturate_pairs=True)
        (tensor([[    0, 64770]], dtype=torch.int32), tensor([[    0, 32767]], dtype=torch.int32))
    """
    require_tensor(x_q, "x_q")
    require_tensor(w_q, "w_q")
    zx = torch.as_tensor(x_zp, dtype=torch.float64, device=x_q.device)
    zw = torch.as_tensor(w_zp, dtype=torch.float64, device=w_q.device)
    if zw.dim():
        zw = zw.reshape(-1, 1)
    if saturate_pairs:
        acc = _saturating_pair_sums(x_q, w_q) - zx * w_q.to(torch.float64).sum(1) - zw.reshape(1, -1) * (
            x_q.to(torch.float64).sum(1, keepdim=True) - x_q.shape[1] * zx
        )
    else:
        acc = (x_q.to(torch.float64) - zx) @ (w_q.to(torch.float64) - zw).T
    if acc.numel() and (acc.abs().max() > 2**31 - 1):
        raise ConfigError("the integer sum overflows int32; split the reduction dimension")
    return acc.to(torch.int32)


def _saturating_pair_sums(x_q: torch.Tensor, w_q: torch.Tensor) -> torch.Tensor:
    """``sum_m clamp(x[2m] w[2m] + x[2m+1] w[2m+1], int16)`` over raw codes, as float64 (batch, out)."""
    x = x_q.to(torch.float64)
    w = w_q.to(torch.float64)
    if x.shape[1] % 2:  # the kernels pad the reduction dimension with zeros
        x = torch.nn.functional.pad(x, (0, 1))
        w = torch.nn.functional.pad(w, (0, 1))
    pairs = x[:, None, 0::2] * w[None, :, 0::2] + x[:, None, 1::2] * w[None, :, 1::2]  # (batch, out, K/2)
    return pairs.clamp(-32768, 32767).sum(-1)


def int8_pairs_saturate(engine: str | None = None) -> bool:
    """Whether this machine's quantized int8 Linear saturates pair sums in int16 (no VNNI).

    Asks PyTorch itself: one quantized Linear whose two products are 255 x 127
    each (64,770, beyond int16) either returns the exact sum or the clamped one.
    True on x86 CPUs without AVX512-VNNI / AVX-VNNI (and when
    ``FBGEMM_ENABLE_INSTRUCTIONS=AVX2`` limits FBGEMM to AVX2); False with VNNI.
    Pass the answer to ``saturate_pairs`` to agree with PyTorch code for code.

    Args:
        engine: ``torch.backends.quantized.engine`` to ask (default: the current one).

    Returns:
        True if the pair sums saturate.

    Examples:
        >>> isinstance(int8_pairs_saturate(), bool)
        True
    """
    import warnings

    previous = torch.backends.quantized.engine
    try:
        if engine is not None:
            torch.backends.quantized.engine = engine
        with warnings.catch_warnings():  # quantized tensor creation is deprecated in torch 2.13
            warnings.filterwarnings("ignore", message="torch.quantize_per_tensor", category=UserWarning)
            linear = torch.ao.nn.quantized.Linear(2, 1, dtype=torch.qint8)
            weight = torch.quantize_per_tensor(torch.tensor([[127.0, 127.0]]), 1.0, 0, torch.qint8)
            linear.set_weight_bias(weight, None)
            linear.scale, linear.zero_point = 1024.0, 0  # 64770 / 1024 = 63.3; 32767 / 1024 = 32.0
            x = torch.quantize_per_tensor(torch.tensor([[255.0, 255.0]]), 1.0, 0, torch.quint8)
            code = int(linear(x).int_repr().item())
    finally:
        torch.backends.quantized.engine = previous
    return code < 48


def dynamic_linear(
    x: torch.Tensor,
    weight: QuantizedWeight,
    bias: torch.Tensor | None = None,
    reduce_range: bool = True,
) -> torch.Tensor:
    """A dynamically quantized Linear: quantize ``x`` per batch, int8 x uint8 -> int32, rescale, add float bias.

    Args:
        x: float32 input (batch, in_features); more leading dimensions are flattened.
        weight: From [`quantize_weight`][reference_impl.quantization.dynamic.quantize_weight].
        bias: float32 (out_features,) or None.
        reduce_range: 7-bit activations (PyTorch's default on x86/fbgemm).

    Returns:
        float32 output (..., out_features).

    Raises:
        NonFiniteInputError: ``x`` holds NaN or inf.
        ConfigError: Shapes do not match.

    Examples:
        >>> torch.manual_seed(0)
        <torch._C.Generator object at ...>
        >>> w = torch.randn(3, 4)
        >>> x = torch.randn(2, 4)
        >>> y = dynamic_linear(x, quantize_weight(w))
        >>> bool(torch.allclose(y, x @ w.T, atol=0.05))
        True
    """
    require_float_input(x)
    if x.shape[-1] != weight.q.shape[1]:
        raise ConfigError(f"x has {x.shape[-1]} features, the weight expects {weight.q.shape[1]}")
    flat = x.reshape(-1, x.shape[-1])
    act = choose_activation_qparams(flat, reduce_range)
    x_q = quantize_per_tensor(flat, act.scale, act.zero_point, torch.uint8)
    acc = int32_accumulate(x_q, act.zero_point, weight.q, weight.zero_point)
    scale = act.scale.to(x.device) * weight.scale.to(x.device)  # float32, per column if per channel
    y = acc.to(torch.float32) * scale
    if bias is not None:
        y = y + bias.float()
    return y.reshape(*x.shape[:-1], weight.q.shape[0])


def dynamic_rnn_cell(
    x: torch.Tensor,
    h: torch.Tensor,
    weight_ih: QuantizedWeight,
    weight_hh: QuantizedWeight,
    bias_ih: torch.Tensor | None = None,
    bias_hh: torch.Tensor | None = None,
    nonlinearity: str = "tanh",
    reduce_range: bool = True,
) -> torch.Tensor:
    """One step of a dynamically quantized Elman RNN cell.

    ``h' = tanh(dynamic_linear(x, W_ih) + b_ih + dynamic_linear(h, W_hh) + b_hh)``.
    ``x`` and ``h`` are quantized separately, each with its own per-batch scale.

    Args:
        x: float32 input (batch, input_size).
        h: float32 hidden state (batch, hidden_size).
        weight_ih: int8 input-to-hidden weight.
        weight_hh: int8 hidden-to-hidden weight.
        bias_ih: float32 bias or None.
        bias_hh: float32 bias or None.
        nonlinearity: ``"tanh"`` or ``"relu"``.
        reduce_range: 7-bit activations.

    Returns:
        The new hidden state (batch, hidden_size).

    Raises:
        ConfigError: Unknown nonlinearity, or shapes do not match.
        NonFiniteInputError: ``x`` or ``h`` holds NaN or inf.

    Examples:
        >>> torch.manual_seed(0)
        <torch._C.Generator object at ...>
        >>> cell = torch.nn.RNNCell(4, 3)
        >>> x, h = torch.randn(2, 4), torch.zeros(2, 3)
        >>> h1 = dynamic_rnn_cell(x, h, quantize_weight(cell.weight_ih), quantize_weight(cell.weight_hh),
        ...                       cell.bias_ih, cell.bias_hh)
        >>> bool((h1 - cell(x, h)).abs().max() < 0.02)
        True
    """
    if nonlinearity not in ("tanh", "relu"):
        raise ConfigError(f"nonlinearity must be 'tanh' or 'relu', got {nonlinearity!r}")
    if x.dim() != 2:
        raise ConfigError(f"x must be 2-D (batch, input_size), got shape {tuple(x.shape)}; use x.unsqueeze(0)")
    pre = dynamic_linear(x, weight_ih, bias_ih, reduce_range) + dynamic_linear(h, weight_hh, bias_hh, reduce_range)
    return torch.tanh(pre) if nonlinearity == "tanh" else torch.relu(pre)


def requantized_linear(
    x_q: torch.Tensor,
    x_qparams: QParams,
    weight: QuantizedWeight,
    bias: torch.Tensor | None,
    out_qparams: QParams,
    saturate_pairs: bool = False,
) -> tuple[torch.Tensor, torch.Tensor]:
    """A statically quantized Linear: uint8 in, uint8 out, int32 bias, requantized output.

    1. ``acc = sum (x_q - x_zp)(w_q - w_zp)`` in int32;
    2. the float bias becomes int32 codes with scale ``x_scale * w_scale``:
       ``bias_q = round(bias / (x_scale * w_scale))``, added to ``acc``;
    3. requantize: ``y_q = clamp(round(acc * x_scale * w_scale / y_scale) + y_zp, 0, 255)``.
       The factor ``x_scale * w_scale / y_scale`` (the *multiplier*) is < 1 in
       practice; integer-only hardware stores it as a fixed-point number.

    Args:
        x_q: uint8 input codes (batch, in_features).
        x_qparams: Input scale and zero point.
        weight: int8 weight.
        bias: float32 bias or None.
        out_qparams: Output scale and zero point (from calibration).
        saturate_pairs: Model the int16 pair saturation of x86 CPUs without VNNI (see
            [`int32_accumulate`][reference_impl.quantization.dynamic.int32_accumulate]).

    Returns:
        ``(y_q, acc)``: uint8 output codes and the int32 accumulator including the bias.

    Examples:
        >>> xp = choose_qparams(0.0, 2.55, torch.uint8)
        >>> x_q = torch.tensor([[100, 200]], dtype=torch.uint8)
        >>> w = QuantizedWeight(torch.tensor([[64, -32]], dtype=torch.int8), torch.tensor(0.01), torch.tensor(0))
        >>> yp = choose_qparams(-1.0, 1.0, torch.uint8)
        >>> y_q, acc = requantized_linear(x_q, xp, w, torch.tensor([0.05]), yp)
        >>> acc.tolist(), y_q.tolist()
        ([[500]], [[133]])
    """
    acc = int32_accumulate(x_q, x_qparams.zero_point, weight.q, weight.zero_point, saturate_pairs)
    acc_scale = x_qparams.scale.to(x_q.device, torch.float64) * weight.scale.to(x_q.device, torch.float64)
    if bias is not None:
        bias_q = torch.round(bias.to(torch.float64) / acc_scale).to(torch.int32)
        acc = acc + bias_q
    multiplier = acc_scale / out_qparams.scale.to(x_q.device, torch.float64)
    y = torch.round(acc.to(torch.float64) * multiplier) + out_qparams.zero_point.to(x_q.device)
    return y.clamp(out_qparams.qmin, out_qparams.qmax).to(out_qparams.dtype), acc
