"""Which dtype each operation produces under ``torch.autocast``, probed on the installed torch.

PyTorch keeps per-device lists of the operations autocast runs in the lower precision, in
float32, or leaves alone, and the lists change between releases and devices. Instead of copying
them by hand, [`probe_autocast`][reference_impl.amp.autocast_table.probe_autocast] runs each operation of
``OPS`` inside an autocast region and records the dtype
of its output, and [`format_autocast_table`][reference_impl.amp.autocast_table.format_autocast_table] prints the
result. The site shows the table generated this way; its test fails when a new torch changes it.

With ``fake=True`` the operations run on fake tensors
(``torch._subclasses.fake_tensor.FakeTensorMode``, the machinery ``torch.compile`` traces with):
no kernel runs and no device is needed, yet autocast's own per-device rules still decide every
cast, and each operation's shape-and-dtype function gives the output dtype. That is how the CUDA
table is generated from the installed torch on a machine without a GPU. On the CPU, fake and real
probes agree for every operation and column (a test checks it); on a GPU, a test compares the two
for CUDA.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator, Sequence

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
        "c": rand(4, 8),
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
    "torch.addmm": lambda t: torch.addmm(t["c"], t["a"], t["b"]),
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
    "a + b": lambda t: t["a"] + t["c"],
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
    "F.mse_loss": lambda t: F.mse_loss(t["a"], t["c"]),
    "F.l1_loss": lambda t: F.l1_loss(t["a"], t["c"]),
    "F.cross_entropy": lambda t: F.cross_entropy(t["a"], t["labels"]),
    "F.nll_loss": lambda t: F.nll_loss(t["a"], t["labels"]),
    "F.binary_cross_entropy": lambda t: F.binary_cross_entropy(t["probs"], t["probs"]),
    "F.binary_cross_entropy_with_logits": lambda t: F.binary_cross_entropy_with_logits(t["a"], t["probs"]),
}


def _fake_inputs(device: str, dtype: torch.dtype, mode) -> dict[str, torch.Tensor]:
    # Values do not matter to a fake tensor, only shape, dtype and device. Creating them inside
    # the mode gives a fake CUDA tensor even where torch has no CUDA.
    like = _inputs("cpu", dtype)
    with mode:
        return {k: torch.empty(v.shape, dtype=v.dtype, device=device) for k, v in like.items()}


@contextlib.contextmanager
def _autocast_rules(device_type: str, dtype: torch.dtype) -> Iterator[None]:
    # What torch.autocast does on entry and exit, without its check that the device is
    # available (torch.autocast("cuda") on a machine without CUDA warns and disables itself).
    enabled, previous = torch.is_autocast_enabled(device_type), torch.get_autocast_dtype(device_type)
    torch.set_autocast_enabled(device_type, True)
    torch.set_autocast_dtype(device_type, dtype)
    torch.autocast_increment_nesting()
    try:
        yield
    finally:
        if torch.autocast_decrement_nesting() == 0:
            torch.clear_autocast_cache()
        torch.set_autocast_enabled(device_type, enabled)
        torch.set_autocast_dtype(device_type, previous)


def probe_autocast(
    device_type: str,
    autocast_dtype: torch.dtype,
    input_dtype: torch.dtype = torch.float32,
    *,
    fake: bool = False,
) -> dict[str, str]:
    """Run every operation of ``OPS`` under autocast and record its output dtype.

    Args:
        device_type: ``"cpu"`` or ``"cuda"``.
        autocast_dtype: The dtype given to ``torch.autocast``.
        input_dtype: The dtype of the floating-point inputs (float32, or a 16-bit dtype).
        fake: Run on fake tensors: autocast's rules for ``device_type`` decide the casts, but
            no kernel runs, so ``"cuda"`` works without a GPU.

    Returns:
        ``{op name: output dtype name}``; an operation that raises records
        ``"error: <exception type>"`` instead.

    Examples:
        >>> probe_autocast("cpu", torch.bfloat16)["a @ b"]
        'bfloat16'
        >>> probe_autocast("cpu", torch.bfloat16)["F.mse_loss"]
        'float32'
        >>> probe_autocast("cuda", torch.float16, fake=True)["torch.softmax"]
        'float32'
    """
    if fake:
        from torch._subclasses.fake_tensor import FakeTensorMode

        mode = FakeTensorMode()
        inputs = _fake_inputs(device_type, input_dtype, mode)
    else:
        inputs = _inputs(device_type, input_dtype)
    result = {}
    for name, op in OPS.items():
        try:
            if fake:
                with torch.no_grad(), _autocast_rules(device_type, autocast_dtype), mode:
                    out = op(inputs)
            else:  # exactly what a reader writes
                with torch.no_grad(), torch.autocast(device_type, dtype=autocast_dtype):
                    out = op(inputs)
            result[name] = str(out.dtype).removeprefix("torch.")
        except (RuntimeError, NotImplementedError) as err:
            result[name] = f"error: {type(err).__name__}"
    return result


def format_autocast_table(
    device_type: str, columns: Sequence[tuple[torch.dtype, torch.dtype]], *, fake: bool = False
) -> str:
    """A plain-text table: one row per operation, one column per (autocast dtype, input dtype).

    Args:
        device_type: ``"cpu"`` or ``"cuda"``.
        columns: Pairs ``(autocast dtype, input dtype)``.
        fake: Probe with fake tensors (see [`probe_autocast`][reference_impl.amp.autocast_table.probe_autocast]);
            the heading says so.

    Returns:
        The table, headed by the torch version and the device it was generated for.

    Examples:
        >>> format_autocast_table("cpu", [(torch.bfloat16, torch.float32)]).splitlines()[4].split()
        ['a', '@', 'b', 'bfloat16']
    """
    probed = [probe_autocast(device_type, ac, inp, fake=fake) for ac, inp in columns]
    short = [(str(ac).removeprefix("torch."), str(inp).removeprefix("torch.")) for ac, inp in columns]
    width = max(len(name) for name in OPS) + 2
    cell = max(12, *(len(c) for col in probed for c in col.values())) + 2
    how = " (fake tensors: autocast's rules, no kernel ran)" if fake else ""
    lines = [f"generated with torch {torch.__version__} for {device_type}{how}", ""]
    lines.append("autocast dtype".ljust(width) + "".join(ac.rjust(cell) for ac, _ in short))
    lines.append("op / input dtype".ljust(width) + "".join(inp.rjust(cell) for _, inp in short))
    for name in OPS:
        lines.append(name.ljust(width) + "".join(col[name].rjust(cell) for col in probed))
    return "\n".join(lines)
