"""Compare a float model with its quantized version: bytes, latency, error, what was replaced.

The one question to ask before anything else: *was anything quantized at all?*
``quantize_dynamic`` returns a bare ``nn.Linear`` or ``nn.RNNCell`` unchanged,
silently float. [`compare_models`][reference_impl.quantization.compare.compare_models]
lists the modules whose type changed (and weights that became quantized tensor
subclasses, as torchao's ``quantize_`` makes) and raises
[NothingQuantizedError][reference_impl.errors.NothingQuantizedError]
if there are none.
"""

from __future__ import annotations

import io
import statistics
import warnings
from dataclasses import dataclass, field
from typing import Any

import torch
from torch import nn

from reference_impl._checks import require_module
from reference_impl.errors import ConfigError, NotATensorError, NothingQuantizedError

__all__ = [
    "QuantizationComparison",
    "compare_models",
    "replaced_modules",
    "require_quantized",
    "state_dict_bytes",
]

# torch 2.13 warns that quantized tensors are deprecated when the packed int8
# weights of torch.ao modules are unpacked for saving; this tool only measures.
_QUANTIZED_DTYPE_WARNING = "torch.quantize_per_tensor, torch.quantize_per_channel"


def _type_name(obj: Any) -> str:
    """``torch.ao.nn.quantized.dynamic.modules.rnn.LSTM`` -> ``torch.ao.nn.quantized.dynamic.LSTM``."""
    t = type(obj)
    parts = t.__module__.split(".")
    if "modules" in parts:  # the public path leaves out ``.modules.<file>``
        parts = parts[: parts.index("modules")]
    return ".".join(parts + [t.__qualname__])


def replaced_modules(float_model: nn.Module, quantized_model: nn.Module) -> dict[str, tuple[str, str]]:
    """Which submodules were quantized: their type changed, or their weight became a tensor subclass.

    Args:
        float_model: The original model.
        quantized_model: The model after quantization (a different object or the same, modified in place).

    Returns:
        ``{name: (float type, quantized type)}``; the name ``""`` is the root module.

    Raises:
        NotAModuleError: An argument is not an ``nn.Module``.

    Examples:
        >>> m = nn.Sequential(nn.Linear(2, 2))
        >>> replaced_modules(m, m)
        {}
    """
    require_module(float_model, "float_model")
    require_module(quantized_model, "quantized_model")
    before = dict(float_model.named_modules())
    found: dict[str, tuple[str, str]] = {}
    for name, module in quantized_model.named_modules():
        old = before.get(name)
        if old is None:
            continue
        if type(old) is not type(module):
            found[name] = (_type_name(old), _type_name(module))
            continue
        weight = module.__dict__.get("_parameters", {}).get("weight")
        if weight is not None and type(weight) not in (torch.Tensor, nn.Parameter):
            found[name] = (_type_name(old), f"{_type_name(module)} with {type(weight).__name__} weight")
    return found


def require_quantized(float_model: nn.Module, quantized_model: nn.Module) -> dict[str, tuple[str, str]]:
    """Raise unless something was quantized; call it before printing any error or accuracy figure.

    A model in which nothing was quantized computes exactly what the float model computes, so its
    "quantization error" prints as 0 and looks like a perfect result.

    Args:
        float_model: The original model.
        quantized_model: The model after quantization.

    Returns:
        What [`replaced_modules`][reference_impl.quantization.compare.replaced_modules] found
        (never empty).

    Raises:
        NothingQuantizedError: No module type changed and no weight became quantized.

    Examples:
        >>> m = nn.Sequential(nn.Linear(4, 4))
        >>> require_quantized(m, m)
        Traceback (most recent call last):
          ...
        reference_impl.errors.NothingQuantizedError: nothing was quantized: ...
    """
    replaced = replaced_modules(float_model, quantized_model)
    if not replaced:
        raise NothingQuantizedError(
            "nothing was quantized: every module of the 'quantized' model has its float type. "
            "quantize_dynamic replaces child modules only: wrap a bare layer, e.g. nn.Sequential(layer), "
            "and check that the module types it lists are in the model"
        )
    return replaced


def state_dict_bytes(model: nn.Module) -> int:
    """Bytes of ``torch.save(model.state_dict())``: what a checkpoint of the model takes on disk.

    Args:
        model: Any module (float, torch.ao quantized, torchao quantized).

    Returns:
        Size in bytes of the serialized state dict (including a little pickle overhead).

    Examples:
        >>> state_dict_bytes(nn.Linear(256, 256)) > 256 * 256 * 4
        True
    """
    buffer = io.BytesIO()
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=_QUANTIZED_DTYPE_WARNING, category=UserWarning)
        torch.save(model.state_dict(), buffer)
    return buffer.getbuffer().nbytes


