"""Create (once) the virtualenv of one torch version for .ci/record-torch-versions; print its path.

Usage: python3 .ci/torch_version_venv.py 2.15.0             # create it (once); print its path
       python3 .ci/torch_version_venv.py --sources 2.15.0   # write recorded/torch/2.15.0/sources.toml

The virtualenv lives in ${XDG_CACHE_HOME:-~/.cache}/pytorch-precision-guide/torch-<version>-<key>/,
key: the version, constraints.txt without its torch pin, the requirement lists it installs
(pyproject.toml's dependencies and `examples` extra), the base Python (path, version, machine). It is
used only when complete (its `.complete` file); one process creates it at a time (a lock).

pip runs with PIP_CONFIG_FILE=/dev/null and without the machine's PIP_* settings but the certificate
and timeout: the machine-wide configuration caps torch at 2.14.1 and adds local indexes
(`pip config list`, /etc/xdg/pip/constraints.txt). torch then comes from the package index (for
Linux, the CUDA build with its nvidia packages: gigabytes, which run on a CPU). The rest is
installed under constraints.txt without its torch pin; where that fails, each requirement is tried
alone under the constraints, and a pin that refuses this torch is dropped (the newest release that
installs is taken). What happened is written to <venv>/install.json: the seconds, the size, the
pins dropped and why, and `pip freeze`.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def log(*args) -> None:
    print(*args, file=sys.stderr, flush=True)


def dist_name(req: str) -> str:
    return re.match(r"[A-Za-z0-9_.-]+", req).group(0).lower().replace("_", "-")


def requirements() -> list[str]:
    """What the page scripts need: the package's dependencies and its `examples` extra (not the package:
    the records run the scripts with the checkout on PYTHONPATH)."""
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    own = dist_name(project["name"])
    return [r for r in project["dependencies"] + project["optional-dependencies"]["examples"] if dist_name(r) != own]


def constraints_without_torch() -> list[str]:
    lines = (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines()
    return [ln for ln in lines if ln.strip() and not ln.startswith("#") and dist_name(ln) != "torch"]


def pip_env() -> dict[str, str]:
    """This machine's environment without its pip settings (PIP_CONFIG_FILE=/dev/null: no config file)."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PIP_", "PYTHON", "VIRTUAL_ENV")) or k in ("PIP_CERT", "PIP_DEFAULT_TIMEOUT")}
    env.update(PIP_CONFIG_FILE=os.devnull, PIP_DISABLE_PIP_VERSION_CHECK="1")
    return env


def venv_path(version: str) -> Path:
    base = os.path.realpath(getattr(sys, "_base_executable", sys.executable))
    key = hashlib.sha256(json.dumps([version, constraints_without_torch(), sorted(requirements()), base,
                                     sys.implementation.cache_tag, platform.python_version(),
                                     platform.machine()]).encode()).hexdigest()[:16]
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "pytorch-precision-guide"
    return cache / f"torch-{version}-{key}"


def pip(venv: Path, *args: str, check: bool = True, quiet: bool = True) -> subprocess.CompletedProcess:
    cmd = [str(venv / "bin" / "python"), "-m", "pip", *args]
    proc = subprocess.run(cmd, env=pip_env(), text=True, stdout=subprocess.PIPE if quiet else sys.stderr,
                          stderr=subprocess.PIPE if quiet else None)
    if check and proc.returncode != 0:
        sys.exit(f"failed: {' '.join(cmd)}\n{(proc.stderr or '')[-3000:]}")
    return proc


def create(version: str, venv: Path) -> None:
    start = time.monotonic()
    shutil.rmtree(venv, ignore_errors=True)
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    pip(venv, "install", "-q", "--upgrade", "pip")
    log(f"==> torch=={version} from the package index, past this machine's cap (PIP_CONFIG_FILE=/dev/null)")
    pip(venv, "install", "-q", f"torch=={version}", quiet=False)
    torch_seconds = time.monotonic() - start
    cons = venv / "constraints.txt"
    pins = constraints_without_torch() + [f"torch=={version}"]
    cons.write_text("\n".join(pins) + "\n", encoding="utf-8")
    wanted = requirements()
    dropped: dict[str, str] = {}
    first = pip(venv, "install", "-q", "-c", str(cons), *wanted, check=False)
    if first.returncode != 0:
        log(f"==> the requirements do not install under constraints.txt with torch {version}; trying each alone")
        for req in wanted:
            trial = pip(venv, "install", "-q", "--dry-run", "-c", str(cons), req, check=False)
            if trial.returncode == 0:
                continue
            name = dist_name(req)
            pin = next((p for p in pins if dist_name(p) == name), None)
            if pin is None:
                sys.exit(f"{req} does not install with torch {version}:\n{trial.stderr[-3000:]}")
            reason = " ".join(ln.strip() for ln in trial.stderr.splitlines() if "ERROR" in ln or "requires" in ln)
            dropped[pin] = reason[-600:]
            log(f"==> {pin} refuses torch {version}: {reason[-300:]}; installing the newest {name} that does")
            pins.remove(pin)
        cons.write_text("\n".join(pins) + "\n", encoding="utf-8")
        pip(venv, "install", "-q", "-c", str(cons), *wanted)
    seconds = time.monotonic() - start
    freeze = pip(venv, "freeze").stdout.split()
    size = sum(f.stat().st_size for f in venv.rglob("*") if f.is_file() and not f.is_symlink())
    info = {"torch": version, "seconds": round(seconds), "torch_seconds": round(torch_seconds),
            "size_bytes": size, "python": platform.python_version(), "requirements": wanted,
            "constraints_dropped": dropped, "date": time.strftime("%Y-%m-%d"), "freeze": freeze}
    (venv / "install.json").write_text(json.dumps(info, indent=1) + "\n", encoding="utf-8")
    log(f"==> torch {version}: virtualenv ready in {seconds:.0f} s (torch and its packages {torch_seconds:.0f} s), "
        f"{size / 2**30:.1f} GiB" + (f"; pins dropped: {sorted(dropped)}" if dropped else ""))


