"""The environment stamp recorded with every benchmark result.

A speed ratio means nothing without the machine it ran on: the same int8 or
bfloat16 code is several times faster on a CPU with AMX than on one with AVX2
only. The stamp records the CPU model and its instruction-set class (read from
``/proc/cpuinfo`` flags), the kernels PyTorch dispatched to, the torch build,
threads, quantized engine and the load average; on CUDA also the GPU and driver.
"""

from __future__ import annotations

import datetime as _dt
import importlib.metadata
import os
import platform
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Mapping

import torch

from benchmarks.catalog import Msg, from_json, render

__all__ = ["ISA_CLASSES", "ISA_FLAGS", "JA_STAMP_PREFIX", "collect_environment", "cpu_flags", "has_vnni", "isa_class", "stamp_line"]

#: How a Japanese table's stamp line begins (tests/test_style_ja.py leaves that line, a list of facts, out of textlint).
JA_STAMP_PREFIX = "計測環境: "

#: The /proc/cpuinfo flags that decide how fast 16-bit and int8 kernels can be.
ISA_FLAGS = (
    "avx2",
    "avx512f",
    "avx512_vnni",
    "avx512_bf16",
    "avx512_fp16",
    "amx_bf16",
    "amx_int8",
    "amx_fp16",
)


#: Environment variables that make PyTorch (ATen) and oneDNN use a smaller instruction set
#: than the CPU has, to emulate an older CPU.
_ISA_LIMIT_VARS = (
    "ATEN_CPU_CAPABILITY", "ONEDNN_MAX_CPU_ISA", "DNNL_MAX_CPU_ISA", "MKL_ENABLE_INSTRUCTIONS", "FBGEMM_ENABLE_INSTRUCTIONS"
)


def _cpuinfo_field(name: str) -> str | None:
    try:
        text = Path("/proc/cpuinfo").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    match = re.search(rf"^{re.escape(name)}\s*:\s*(.*)$", text, re.MULTILINE)
    return match.group(1).strip() if match else None


#: The instruction-set classes that decide the speed of 16-bit and int8 kernels, best first,
#: each with the ``/proc/cpuinfo`` flags that give it.
ISA_CLASSES: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("AMX", ("amx_bf16", "amx_int8", "amx_fp16")),  # matrix tiles: fast bfloat16 / int8 matmul
    ("AVX512-FP16", ("avx512_fp16",)),  # float16 arithmetic in vectors (no conversion)
    ("AVX512-BF16", ("avx512_bf16",)),  # bfloat16 dot products
    ("AVX512-VNNI", ("avx512_vnni",)),  # int8 dot products into int32 (no int16 saturation)
    ("AVX-512", ("avx512f",)),
    ("AVX2", ("avx2",)),
)


def cpu_flags() -> frozenset[str]:
    """The CPU's ``/proc/cpuinfo`` flags (empty where there is no such file)."""
    return frozenset((_cpuinfo_field("flags") or "").split())


def has_vnni() -> bool:
    """Whether the CPU adds int8 products straight into int32 (AVX512-VNNI or AVX-VNNI).

    Without VNNI, x86 int8 kernels (FBGEMM, ONNX Runtime's U8S8) add pairs of uint8 x int8
    products into a saturating int16 first.
    """
    return bool(cpu_flags() & {"avx512_vnni", "avx_vnni"})


def isa_class(flags: set[str] | frozenset[str]) -> str:
    """Name the instruction-set classes of a CPU from its ``/proc/cpuinfo`` flags.

    The extensions that change the numbers are listed, best first: ``AMX``,
    ``AVX512-FP16``, ``AVX512-BF16``, ``AVX512-VNNI``. A CPU with none of them is
    ``AVX-512``, ``AVX2`` or ``other`` (for example an Arm CPU, or no ``/proc/cpuinfo``).

    Args:
        flags: The CPU flags (lower case, as in ``/proc/cpuinfo``).

    Returns:
        The classes, comma-separated.

    Examples:
        >>> isa_class({"avx2", "avx512f", "avx512_vnni", "avx512_bf16", "avx512_fp16", "amx_bf16", "amx_int8"})
        'AMX, AVX512-FP16, AVX512-BF16, AVX512-VNNI'
        >>> isa_class({"avx2", "avx512f", "avx512_vnni", "avx512_bf16"})  # AMD Zen 4
        'AVX512-BF16, AVX512-VNNI'
        >>> isa_class({"avx2", "avx512f"}), isa_class({"avx2"}), isa_class(set())
        ('AVX-512', 'AVX2', 'other')
    """
    extensions = [name for name, needs in ISA_CLASSES[:4] if flags & set(needs)]
    if extensions:
        return ", ".join(extensions)
    for name, needs in ISA_CLASSES[4:]:
        if flags & set(needs):
            return name
    return "other"


