"""How many bytes a tensor or a model really holds.

``t.nbytes`` counts the elements of a view; the memory held is its untyped storage,
which can be larger (a slice keeps its whole base alive). A model's parameters can
share storage (tied embeddings), and BatchNorm keeps integer buffers that a dtype
cast leaves alone. These reports count what is actually held.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from reference_impl._checks import dtype_name, require_module, require_tensor
from reference_impl.errors import DtypeError
from reference_impl.storage._checks import require_dtype_object
from reference_impl.storage.dtype_info import all_storage_dtypes, dtype_facts

__all__ = [
    "DtypeUsage",
    "ModelFootprint",
    "TensorFootprint",
    "format_nbytes",
    "model_footprint",
    "tensor_footprint",
]


def format_nbytes(nbytes: int | float) -> str:
    """Format a byte count with binary units (B, KiB, MiB, GiB, TiB).

    Args:
        nbytes: Number of bytes (>= 0).

    Returns:
        ``"200 B"`` below 1 KiB, otherwise two decimals and the largest unit that
        keeps the number >= 1.

    Examples:
        >>> format_nbytes(200), format_nbytes(1536), format_nbytes(3 * 2**30)
        ('200 B', '1.50 KiB', '3.00 GiB')
    """
    if nbytes < 1024:
        return f"{nbytes:g} B"
    value = float(nbytes)
    for unit in ("KiB", "MiB", "GiB", "TiB"):
        value /= 1024
        if value < 1024 or unit == "TiB":
            break
    return f"{value:.2f} {unit}"


@dataclass(frozen=True)
class TensorFootprint:
    """Bytes held by one tensor.

    Attributes:
        dtype: The tensor's dtype.
        shape: The tensor's shape.
        numel: Number of elements of the view.
        element_size: ``t.element_size()`` as PyTorch reports it (1 for
            ``quint4x2``, although two values share a byte).
        nbytes: Bytes of the view's elements: ``numel * element_size``, except for
            the packed ``quint4x2`` / ``quint2x4`` where it is
            ``ceil(numel * bits / 8)`` (PyTorch's ``t.nbytes`` says ``numel``).
        storage_nbytes: Bytes of the untyped storage behind the view
            (``t.untyped_storage().nbytes()``): what is actually held, shared with
            every other view of the same storage.
        device: Device as a string (``"cpu"``, ``"cuda:0"``, ``"meta"``).
    """

    dtype: torch.dtype
    shape: tuple[int, ...]
    numel: int
    element_size: int
    nbytes: int
    storage_nbytes: int
    device: str

    @property
    def is_partial_view(self) -> bool:
        """True when the storage holds more bytes than the view uses."""
        return self.storage_nbytes > self.nbytes

    def __str__(self) -> str:
        shape = "x".join(str(s) for s in self.shape) or "scalar"
        text = (
            f"{dtype_name(self.dtype)}[{shape}] on {self.device}: "
            f"{self.numel:,} elements, {format_nbytes(self.nbytes)}"
        )
        if self.is_partial_view:
            text += f" (view of a {format_nbytes(self.storage_nbytes)} storage)"
        return text


def tensor_footprint(t: Any) -> TensorFootprint:
    """Measure the bytes of a tensor and of the storage behind it.

    Args:
        t: Any tensor (dense, quantized, on any device; on ``meta`` the storage
            size is computed but nothing is allocated).

    Returns:
        A frozen [TensorFootprint][reference_impl.storage.footprint.TensorFootprint].

    Raises:
        NotATensorError: ``t`` is not a tensor.

    Examples:
        >>> import torch
        >>> fp = tensor_footprint(torch.full((100,), 1.23, dtype=torch.float16))
        >>> fp.nbytes, fp.storage_nbytes
        (200, 200)
        >>> print(tensor_footprint(torch.zeros(1000)[:10]))
        float32[10] on cpu: 10 elements, 40 B (view of a 3.91 KiB storage)
    """
    require_tensor(t, "t")
    numel = t.numel()
    if t.dtype in (torch.quint4x2, torch.quint2x4):
        nbytes = dtype_facts(t.dtype).nbytes(numel)
    else:
        nbytes = numel * t.element_size()
    return TensorFootprint(
        dtype=t.dtype,
        shape=tuple(t.shape),
        numel=numel,
        element_size=t.element_size(),
        nbytes=nbytes,
        storage_nbytes=t.untyped_storage().nbytes(),
        device=str(t.device),
    )


@dataclass(frozen=True)
class DtypeUsage:
    """One row of a [ModelFootprint][reference_impl.storage.footprint.ModelFootprint].

    Attributes:
        dtype: The dtype.
        tensors: Number of distinct storages of this dtype.
        numel: Elements those storages hold.
        nbytes: Bytes those storages hold.
        parameter_nbytes: Part of ``nbytes`` that belongs to parameters.
    """

    dtype: torch.dtype
    tensors: int
    numel: int
    nbytes: int
    parameter_nbytes: int

    @property
    def buffer_nbytes(self) -> int:
        """Part of ``nbytes`` that belongs to buffers."""
        return self.nbytes - self.parameter_nbytes


@dataclass(frozen=True)
class ModelFootprint:
    """Bytes of a module's parameters and buffers, per dtype.

    Attributes:
        usages: One row per dtype, largest first (ties by dtype name).
    """

    usages: tuple[DtypeUsage, ...]

    @property
    def total_nbytes(self) -> int:
        """Bytes of all parameters and buffers (each storage once)."""
        return sum(u.nbytes for u in self.usages)

    @property
    def parameter_nbytes(self) -> int:
        """Bytes of the parameters."""
        return sum(u.parameter_nbytes for u in self.usages)

    @property
    def buffer_nbytes(self) -> int:
        """Bytes of the buffers."""
        return sum(u.buffer_nbytes for u in self.usages)

    def nbytes_of(self, dtype: torch.dtype) -> int:
        """Bytes held in ``dtype`` (0 if the model has none).

        Args:
            dtype: A ``torch.dtype``.

        Returns:
            Number of bytes.
        """
        return sum(u.nbytes for u in self.usages if u.dtype == dtype)

    def size_at(self, dtype: Any) -> int:
        """Bytes the model would hold if every floating tensor were cast to ``dtype``.

        Floating parameters and buffers (weights, BatchNorm running statistics) are
        re-counted at ``dtype``'s size; integer and bool buffers (BatchNorm's
        ``num_batches_tracked``) and quantized tensors keep their size, as
        ``module.to(dtype)`` leaves them alone.

        Args:
            dtype: A floating dtype (float64 ... float8).

        Returns:
            Number of bytes.

        Raises:
            DtypeError: ``dtype`` is not a floating ``torch.dtype``.

        Examples:
            >>> import torch
            >>> fp = model_footprint(torch.nn.BatchNorm1d(4))
            >>> fp.total_nbytes, fp.size_at(torch.float16), fp.size_at(torch.float8_e4m3fn)
            (72, 40, 24)
        """
        require_dtype_object(dtype)
        if not dtype.is_floating_point:
            raise DtypeError(
                f"size_at needs a floating dtype (what module.to(dtype) casts to), got "
                f"{dtype}; integer and quantized sizes need a quantization recipe"
            )
        target = dtype_facts(dtype)
        total = 0
        for usage in self.usages:
            if usage.dtype.is_floating_point:
                total += target.nbytes(usage.numel)
            else:
                total += usage.nbytes
        return total

    def format_table(self) -> str:
        """Return a Markdown table: one row per dtype and a total row.

        Examples:
            >>> import torch
            >>> print(model_footprint(torch.nn.BatchNorm1d(4)).format_table())
            | dtype   | tensors | elements | bytes |   share |
            |---------|--------:|---------:|------:|--------:|
            | float32 |       4 |       16 |  64 B |  88.9 % |
            | int64   |       1 |        1 |   8 B |  11.1 % |
            | total   |       5 |       17 |  72 B | 100.0 % |
        """
        total = self.total_nbytes
        rows = []
        for u in self.usages:
            share = 100.0 * u.nbytes / total if total else 0.0
            rows.append(
                (
                    dtype_name(u.dtype),
                    f"{u.tensors:,}",
                    f"{u.numel:,}",
                    format_nbytes(u.nbytes),
                    f"{share:.1f} %",
                )
            )
        rows.append(
            (
                "total",
                f"{sum(u.tensors for u in self.usages):,}",
                f"{sum(u.numel for u in self.usages):,}",
                format_nbytes(total),
                "100.0 %" if total else "0.0 %",
            )
        )
        header = ("dtype", "tensors", "elements", "bytes", "share")
        widths = [max(len(r[i]) for r in (header, *rows)) for i in range(len(header))]
        left = (True, False, False, False, False)

        def line(cells: tuple[str, ...]) -> str:
            padded = [
                c.ljust(w) if is_left else c.rjust(w)
                for c, w, is_left in zip(cells, widths, left)
            ]
            return "| " + " | ".join(padded) + " |"

        rule = "|" + "|".join(
            "-" * (w + 2) if is_left else "-" * (w + 1) + ":" for w, is_left in zip(widths, left)
        ) + "|"
        return "\n".join([line(header), rule, *(line(r) for r in rows)])

    def __str__(self) -> str:
        return self.format_table()


def _bits_per_element(t: torch.Tensor) -> int:
    """Bits per element of ``t``'s dtype (4 for quint4x2; complex and others via element_size)."""
    if t.dtype in all_storage_dtypes():
        return dtype_facts(t.dtype).bits
    return t.element_size() * 8


