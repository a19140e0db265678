"""Quantization in plain integer arithmetic, checked against PyTorch's quantized modules.

Modules:
    affine: scale/zero point, quantize and dequantize per tensor and per channel.
    observers: min/max, moving-average and per-channel observers as small functions.
    dynamic: dynamically quantized Linear and RNNCell (int8 weights, per-batch
        activation quantization, int32 accumulation) and a requantized static Linear.
    compare: a float model against its quantized version (bytes, latency, error,
        which modules were actually replaced).

The reference arithmetic uses no quantized dtypes (``torch.qint8``...): codes are ordinary
``torch.int8``/``torch.uint8``/``torch.int32`` tensors, so it runs on CPU and CUDA without the
deprecated quantized-tensor API. Only ``compare`` looks at models that torch.ao or torchao
quantized (to measure them and to tell which modules were really replaced).
"""

from reference_impl.errors import NonFiniteInputError, NothingQuantizedError
from reference_impl.quantization.affine import (
    QParams,
    choose_qparams,
    dequantize_per_channel,
    dequantize_per_tensor,
    quant_range,
    quantize_per_channel,
    quantize_per_tensor,
)
from reference_impl.quantization.compare import (
    QuantizationComparison,
    compare_models,
    replaced_modules,
    require_quantized,
    state_dict_bytes,
)
from reference_impl.quantization.dynamic import (
    QuantizedWeight,
    choose_activation_qparams,
    dynamic_linear,
    dynamic_rnn_cell,
    int32_accumulate,
    int8_pairs_saturate,
    quantize_weight,
    requantized_linear,
)
from reference_impl.quantization.observers import Range, minmax, moving_average_minmax, per_channel_minmax

__all__ = [
    "NonFiniteInputError",
    "NothingQuantizedError",
    "QParams",
    "QuantizationComparison",
    "QuantizedWeight",
    "Range",
    "choose_activation_qparams",
    "choose_qparams",
    "compare_models",
    "dequantize_per_channel",
    "dequantize_per_tensor",
    "dynamic_linear",
    "dynamic_rnn_cell",
    "int32_accumulate",
    "int8_pairs_saturate",
    "minmax",
    "moving_average_minmax",
    "per_channel_minmax",
    "quant_range",
    "quantize_per_channel",
    "quantize_per_tensor",
    "quantize_weight",
    "replaced_modules",
    "require_quantized",
    "requantized_linear",
    "state_dict_bytes",
]