def _torch_build() -> dict[str, str]:
    show = torch.__config__.show()
    out: dict[str, str] = {}
    for line in show.splitlines():
        line = line.strip().removeprefix("- ").strip()
        if "oneDNN" in line or "MKL-DNN" in line:
            out["onednn"] = re.sub(r"\s*\(Git Hash.*\)", "", line)
        elif line.startswith("CPU capability usage:"):
            out["cpu_capability_build"] = line.split(":", 1)[1].strip()
        elif line.startswith("Build settings:"):
            settings = dict(
                part.strip().split("=", 1) for part in line.split(":", 1)[1].split(", ") if "=" in part
            )
            for key in ("BLAS_INFO", "BUILD_TYPE", "USE_CUDA", "USE_MKLDNN"):
                if key in settings:
                    out[key.lower()] = settings[key].strip()
    return out


def _package_version(name: str) -> str | Msg:
    try:
        return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
        return Msg("value.not_installed")


def _normalized_uuid(uuid: object) -> str:
    """``GPU-1a2b...`` (NVML, nvidia-smi) and ``1a2b...`` (torch) as one form."""
    text = uuid.decode() if isinstance(uuid, bytes) else str(uuid)
    return text.lower().removeprefix("gpu-")


def nvml_facts(uuid: object, nvml: Any = None) -> dict[str, str] | None:
    """Driver, clocks and UUID of the NVML device whose UUID is ``uuid`` (torch's device 0).

    The first GPU that nvidia-smi lists is not torch's device 0 when ``CUDA_VISIBLE_DEVICES``
    reorders or hides GPUs; the UUID names the same device for both.

    Args:
        uuid: ``torch.cuda.get_device_properties(0).uuid``.
        nvml: The ``pynvml`` module (from nvidia-ml-py); imported when None.

    Returns:
        ``{"uuid", "driver", "sm", "sm_max", "memory"}``, or None when NVML is missing, fails, or
        has no device with that UUID.
    """
    if nvml is None:
        try:
            import pynvml as nvml  # nvidia-ml-py
        except ImportError:
            return None
    want = _normalized_uuid(uuid)
    try:
        nvml.nvmlInit()
    except Exception:  # noqa: BLE001 - no driver, no NVML: the stamp says unknown
        return None
    try:
        for index in range(nvml.nvmlDeviceGetCount()):
            handle = nvml.nvmlDeviceGetHandleByIndex(index)
            if _normalized_uuid(nvml.nvmlDeviceGetUUID(handle)) != want:
                continue
            driver = nvml.nvmlSystemGetDriverVersion()
            return {
                "uuid": "GPU-" + want,
                "driver": driver.decode() if isinstance(driver, bytes) else str(driver),
                "sm": f"{nvml.nvmlDeviceGetClockInfo(handle, nvml.NVML_CLOCK_SM)} MHz",
                "sm_max": f"{nvml.nvmlDeviceGetMaxClockInfo(handle, nvml.NVML_CLOCK_SM)} MHz",
                "memory": f"{nvml.nvmlDeviceGetClockInfo(handle, nvml.NVML_CLOCK_MEM)} MHz",
            }
        return None
    except Exception:  # noqa: BLE001
        return None
    finally:
        nvml.nvmlShutdown()