def _storage_key(t: torch.Tensor) -> tuple[Any, ...]:
    """Identify the storage behind ``t`` (meta tensors have no address: use the tensor)."""
    pointer = t.untyped_storage().data_ptr()
    if pointer == 0:
        return ("tensor", id(t))
    return (str(t.device), pointer)


def model_footprint(module: Any) -> ModelFootprint:
    """Count the bytes of a module's parameters and buffers, per dtype.

    Each storage is counted once, by ``untyped_storage().data_ptr()``: a tied
    weight (the same tensor in two layers) or two views of one buffer add their
    bytes once. The bytes counted are the whole storage's. Tensors on the ``meta``
    device (a model built without memory) are counted at the size they would have.

    Weights held outside parameters and buffers (packed params of quantized
    modules, for example ``quint4x2`` embeddings) are not seen.

    Args:
        module: A ``torch.nn.Module``.

    Returns:
        A frozen [ModelFootprint][reference_impl.storage.footprint.ModelFootprint].

    Raises:
        NotAModuleError: ``module`` is not a ``torch.nn.Module``.
        DtypeError: the module has uninitialized lazy parameters (run one forward
            pass first).

    Examples:
        >>> import torch
        >>> lin = torch.nn.Linear(1000, 1000)
        >>> fp = model_footprint(lin)
        >>> fp.total_nbytes, fp.size_at(torch.bfloat16)
        (4004000, 2002000)
        >>> emb, head = torch.nn.Embedding(10, 4), torch.nn.Linear(4, 10, bias=False)
        >>> head.weight = emb.weight
        >>> model_footprint(torch.nn.Sequential(emb, head)).total_nbytes
        160
    """
    require_module(module, "module", hint="for a single tensor use tensor_footprint(t)")
    seen: set[tuple[Any, ...]] = set()
    rows: dict[torch.dtype, list[int]] = {}  # dtype -> [tensors, numel, nbytes, param_nbytes]
    named = [(True, t) for t in module.parameters()] + [(False, t) for t in module.buffers()]
    for is_parameter, t in named:
        if isinstance(t, torch.nn.parameter.UninitializedTensorMixin):
            raise DtypeError(
                f"{type(module).__name__} has uninitialized lazy parameters; run one "
                f"forward pass before measuring it"
            )
        key = _storage_key(t)
        if key in seen:
            continue
        seen.add(key)
        nbytes = t.untyped_storage().nbytes()
        numel = nbytes * 8 // _bits_per_element(t)
        row = rows.setdefault(t.dtype, [0, 0, 0, 0])
        row[0] += 1
        row[1] += numel
        row[2] += nbytes
        row[3] += nbytes if is_parameter else 0
    usages = [DtypeUsage(d, *values) for d, values in rows.items()]
    usages.sort(key=lambda u: (-u.nbytes, str(u.dtype)))
    return ModelFootprint(tuple(usages))