@dataclass(frozen=True)
class QuantizationComparison:
    """What quantization changed.

    Attributes:
        replaced: ``{module name: (float type, quantized type)}``.
        float_bytes: Serialized state-dict size of the float model.
        quantized_bytes: Same for the quantized model.
        rel_l2: ``||y_q - y|| / ||y||`` on the example input.
        max_abs: ``max |y_q - y|``.
        float_seconds: Median time per call of the float model (None if not measured).
        quantized_seconds: Same for the quantized model.
        speedups: Per-round ratios float time / quantized time (alternating rounds).
    """

    replaced: dict[str, tuple[str, str]]
    float_bytes: int
    quantized_bytes: int
    rel_l2: float
    max_abs: float
    float_seconds: float | None = None
    quantized_seconds: float | None = None
    speedups: tuple[float, ...] = field(default=())

    @property
    def size_ratio(self) -> float:
        """float bytes / quantized bytes (> 1: the quantized checkpoint is smaller)."""
        return self.float_bytes / self.quantized_bytes

    @property
    def speedup(self) -> float | None:
        """Median of the per-round speed-ups (> 1: quantized is faster), or None."""
        return statistics.median(self.speedups) if self.speedups else None

    def format_table(self, latency: bool = True) -> str:
        """A small text report (``latency=False`` leaves out the timings, which vary run to run)."""
        lines = ["replaced modules:"]
        lines += [f"  {name or '(root)'}: {a} -> {b}" for name, (a, b) in self.replaced.items()]
        lines.append(
            f"state_dict bytes: {self.float_bytes:,} -> {self.quantized_bytes:,} ({self.size_ratio:.2f}x smaller)"
        )
        lines.append(f"output error: relative L2 {self.rel_l2:.2e}, max abs {self.max_abs:.2e}")
        if latency and self.speedup is not None:
            lines.append(
                f"latency: {self.float_seconds * 1e6:.1f} us -> {self.quantized_seconds * 1e6:.1f} us, "
                f"speed-up {self.speedup:.2f}x (rounds {min(self.speedups):.2f}-{max(self.speedups):.2f})"
            )
        return "\n".join(lines)


def _outputs(model: nn.Module, inputs: tuple) -> torch.Tensor:
    with torch.inference_mode():
        out = model(*inputs)
    if isinstance(out, tuple):  # LSTM/RNN modules return (output, state)
        out = out[0]
    if not isinstance(out, torch.Tensor):
        raise NotATensorError(f"the model must return a tensor (or a tuple starting with one), got {type(out).__name__}")
    return out.float()


def compare_models(
    float_model: nn.Module,
    quantized_model: nn.Module,
    example_inputs: Any,
    *,
    rounds: int = 0,
    min_run_time: float = 0.05,
    num_threads: int = 1,
) -> QuantizationComparison:
    """Compare a float model and its quantized version on one input.

    Latency (``rounds > 0``) is measured with ``torch.utils.benchmark.Timer``,
    alternating float and quantized round by round so that a slow-down of the
    machine hits both; each round's ratio is kept and the median reported.

    Args:
        float_model: The original model (in eval mode).
        quantized_model: Its quantized version.
        example_inputs: A tensor or a tuple of positional inputs.
        rounds: Alternating timing rounds (0: do not time).
        min_run_time: Seconds per ``blocked_autorange`` call.
        num_threads: Threads used while timing.

    Returns:
        The comparison.

    Raises:
        NothingQuantizedError: No module type changed and no weight became quantized
            (for example ``quantize_dynamic`` was given a bare ``nn.Linear``).
        ConfigError: ``rounds < 0``.

    Examples:
        >>> m = nn.Sequential(nn.Linear(4, 4))
        >>> compare_models(m, m, torch.randn(2, 4))
        Traceback (most recent call last):
          ...
        reference_impl.errors.NothingQuantizedError: nothing was quantized: ...
    """
    if rounds < 0:
        raise ConfigError(f"rounds must be >= 0, got {rounds}")
    replaced = require_quantized(float_model, quantized_model)
    inputs = example_inputs if isinstance(example_inputs, tuple) else (example_inputs,)
    ref = _outputs(float_model, inputs)
    out = _outputs(quantized_model, inputs)
    diff = (out - ref).double()
    rel_l2 = float(diff.norm() / ref.double().norm().clamp_min(1e-30))
    max_abs = float(diff.abs().max()) if diff.numel() else 0.0
    seconds: dict[str, list[float]] = {"float": [], "quantized": []}
    if rounds:
        from torch.utils import benchmark

        timers = {
            name: benchmark.Timer(
                "with torch.inference_mode(): model(*inputs)",
                globals={"torch": torch, "model": model, "inputs": inputs},
                num_threads=num_threads,
            )
            for name, model in (("float", float_model), ("quantized", quantized_model))
        }
        for timer in timers.values():  # warm-up
            timer.timeit(3)
        for _ in range(rounds):
            for name, timer in timers.items():
                seconds[name].append(timer.blocked_autorange(min_run_time=min_run_time).median)
    speedups = tuple(f / q for f, q in zip(seconds["float"], seconds["quantized"]))
    return QuantizationComparison(
        replaced=replaced,
        float_bytes=state_dict_bytes(float_model),
        quantized_bytes=state_dict_bytes(quantized_model),
        rel_l2=rel_l2,
        max_abs=max_abs,
        float_seconds=statistics.median(seconds["float"]) if rounds else None,
        quantized_seconds=statistics.median(seconds["quantized"]) if rounds else None,
        speedups=speedups,
    )