def _gpu_fields(device: str) -> dict[str, str | Msg]:
    if device != "cuda":
        na = Msg("value.not_applicable", device=device)
        return {"gpu_name": na, "gpu_uuid": na, "gpu_driver": na, "gpu_capability": na, "gpu_clocks": na}
    props = torch.cuda.get_device_properties(0)
    uuid = "GPU-" + _normalized_uuid(props.uuid)
    fields: dict[str, str | Msg] = {
        "gpu_name": props.name,
        "gpu_uuid": uuid,
        "gpu_capability": f"{props.major}.{props.minor}",
        "gpu_driver": Msg("value.no_nvml_match"),
        "gpu_clocks": Msg("value.no_nvml_match"),
    }
    facts = nvml_facts(props.uuid)
    if facts is not None:
        fields["gpu_driver"] = facts["driver"]
        fields["gpu_clocks"] = Msg("value.gpu_clocks", sm=facts["sm"], sm_max=facts["sm_max"], memory=facts["memory"])
        return fields
    smi = shutil.which("nvidia-smi")  # without nvidia-ml-py: ask nvidia-smi about that UUID, not its first line
    if not smi:
        fields["gpu_driver"] = fields["gpu_clocks"] = Msg("value.no_nvidia_smi")
        return fields
    try:
        line = subprocess.run(
            [smi, f"--id={uuid}", "--query-gpu=driver_version,clocks.sm,clocks.max.sm,clocks.mem", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20, check=True,
        ).stdout.splitlines()[0]
        driver, sm, sm_max, mem = (p.strip() for p in line.split(","))
        fields["gpu_driver"] = driver
        fields["gpu_clocks"] = Msg("value.gpu_clocks", sm=sm, sm_max=sm_max, memory=mem)
    except (OSError, subprocess.SubprocessError, ValueError, IndexError) as err:
        fields["gpu_driver"] = Msg("value.nvidia_smi_failed", error=type(err).__name__)
    return fields


def collect_environment(*, device: str = "cpu", threads: int = 1, mode: str = "full") -> dict[str, str | Msg]:
    """Collect the environment stamp.

    Args:
        device: ``"cpu"`` or ``"cuda"``.
        threads: The thread count the benchmark measures with.
        mode: ``"quick"`` or ``"full"``.

    Returns:
        A flat dict of strings, and of messages where the value is words (``none``,
        ``n/a (cpu run)``...: rendered per language); every field is filled.

    Examples:
        >>> env = collect_environment()
        >>> env["threads"], env["device"], render(env["gpu_name"], "en")
        ('1', 'cpu', 'n/a (cpu run)')
    """
    flags = set(cpu_flags())
    present = [f for f in ISA_FLAGS if f in flags]
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    build = _torch_build()
    env = {
        "date": _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "mode": mode,
        "device": device,
        "cpu_model": _cpuinfo_field("model name") or platform.processor() or platform.machine(),
        "logical_cpus": str(os.cpu_count()),
        "isa_class": isa_class(flags),
        "isa_flags": ", ".join(present) if present else Msg("value.none_of", flags=", ".join(ISA_FLAGS)),
        "isa_limit": ", ".join(f"{k}={os.environ[k]}" for k in _ISA_LIMIT_VARS if os.environ.get(k))
        or Msg("value.none"),
        "torch_cpu_capability": torch.backends.cpu.get_cpu_capability(),
        "torch_version": torch.__version__,
        "torch_cuda": torch.version.cuda or Msg("value.none_cpu_build"),
        "torch_blas": build.get("blas_info") or Msg("value.unknown"),
        "torch_onednn": build.get("onednn") or Msg("value.unknown"),
        "torch_build_type": build.get("build_type") or Msg("value.unknown"),
        "torchao_version": _package_version("torchao"),
        "python": platform.python_version(),
        "os": platform.platform(),
        "threads": str(threads),
        "quantized_engine": torch.backends.quantized.engine,
        "load_average": Msg("value.load_average", loads=" / ".join(f"{x:.2f}" for x in load))
        if load else Msg("value.unknown"),
    }
    env.update(_gpu_fields(device))
    return env


def stamp_line(env: Mapping[str, Any], lang: str = "en") -> str:
    """The one-line stamp written under every results table: in italics in English; in Japanese
    (which has no italics) as plain text that says what it is, its parts joined with 「、」.

    Args:
        env: A dict from [collect_environment][benchmarks.environment.collect_environment]
            (or its JSON form, as stored in a ``<case>.json``).
        lang: ``"en"`` or ``"ja"``.

    Returns:
        A markdown line such as ``*CPU: ... · ISA: AMX · torch 2.13.0+cpu · 1 thread · ...*``
        (``計測環境: CPU ...、命令セットの区分 AMX、torch 2.13.0+cpu、1 スレッド、...``).

    Examples:
        >>> env = {"cpu_model": "Xeon", "isa_class": "AMX", "torch_version": "2.13.0", "threads": "1",
        ...        "date": "2026-11-21 22:00 UTC", "mode": "full", "device": "cpu",
        ...        "load_average": Msg("value.load_average", loads="1.00 / 1.00 / 1.00")}
        >>> stamp_line(env)
        '*CPU: Xeon · ISA: AMX · torch 2.13.0 · 1 thread · load 1.00 · 2026-11-21 22:00 UTC · full run*'
        >>> stamp_line(env, "ja")
        '計測環境: CPU Xeon、命令セットの区分 AMX、torch 2.13.0、1 スレッド、負荷 1.00、2026-11-21 22:00 UTC、フル実行'
    """
    threads = str(env["threads"])
    isa: Any = env["isa_class"]
    if lang == "ja" and isinstance(isa, str):  # 「AMX/AVX512-FP16」: no English comma inside a 「、」 list
        isa = isa.replace(", ", "/")
    limit = from_json(env.get("isa_limit"))
    if isinstance(limit, str) and lang == "ja":
        limit = limit.replace(", ", "、")
    if isinstance(limit, str):  # a message means "none"
        isa = Msg("stamp.isa_limited", isa=isa, limit=limit)
    load = from_json(env["load_average"])
    loads = load.args["loads"] if isinstance(load, Msg) and "loads" in load.args else render(load, lang)
    label = ": " if lang == "en" else " "
    # Japanese names the ISA class as the environment table and STYLE.ja.md do: 命令セットの区分
    isa_label = "ISA" if lang == "en" else "命令セットの区分"
    parts: list[Any] = [f"CPU{label}{env['cpu_model']}", f"{isa_label}{label}{render(isa, lang)}"]
    if env.get("device") == "cuda":
        parts.append(f"GPU{label}{render(env['gpu_name'], lang)}")
    parts += [
        f"torch {env['torch_version']}",
        Msg("stamp.threads", threads=threads, _s="" if threads == "1" else "s"),
        Msg("stamp.load", load=loads.split(" / ")[0]),
        env["date"],
        Msg(f"stamp.{env['mode']}"),
    ]
    text = (" · " if lang == "en" else "、").join(render(part, lang) for part in parts)
    text = text.replace("*", "\\*").replace("_", "\\_").replace("|", "/")
    return f"*{text}*" if lang == "en" else f"{JA_STAMP_PREFIX}{text}"
