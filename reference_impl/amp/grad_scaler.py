"""Dynamic loss scaling, written out as a small state machine.

float16 cannot hold gradients smaller than about 6e-8: they round to zero
("underflow"). A gradient scaler multiplies the loss by a large *scale* before
``backward()``, so every gradient is that many times larger and stays
representable, then divides the gradients by the same scale before the
optimizer uses them. Because nobody knows the right scale in advance, it is
adjusted as training runs ("dynamic" loss scaling):

* if any gradient came out ``inf`` or NaN, the scale was too large: the
  optimizer step is **skipped** and the scale is multiplied by
  ``backoff_factor`` (0.5);
* after ``growth_interval`` (2000) steps in a row without inf/NaN, the scale is
  multiplied by ``growth_factor`` (2.0), to use as much of float16's range as
  possible.

[`update_scale`][reference_impl.amp.grad_scaler.update_scale] is that rule as a
pure function, and [`ReferenceGradScaler`][reference_impl.amp.grad_scaler.ReferenceGradScaler]
is a readable re-implementation of ``torch.amp.GradScaler`` built on it. The
tests run both side by side, with inf and NaN gradients injected, and check
that they produce the same scales, skip the same steps and leave the same
weights.

Differences from ``torch.amp.GradScaler``, all on purpose: the scale is a
Python float (PyTorch keeps it in a tensor on the GPU to avoid synchronising);
``step()`` returns whether the optimizer stepped; wrong use raises typed errors
(``device="cuda"`` without CUDA raises instead of warning and disabling itself).
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from typing import Any

import torch

from reference_impl._checks import require_cuda
from reference_impl.errors import (
    AutocastUnavailableError,
    ConfigError,
    DtypeError,
    NotATensorError,
    ScalerStateError,
    UnknownDeviceTypeError,
)

__all__ = ["ReferenceGradScaler", "to_float32", "update_scale"]

_READY, _UNSCALED, _STEPPED = "ready", "unscaled", "stepped"


def to_float32(value: float) -> float:
    """Round a Python float to the nearest float32 value (overflow gives ``inf``).

    The scale lives in a float32 tensor in PyTorch, so every product is rounded
    to float32; this function does the same rounding in plain Python.

    Args:
        value: Any Python float.

    Returns:
        The float32 value nearest to ``value``, as a Python float.

    Examples:
        >>> to_float32(0.1)
        0.10000000149011612
        >>> to_float32(1e39)
        inf
    """
    return torch.tensor(value, dtype=torch.float64).to(torch.float32).item()


def update_scale(
    scale: float,
    growth_tracker: int,
    found_inf: bool,
    *,
    growth_factor: float = 2.0,
    backoff_factor: float = 0.5,
    growth_interval: int = 2000,
) -> tuple[float, int]:
    """One step of the dynamic loss-scaling rule (what ``GradScaler.update()`` does).

    Args:
        scale: The current scale.
        growth_tracker: How many steps in a row had finite gradients so far.
        found_inf: Whether any gradient of this step was inf or NaN.
        growth_factor: Multiplier applied after ``growth_interval`` clean steps (> 1).
        backoff_factor: Multiplier applied after a step with inf/NaN (between 0 and 1).
        growth_interval: Number of consecutive clean steps before the scale grows.

    Returns:
        ``(new_scale, new_growth_tracker)``. The scale is rounded to float32, as
        PyTorch stores it; a growth that would overflow float32 is not applied.

    Examples:
        >>> update_scale(65536.0, 0, True)        # overflow: back off, restart the count
        (32768.0, 0)
        >>> update_scale(65536.0, 5, False)       # clean step: count it
        (65536.0, 6)
        >>> update_scale(65536.0, 1999, False)    # 2000th clean step in a row: grow
        (131072.0, 0)
    """
    if found_inf:
        return to_float32(scale * backoff_factor), 0
    successful = growth_tracker + 1
    if successful == growth_interval:
        grown = to_float32(scale * growth_factor)
        return (grown if math.isfinite(grown) else scale), 0
    return scale, successful


def _check_device(device: str) -> str:
    if device not in ("cpu", "cuda"):
        raise UnknownDeviceTypeError(f"device must be 'cpu' or 'cuda', got {device!r}")
    require_cuda(
        device,
        "device='cuda'",
        "torch.amp.GradScaler('cuda') would warn and disable itself, so nothing would be scaled; use device='cpu' "
        "(with bfloat16 autocast you need no scaler at all) or run on a CUDA machine",
        AutocastUnavailableError,
    )
    return device


class ReferenceGradScaler:
    """A readable ``torch.amp.GradScaler``: scale the loss, unscale and check gradients, skip, adapt.

    Use it exactly like PyTorch's scaler, with **one** instance for the whole run (a complete
    example: a tiny model and three batches, float16 autocast on the CPU):

    ```python
    import torch
    from torch import nn

    from reference_impl.amp import ReferenceGradScaler

    torch.manual_seed(0)
    model = nn.Linear(4, 1)
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    loss_fn = nn.MSELoss()
    batches = [(torch.randn(8, 4), torch.randn(8, 1)) for _ in range(3)]

    scaler = ReferenceGradScaler("cpu")
    for x, y in batches:
        optimizer.zero_grad()
        with torch.autocast("cpu", dtype=torch.float16):
            loss = loss_fn(model(x), y)
        scaler.scale(loss).backward()
        scaler.unscale_(optimizer)          # optional: only to clip or inspect gradients
        torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        scaler.step(optimizer)              # skipped if a gradient is inf/NaN
        scaler.update()
    ```

    ``state_dict()`` has the same keys as PyTorch's, so states move between the two.

    Args:
        device: ``"cpu"`` or ``"cuda"`` (where the gradients live).
        init_scale: The first scale (default 2**16).
        growth_factor: Multiplier after ``growth_interval`` clean steps (> 1).
        backoff_factor: Multiplier after a step with inf/NaN gradients (between 0 and 1).
        growth_interval: Clean steps in a row before the scale grows (>= 1).

    Raises:
        UnknownDeviceTypeError: ``device`` is neither ``"cpu"`` nor ``"cuda"``.
        AutocastUnavailableError: ``device="cuda"`` on a machine without CUDA.
        ConfigError: A factor, interval or initial scale out of range.

    Examples:
        >>> scaler = ReferenceGradScaler("cpu", init_scale=1024.0, growth_interval=2)
        >>> w = torch.nn.Parameter(torch.tensor([1.0]))
        >>> opt = torch.optim.SGD([w], lr=0.1)
        >>> scaler.scale((3 * w).sum()).backward()
        >>> w.grad                                   # scaled gradient
        tensor([3072.])
        >>> scaler.step(opt), w.grad                 # unscaled, finite: the step happens
        (True, tensor([3.]))
        >>> scaler.update(); scaler.get_scale(), scaler.growth_tracker
        (1024.0, 1)
    """

    def __init__(
        self,
        device: str = "cpu",
        init_scale: float = 2.0**16,
        growth_factor: float = 2.0,
        backoff_factor: float = 0.5,
        growth_interval: int = 2000,
    ) -> None:
        self.device = _check_device(device)
        if not (math.isfinite(init_scale) and init_scale > 0):
            raise ConfigError(f"init_scale must be a finite number > 0, got {init_scale!r}")
        if not growth_factor > 1.0:
            raise ConfigError(f"growth_factor must be > 1.0, got {growth_factor!r}")
        if not 0.0 < backoff_factor < 1.0:
            raise ConfigError(f"backoff_factor must be between 0 and 1 (exclusive), got {backoff_factor!r}")
        if not (isinstance(growth_interval, int) and growth_interval >= 1):
            raise ConfigError(f"growth_interval must be an int >= 1, got {growth_interval!r}")
        self._scale = to_float32(float(init_scale))
        self._growth_tracker = 0
        self._growth_factor = float(growth_factor)
        self._backoff_factor = float(backoff_factor)
        self._growth_interval = growth_interval
        # Per optimizer (by id), for the current iteration only: its stage and whether it saw inf/NaN.
        self._stage: dict[int, str] = {}
        self._found_inf: dict[int, bool] = {}

    # -- the loop -------------------------------------------------------------------------------

    def scale(self, outputs: torch.Tensor | Iterable[torch.Tensor]) -> Any:
        """Multiply a loss (or a list/tuple of losses) by the current scale.

        Args:
            outputs: A tensor, or a list or tuple of tensors.

        Returns:
            The scaled tensor(s), same structure. Call ``.backward()`` on the result.

        Raises:
            NotATensorError: ``outputs`` is not a tensor or a list/tuple of tensors.

        Examples:
            >>> ReferenceGradScaler("cpu", init_scale=8.0).scale(torch.tensor(0.5))
            tensor(4.)
        """
        if isinstance(outputs, torch.Tensor):
            return outputs * torch.tensor(self._scale, dtype=torch.float32, device=outputs.device)
        if isinstance(outputs, (list, tuple)):
            return type(outputs)(self.scale(o) for o in outputs)
        raise NotATensorError(
            f"scale() takes a tensor or a list/tuple of tensors, got {type(outputs).__name__}"
        )

    def unscale_(self, optimizer: torch.optim.Optimizer) -> None:
        """Divide the optimizer's gradients by the scale, in place, and note any inf/NaN.

        Call it before anything that reads gradient values (clipping, logging);
        ``step()`` calls it otherwise. At most once per optimizer per iteration.

        Args:
            optimizer: The optimizer whose parameters' ``.grad`` are unscaled.

        Returns:
            None.

        Raises:
            ScalerStateError: Called twice for this optimizer in one iteration, or after ``step()``.
            DtypeError: A gradient is float16 (the weights were converted with ``.half()``).

        Examples:
            >>> w = torch.nn.Parameter(torch.ones(2))
            >>> opt = torch.optim.SGD([w], lr=1.0)
            >>> scaler = ReferenceGradScaler("cpu", init_scale=4.0)
            >>> scaler.scale(w.sum()).backward()
            >>> scaler.unscale_(opt); w.grad
            tensor([1., 1.])
        """
        key = id(optimizer)
        stage = self._stage.get(key, _READY)
        if stage == _UNSCALED:
            raise ScalerStateError(
                "unscale_() was already called for this optimizer in this iteration; "
                "call it once, after all backward() calls and before step()"
            )
        if stage == _STEPPED:
            raise ScalerStateError("unscale_() after step(): unscale before stepping (step() unscales by itself)")
        # PyTorch computes 1/scale in float64 and rounds it to float32.
        inv_scale = torch.tensor(to_float32(1.0 / self._scale), dtype=torch.float32)
        found_inf = False
        with torch.no_grad():
            for group in optimizer.param_groups:
                for param in group["params"]:
                    grad = param.grad
                    if grad is None:
                        continue
                    if grad.dtype == torch.float16:
                        raise DtypeError(
                            "a gradient is float16: the weights were converted with .half(). Keep the "
                            "weights in float32 and let torch.autocast cast per operation; a scaler "
                            "cannot unscale float16 gradients (torch.amp.GradScaler raises too)"
                        )
                    if grad.is_sparse:
                        grad = grad.coalesce()
                        param.grad = grad
                        grad = grad._values()
                    if not bool(torch.isfinite(grad).all()):
                        found_inf = True
                    grad.mul_(inv_scale.to(grad.device))
        self._found_inf[key] = found_inf
        self._stage[key] = _UNSCALED

    def step(self, optimizer: torch.optim.Optimizer) -> bool:
        """Unscale (if not done yet) and call ``optimizer.step()`` unless a gradient is inf/NaN.

        Args:
            optimizer: The optimizer to step.

        Returns:
            True if the optimizer stepped, False if the step was skipped.

        Raises:
            ScalerStateError: ``step()`` was already called for this optimizer in this iteration.

        Examples:
            >>> w = torch.nn.Parameter(torch.ones(1))
            >>> opt = torch.optim.SGD([w], lr=1.0)
            >>> scaler = ReferenceGradScaler("cpu")
            >>> scaler.scale(w.sum() * float("inf")).backward()
            >>> scaler.step(opt), w                  # inf gradient: skipped, weight unchanged
            (False, Parameter containing:
            tensor([1.], requires_grad=True))
        """
        key = id(optimizer)
        stage = self._stage.get(key, _READY)
        if stage == _STEPPED:
            raise ScalerStateError("step() was already called for this optimizer; call update() to end the iteration")
        if stage == _READY:
            self.unscale_(optimizer)
        stepped = not self._found_inf[key]
        if stepped:
            optimizer.step()
        self._stage[key] = _STEPPED
        return stepped

    def update(self, new_scale: float | None = None) -> None:
        """End the iteration: back off if any optimizer saw inf/NaN, else count a clean step (and maybe grow).

        Args:
            new_scale: If given, set the scale to this value instead of applying the rule.

        Returns:
            None.

        Raises:
            ScalerStateError: No ``step()`` (or ``unscale_()``) happened since the last ``update()``.
            ConfigError: ``new_scale`` is not a finite number > 0.

        Examples:
            >>> scaler = ReferenceGradScaler("cpu", init_scale=8.0)
            >>> scaler.update(new_scale=2.0); scaler.get_scale()
            2.0
        """
        if new_scale is not None:
            if not (math.isfinite(new_scale) and new_scale > 0):
                raise ConfigError(f"new_scale must be a finite number > 0, got {new_scale!r}")
            self._scale = to_float32(float(new_scale))
        else:
            if not self._found_inf:
                raise ScalerStateError(
                    "update() with no step() since the last update(): the loop is "
                    "scale(loss).backward(); step(optimizer); update()"
                )
            self._scale, self._growth_tracker = update_scale(
                self._scale,
                self._growth_tracker,
                any(self._found_inf.values()),
                growth_factor=self._growth_factor,
                backoff_factor=self._backoff_factor,
                growth_interval=self._growth_interval,
            )
        self._stage.clear()
        self._found_inf.clear()

    # -- state ----------------------------------------------------------------------------------

    def get_scale(self) -> float:
        """The current scale.

        Returns:
            The scale as a Python float.

        Examples:
            >>> ReferenceGradScaler("cpu").get_scale()
            65536.0
        """
        return self._scale

    @property
    def growth_tracker(self) -> int:
        """Clean steps in a row since the last growth or backoff."""
        return self._growth_tracker

    def state_dict(self) -> dict[str, Any]:
        """The scaler's state, with the same keys as ``torch.amp.GradScaler.state_dict()``.

        Returns:
            A dict with ``scale``, ``growth_factor``, ``backoff_factor``,
            ``growth_interval`` and ``_growth_tracker``.

        Examples:
            >>> ReferenceGradScaler("cpu", init_scale=1024.0).state_dict()
            {'scale': 1024.0, 'growth_factor': 2.0, 'backoff_factor': 0.5, 'growth_interval': 2000, '_growth_tracker': 0}
        """
        return {
            "scale": self._scale,
            "growth_factor": self._growth_factor,
            "backoff_factor": self._backoff_factor,
            "growth_interval": self._growth_interval,
            "_growth_tracker": self._growth_tracker,
        }

    def load_state_dict(self, state_dict: dict[str, Any]) -> None:
        """Restore a state saved by ``state_dict()`` (this class's or PyTorch's).

        Args:
            state_dict: The saved state.

        Returns:
            None.

        Raises:
            ConfigError: The dict is empty (saved from a disabled PyTorch scaler) or lacks a key.

        Examples:
            >>> scaler = ReferenceGradScaler("cpu")
            >>> scaler.load_state_dict(torch.amp.GradScaler("cpu", init_scale=8.0).state_dict())
            >>> scaler.get_scale()
            8.0
        """
        if not state_dict:
            raise ConfigError(
                "the scaler state is empty: it was saved from a disabled GradScaler (one created for "
                "'cuda' on a machine without CUDA saves {}); there is nothing to restore"
            )
        missing = {"scale", "growth_factor", "backoff_factor", "growth_interval", "_growth_tracker"} - set(state_dict)
        if missing:
            raise ConfigError(f"the scaler state lacks {sorted(missing)}; pass what state_dict() returned")
        self._scale = to_float32(float(state_dict["scale"]))
        self._growth_factor = float(state_dict["growth_factor"])
        self._backoff_factor = float(state_dict["backoff_factor"])
        self._growth_interval = int(state_dict["growth_interval"])
        self._growth_tracker = int(state_dict["_growth_tracker"])
