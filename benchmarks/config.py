"""Settings shared by every benchmark case, and small measuring helpers."""

from __future__ import annotations

import warnings
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Callable, Iterator

import torch

from benchmarks.timing import Comparison, compare
from reference_impl._checks import require_cuda
from reference_impl.errors import ConfigError

__all__ = [
    "BenchConfig",
    "expected_ao_deprecations",
    "relative_l2",
]


@dataclass(frozen=True)
class BenchConfig:
    """How to run the benchmark.

    Attributes:
        device: ``"cpu"`` or ``"cuda"``.
        quick: Fewer rounds and shorter measurements, one warm-up call, smaller problems where
            the case says so (matmul, amp_step), no ``torch.compile``: for CI and the test suite,
            sized by what the tests check, so that it stays short on a CPU where 16-bit
            arithmetic is slow (AVX2 only).
        rounds: Alternating rounds per comparison.
        min_time: Target seconds per measurement.
        threads: Threads used while measuring.
        compile: Also measure ``torch.compile`` variants (torchao case).
        warmup: Untimed calls of each variant before measuring.
        stand_in: A dry run of the GPU cases on the CPU (``--dry-run``): ``device`` stays
            ``"cuda"`` (the GPU cases and their checks run) but tensors live on the CPU, sizes
            are tiny, and nothing GPU-only (CUDA events, TF32) is asked of it.
    """

    device: str = "cpu"
    quick: bool = False
    rounds: int = 9
    min_time: float = 0.25
    threads: int = 1
    compile: bool = True
    warmup: int = 3
    stand_in: bool = False

    def __post_init__(self) -> None:
        if self.device not in ("cpu", "cuda"):
            raise ConfigError(f"device must be 'cpu' or 'cuda', got {self.device!r}")
        if self.stand_in and self.device != "cuda":
            raise ConfigError("--dry-run runs the GPU cases on a CPU stand-in: use it with --device cuda")
        if not self.stand_in:
            require_cuda(self.device, "--device cuda was asked for",
                         "torch.cuda.is_available() is False; use --device cpu, or --dry-run to exercise the GPU cases")

    @property
    def target_device(self) -> str:
        """Where the tensors go: ``"cpu"`` for a stand-in run, else ``device``."""
        return "cpu" if self.stand_in else self.device
        if self.threads < 1:
            raise ConfigError(f"threads must be >= 1, got {self.threads}")

    @classmethod
    def make(
        cls,
        *,
        device: str = "cpu",
        quick: bool = False,
        rounds: int | None = None,
        min_time: float | None = None,
        threads: int = 1,
        stand_in: bool = False,
    ) -> "BenchConfig":
        """Build a config with the quick or full defaults, optionally overridden.

        Args:
            device: ``"cpu"`` or ``"cuda"``.
            quick: Quick mode (5 rounds of 0.05 s, 1 warm-up call, no compile) instead of full
                (9 rounds of 0.25 s, 3 warm-up calls).
            rounds: Override the number of rounds.
            min_time: Override the seconds per measurement.
            threads: Threads while measuring.
            stand_in: Run the GPU cases on a CPU stand-in (see the class).

        Returns:
            The config.

        Raises:
            ConfigError: An unknown device, CUDA asked for without a GPU, or threads < 1.

        Examples:
            >>> BenchConfig.make(quick=True).rounds, BenchConfig.make(quick=True).warmup, BenchConfig.make().compile
            (5, 1, True)
        """
        return cls(
            device=device,
            quick=quick,
            rounds=rounds if rounds is not None else (5 if quick else 9),
            min_time=min_time if min_time is not None else (0.05 if quick else 0.25),
            threads=threads,
            compile=not quick,
            warmup=1 if quick or stand_in else 3,
            stand_in=stand_in,
        )

    def compare(
        self, baseline: tuple[str, Callable[[], object]], variants: dict[str, Callable[[], object]]
    ) -> dict[str, Comparison]:
        """[compare][benchmarks.timing.compare] with this config's rounds, time, threads and device."""
        return compare(
            baseline, variants, rounds=self.rounds, min_time=self.min_time, warmup=self.warmup, threads=self.threads,
            device=self.target_device,
        )


def relative_l2(output: torch.Tensor, reference: torch.Tensor) -> float:
    """Relative L2 error ``||output - reference|| / ||reference||``, computed in float64.

    Args:
        output: The tensor to judge.
        reference: The reference (for example a float64 run of the same model).

    Returns:
        The relative error (0.01 = 1 %).

    Examples:
        >>> import torch
        >>> relative_l2(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]))
        0.0
    """
    out = output.detach().to("cpu", torch.float64)
    ref = reference.detach().to("cpu", torch.float64)
    return float((out - ref).norm() / ref.norm())


@contextmanager
def expected_ao_deprecations() -> Iterator[None]:
    """Silence exactly the deprecation warnings of ``torch.ao.quantization`` and qint dtypes.

    ``quantize_dynamic`` warns that ``torch.ao.quantization`` is deprecated (the way
    forward is torchao), and building its modules warns that the quantized dtypes
    are deprecated. The benchmark measures this API on purpose; any other warning
    still shows (and is an error under the test suite's policy).
    """
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=r"torch\.ao\.quantization is deprecated", category=DeprecationWarning)
        warnings.filterwarnings(
            "ignore", message=r"torch\.quantize_per_tensor, torch\.quantize_per_channel", category=UserWarning
        )
        yield
