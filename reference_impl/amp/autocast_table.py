"""Which dtype each operation produces under ``torch.autocast``, probed on the installed torch.

PyTorch keeps per-device lists of the operations autocast runs in the lower precision, in
float32, or leaves alone, and the lists change between releases and devices. Instead of copying
them by hand, [`probe_autocast`][reference_impl.amp.autocast_table.probe_autocast] runs each operation of
``OPS`` inside an autocast region and records the dtype
of its output, and [`format_autocast_table`][reference_impl.amp.autocast_table.format_autocast_table] prints the
result. The site shows the table generated this way; its test fails when a new torch changes it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import torch
import torch.nn.functional as F

__all__ = ["OPS", "format_autocast_table", "probe_autocast"]


def _inputs(device: str, dtype: torch.dtype) -> dict[str, torch.Tensor]:
    g = torch.Generator().manual_seed(0)

    def rand(*shape):
        return torch.randn(*shape, generator=g).to(device=device, dtype=dtype)

    return {
        "a": rand(4, 8),
        "b": rand(8, 8),
        "batch": rand(2, 4, 8),
        "image": rand(2, 3, 8, 8),
        "kernel": rand(4, 3, 3, 3),
        "signal": rand(2, 3, 16),
        "kernel1d": rand(4, 3, 3),
        "q": rand(2, 2, 4, 8),
        "probs": torch.rand(4, 8, generator=g).to(device=device, dtype=dtype),
        "labels": torch.randint(0, 8, (4,), generator=g).to(device),
    }


#: The probed operations: a readable name and a function of the inputs.
OPS: dict[str, Callable[[dict[str, torch.Tensor]], torch.Tensor]] = {
    "a @ b": lambda t: t["a"] @ t["b"],
    "torch.mm": lambda t: torch.mm(t["a"], t["b"]),
    "torch.bmm": lambda t: torch.bmm(t["batch"], t["b"].expand(2, 8, 8)),
    "torch.addmm": lambda t: torch.addmm(t["b"][:4], t["a"], t["b"]),
    "torch.baddbmm": lambda t: torch.baddbmm(t["batch"], t["batch"], t["b"].expand(2, 8, 8)),
    "F.linear": lambda t: F.linear(t["a"], t["b"]),
    "F.conv1d": lambda t: F.conv1d(t["signal"], t["kernel1d"]),
    "F.conv2d": lambda t: F.conv2d(t["image"], t["kernel"]),
    "F.scaled_dot_product_attention": lambda t: F.scaled_dot_product_attention(t["q"], t["q"], t["q"]),
    "F.relu": lambda t: F.relu(t["a"]),
    "F.gelu": lambda t: F.gelu(t["a"]),
    "torch.sigmoid": lambda t: torch.sigmoid(t["a"]),
    "torch.tanh": lambda t: torch.tanh(t["a"]),
    "torch.exp": lambda t: torch.exp(t["a"]),
    "torch.log": lambda t: torch.log(t["probs"]),
    "torch.pow": lambda t: torch.pow(t["a"], 2),
    "torch.rsqrt": lambda t: torch.rsqrt(t["probs"]),
    "a + b": lambda t: t["a"] + t["b"][:4],
    "torch.softmax": lambda t: torch.softmax(t["a"], -1),
    "torch.log_softmax": lambda t: torch.log_softmax(t["a"], -1),
    "F.layer_norm": lambda t: F.layer_norm(t["a"], (8,)),
    "F.group_norm": lambda t: F.group_norm(t["image"], 3),
    "F.batch_norm": lambda t: F.batch_norm(t["image"], None, None, training=True),
    "torch.sum": lambda t: torch.sum(t["a"]),
    "torch.mean": lambda t: torch.mean(t["a"]),
    "torch.prod": lambda t: torch.prod(t["probs"]),
    "torch.cumsum": lambda t: torch.cumsum(t["a"], 0),
    "torch.linalg.vector_norm": lambda t: torch.linalg.vector_norm(t["a"]),
    "torch.cdist": lambda t: torch.cdist(t["a"], t["a"]),
    "F.mse_loss": lambda t: F.mse_loss(t["a"], t["b"][:4]),
    "F.l1_loss": lambda t: F.l1_loss(t["a"], t["b"][:4]),
    "F.cross_entropy": lambda t: F.cross_entropy(t["a"], t["labels"]),
    "F.nll_loss": lambda t: F.nll_loss(t["a"], t["labels"]),
    "F.binary_cross_entropy": lambda t: F.binary_cross_entropy(t["probs"], t["probs"]),
    "F.binary_cross_entropy_with_logits": lambda t: F.binary_cross_entropy_with_logits(t["a"], t["probs"]),
}


def probe_autocast(
    device_type: str, autocast_dtype: torch.dtype, input_dtype: torch.dtype = torch.float32
) -> dict[str, str]:
    """Run every operation of ``OPS`` under autocast and record its output dtype.

    Args:
        device_type: ``"cpu"`` or ``"cuda"``.
        autocast_dtype: The dtype given to ``torch.autocast``.
        input_dtype: The dtype of the floating-point inputs (float32, or a 16-bit dtype).

    Returns:
        ``{op name: output dtype name}``; an operation that raises records
        ``"error: <exception type>"`` instead.

    Examples:
        >>> probe_autocast("cpu", torch.bfloat16)["a @ b"]
        'bfloat16'
        >>> probe_autocast("cpu", torch.bfloat16)["F.mse_loss"]
        'float32'
    """
    inputs = _inputs(device_type, input_dtype)
    result = {}
    for name, op in OPS.items():
        try:
            with torch.no_grad(), torch.autocast(device_type, dtype=autocast_dtype):
                out = op(inputs)
            result[name] = str(out.dtype).removeprefix("torch.")
        except (RuntimeError, NotImplementedError) as err:
            result[name] = f"error: {type(err).__name__}"
    return result


def format_autocast_table(device_type: str, columns: Sequence[tuple[torch.dtype, torch.dtype]]) -> str:
    """A plain-text table: one row per operation, one column per (autocast dtype, input dtype).

    Args:
        device_type: ``"cpu"`` or ``"cuda"``.
        columns: Pairs ``(autocast dtype, input dtype)``.

    Returns:
        The table, headed by the torch version and the device it was generated on.

    Examples:
        >>> format_autocast_table("cpu", [(torch.bfloat16, torch.float32)]).splitlines()[4].split()
        ['a', '@', 'b', 'bfloat16']
    """
    probed = [probe_autocast(device_type, ac, inp) for ac, inp in columns]
    short = [(str(ac).removeprefix("torch."), str(inp).removeprefix("torch.")) for ac, inp in columns]
    width = max(len(name) for name in OPS) + 2
    cell = max(12, *(len(c) for col in probed for c in col.values())) + 2
    lines = [f"generated with torch {torch.__version__} on {device_type}", ""]
    lines.append("autocast dtype".ljust(width) + "".join(ac.rjust(cell) for ac, _ in short))
    lines.append("op / input dtype".ljust(width) + "".join(inp.rjust(cell) for _, inp in short))
    for name in OPS:
        lines.append(name.ljust(width) + "".join(col[name].rjust(cell) for col in probed))
    return "\n".join(lines)