def write_sources(version: str, venv: Path) -> Path:
    """Copy the lines of the installed torch that docs/data/torch_versions.toml's ``[[version.source]]``
    entries of this version point at (``file``, the first line matching ``find``, ``lines`` lines from it)
    into recorded/torch/<version>/sources.toml, which tests/test_torch_versions.py checks the pages'
    quotes against."""
    data = tomllib.loads((REPO / "docs" / "data" / "torch_versions.toml").read_text(encoding="utf-8"))
    entries = next((v.get("source", []) for v in data.get("version", []) if v["torch"] == version), [])
    site = next((venv / "lib").glob("python*/site-packages"))
    out = [f"# Excerpts of torch {version}'s installed sources that the pages quote (docs/data/torch_versions.toml).",
           f"# Written by: bash .ci/record-torch-versions {version} (python3 .ci/torch_version_venv.py --sources {version})"]
    for entry in entries:
        lines = (site / entry["file"]).read_text(encoding="utf-8").splitlines()
        start = next((i for i, ln in enumerate(lines) if re.search(entry["find"], ln)), None)
        if start is None:
            sys.exit(f"torch {version}: {entry['file']} has no line matching {entry['find']!r}")
        text = "\n".join(lines[start:start + int(entry.get("lines", 1))])
        out += ["", "[[excerpt]]", f"file = {json.dumps(entry['file'])}", f"line = {start + 1}",
                f"text = {json.dumps(text, ensure_ascii=False)}"]
    # The build PyPI gave: its version, CUDA and GPU architectures (get_arch_list needs no GPU in 2.15).
    code = ("import json, torch; print(json.dumps({'torch': torch.__version__, 'cuda': torch.version.cuda, "
            "'arch_list': ' '.join(torch.cuda.get_arch_list())}))")
    build = json.loads(subprocess.run([str(venv / "bin" / "python"), "-W", "ignore", "-c", code], capture_output=True,
                                      text=True, check=True, env=pip_env()).stdout.strip().splitlines()[-1])
    out += ["", "[build]  # torch.__version__, torch.version.cuda and torch.cuda.get_arch_list() of the installed wheel"]
    out += [f"{k} = {json.dumps(v or '')}" for k, v in build.items()]
    info = json.loads((venv / "install.json").read_text(encoding="utf-8"))
    out += ["", "[install]  # creating the virtualenv on the machine that recorded (<venv>/install.json)"]
    out += [f"{k} = {json.dumps(info[k])}" for k in ("date", "seconds", "torch_seconds", "size_bytes")]
    out += ["constraints_dropped = [" + ", ".join(json.dumps(k) for k in sorted(info["constraints_dropped"])) + "]"]
    folder = REPO / "recorded" / "torch" / version
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "sources.toml").write_text("\n".join(out) + "\n", encoding="utf-8")
    return folder / "sources.toml"


def main(argv: list[str]) -> int:
    sources = argv[:1] == ["--sources"]
    argv = argv[1:] if sources else argv
    if len(argv) != 1 or not re.fullmatch(r"\d+\.\d+\.\d+", argv[0]):
        sys.exit("usage: python3 .ci/torch_version_venv.py [--sources] X.Y.Z")
    version = argv[0]
    venv = venv_path(version)
    if sources:
        if not (venv / ".complete").is_file():
            sys.exit(f"torch {version}: no virtualenv yet ({venv}): run bash .ci/record-torch-versions {version}")
        log(f"==> wrote {write_sources(version, venv).relative_to(REPO)}")
        return 0
    done = venv / ".complete"
    if not done.is_file():
        venv.parent.mkdir(parents=True, exist_ok=True)
        with open(f"{venv}.lock", "w") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # another run may be creating it: wait for it
            if not done.is_file():
                log(f"==> creating {venv} (once per version, constraints and Python)")
                create(version, venv)
                done.write_text(version + "\n", encoding="utf-8")
    else:
        info = json.loads((venv / "install.json").read_text(encoding="utf-8"))
        log(f"==> torch {version}: {venv} (created {info['date']} in {info['seconds']} s)")
    os.utime(done)  # last used
    print(venv)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
