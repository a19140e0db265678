"""`.ci/gpu`, the one command for a lent GPU machine, and its offline wheels (`.ci/gpu-wheels`,
`.ci/gpu-install`), checked here without a GPU and (but for one test) without a network.

- the plan: GPU steps first, the CPU suite last, every step under a time box, the boxes within
  one device run (600 s), and a step really stopped at its box;
- the offline install: a wheel installed from a folder with no index, byte-compiled so that a
  docstring's invalid escape does not become an error when warnings are errors;
- the whole script end to end with a stand-in Python (GPU_DRY_RUN=1, and a "GPU machine" whose
  torch says yes): the commands in order, pytest-benchmark off everywhere, nothing written into
  the tree (no empty `.out`), at most 8 files gathered;
- the gather on a fake tree: new and changed outputs shipped, empty ones never;
- the wheel folder: complete offline (every requirement and dependency carried or on the machine),
  one version each, never torch; the real resolution against PyPI where the network answers.
"""

from __future__ import annotations

import base64
import hashlib
import importlib.machinery
import importlib.util
import os
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

import pytest

from docs_tools.docs_model import REPO

GPU = REPO / ".ci" / "gpu"
INSTALL = REPO / ".ci" / "gpu-install"
WHEELS_SCRIPT = REPO / ".ci" / "gpu-wheels"
GPU_STEPS = ("cuda-scripts", "benchmark", "probes", "cuda-tests")
DEVICE_LIMIT_S = 600  # the device tool's limit for one command


def _wheels_module():
    loader = importlib.machinery.SourceFileLoader("ci_gpu_wheels", str(WHEELS_SCRIPT))
    spec = importlib.util.spec_from_loader("ci_gpu_wheels", loader)
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


wheels = _wheels_module()


def _bash(script: str, env: dict | None = None, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", script], check=False, capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, cwd=REPO)


def _plan() -> dict:
    """STEPS, BOX, LOG_OF and the budget, read by sourcing .ci/gpu (which then runs nothing)."""
    proc = _bash(f"""source {GPU}
        printf 'steps %s\\n' "${{STEPS[*]}}"
        for s in "${{STEPS[@]}}"; do printf 'box %s %s %s\\n' "$s" "${{BOX[$s]:-}}" "${{LOG_OF[$s]:-}}"; done
        printf 'budget %s %s %s %s\\n' "$BUDGET" "$PRECHECK_BOX" "$KILL_GRACE" "$MAX_OUT_FILES"
        for s in "${{STEPS[@]}}"; do declare -F "step_$s" >/dev/null || echo "nofunction $s"; done""")
    assert proc.returncode == 0, proc.stderr
    plan: dict = {"box": {}, "log": {}, "missing": []}
    for line in proc.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "steps":
            plan["steps"] = rest.split()
        elif kind == "box":
            name, box, log = (rest.split() + ["", ""])[:3]
            plan["box"][name], plan["log"][name] = box, log
        elif kind == "budget":
            plan["budget"], plan["precheck"], plan["grace"], plan["max_files"] = map(int, rest.split())
        elif kind == "nofunction":
            plan["missing"].append(rest)
    return plan


def test_gpu_results_come_first_and_the_cpu_suite_last():
    steps = _plan()["steps"]
    assert steps[0] == "install" and steps[-1] == "suite", steps
    assert set(GPU_STEPS) <= set(steps), steps
    assert max(steps.index(s) for s in GPU_STEPS) < steps.index("suite"), steps
    assert steps.index("gpu-info") < min(steps.index(s) for s in GPU_STEPS), "the GPU line comes before the results"


def test_every_step_has_a_time_box_and_they_fit_one_device_run():
    plan = _plan()
    assert not plan["missing"], f"steps without a step_<name> function: {plan['missing']}"
    boxes = {s: plan["box"][s] for s in plan["steps"]}
    assert all(b.isdigit() and int(b) > 0 for b in boxes.values()), boxes
    total = plan["precheck"] + sum(int(b) for b in boxes.values())
    assert total <= plan["budget"] <= 570, f"boxes {boxes} + precheck {plan['precheck']} = {total} s, budget {plan['budget']} s"
    # the suite's box is a floor (it gets what is left of the budget); after it: the kill grace and the gather
    assert plan["budget"] + plan["grace"] + 20 <= DEVICE_LIMIT_S
    groups = {plan["log"][s] for s in plan["steps"]}
    assert "" not in groups, plan["log"]
    assert len(groups) + 2 <= plan["max_files"] == 8, "one log per group, the summary and the tarball"


def test_the_main_loop_runs_the_steps_in_the_planned_order_each_under_timeout():
    text = GPU.read_text(encoding="utf-8")
    assert 'for step in "${STEPS[@]}"' in text
    assert 'timeout -k "$KILL_GRACE" "$box" bash "$REPO/.ci/gpu" --step "$name"' in text
    assert "pip install" not in text.replace(".ci/gpu-install", ""), "no network there: only .ci/gpu-install installs"


def test_a_step_is_stopped_at_its_box(tmp_path):
    """A step that runs on is killed at its box with whatever it started, and recorded as timed out."""
    slow = tmp_path / "slow-python"
    slow.write_text("#!/bin/sh\nsleep 30 &\nsleep 30\n")
    slow.chmod(0o755)
    work = tmp_path / "work"
    (work / "logs").mkdir(parents=True)
    start = time.monotonic()
    proc = _bash(f'source {GPU}; export WORK={work} PYTHON={slow} DRY=""; KILL_GRACE=1; run_step gpu-info 2',
                 timeout=30)
    took = time.monotonic() - start
    assert proc.returncode == 0, proc.stderr
    name, box, _used, status = (work / "steps.tsv").read_text(encoding="utf-8").strip().split("\t")
    assert (name, box, status) == ("gpu-info", "2", "TIMED OUT at its box"), status
    assert took < 10, f"the step ran {took:.0f} s past its 2 s box"


def _write_wheel(folder: Path, name: str, version: str, module: str, requires: tuple[str, ...] = ()) -> Path:
    """A minimal pure-Python wheel (no build backend, no network): ``module`` as ``<name>.py``."""
    dist = f"{name}-{version}.dist-info"
    files = {
        f"{name}.py": module,
        f"{dist}/METADATA": "Metadata-Version: 2.1\nName: {}\nVersion: {}\n{}".format(
            name, version, "".join(f"Requires-Dist: {r}\n" for r in requires)),
        f"{dist}/WHEEL": "Wheel-Version: 1.0\nGenerator: test\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist}/RECORD,,")
    files[f"{dist}/RECORD"] = "\n".join(record) + "\n"
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as zf:
        for path, text in files.items():
            zf.writestr(path, text)
    return wheel


# A docstring with an invalid escape: compiling it warns (SyntaxWarning on 3.12, DeprecationWarning
# before), which -W error turns into a SyntaxError, as torchao 0.18's quant_api.py did on the GPU machine.
ESCAPE_MODULE = 'def f():\n    """Match names like a\\.b."""\n\n\nVALUE = 42\n'


def _offline_env(tmp_path: Path) -> dict:
    """pip with no index, no config, no cache and a proxy that refuses: any download would fail."""
    return {"PYTHON": sys.executable, "PIP_CONFIG_FILE": os.devnull, "PIP_NO_INDEX": "1", "PIP_FIND_LINKS": "",
            "PIP_NO_CACHE_DIR": "1", "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
            "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "HOME": str(tmp_path)}


def test_the_install_step_works_offline_and_byte_compiles(tmp_path):
    folder = tmp_path / "whl"
    folder.mkdir()
    _write_wheel(folder, "escapedoc", "1.0", ESCAPE_MODULE)
    target = tmp_path / "site"
    proc = subprocess.run(["bash", str(INSTALL), str(folder), str(target)], check=False, capture_output=True, text=True,
                          timeout=120, env={**os.environ, **_offline_env(tmp_path)})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "installed 1 wheels" in proc.stdout
    assert (target / "escapedoc.py").is_file() and (target / "escapedoc-1.0.dist-info").is_dir()
    load = [sys.executable, "-W", "error", "-c", "import escapedoc; print(escapedoc.VALUE)"]
    env = {**os.environ, "PYTHONPATH": str(target)}
    ran = subprocess.run(load, check=False, capture_output=True, text=True, timeout=60, env=env)
    assert ran.returncode == 0 and ran.stdout.strip() == "42", ran.stderr
    # and the byte-compiling is what makes it work: from source, the warning is an error
    shutil.rmtree(target / "__pycache__")
    ran = subprocess.run(load, check=False, capture_output=True, text=True, timeout=60,
                         env={**env, "PYTHONDONTWRITEBYTECODE": "1"})
    assert ran.returncode != 0 and "SyntaxError" in ran.stderr, ran.stderr


def test_the_install_step_says_what_to_do_without_wheels(tmp_path):
    proc = subprocess.run(["bash", str(INSTALL), str(tmp_path / "none"), str(tmp_path / "site")], check=False,
                          capture_output=True, text=True, timeout=60, env={**os.environ, "PYTHON": sys.executable})
    assert proc.returncode == 1
    assert "no wheels in" in proc.stderr and ".ci/gpu-wheels" in proc.stderr, proc.stderr


def _outs() -> dict[str, tuple[int, int]]:
    return {p.relative_to(REPO).as_posix(): (p.stat().st_size, p.stat().st_mtime_ns) for p in (REPO / "snippets").rglob("*.out")}


STUB = """#!/bin/bash
# a stand-in Python: logs each call; runs inline code (-c, -) with the real one; answers the GPU check
echo "${PYTEST_ADDOPTS:-} | ${PYTHONPATH:-} | $*" >> "$STUB_LOG"
case "$*" in *torch.cuda.is_available*) [ -n "${STUB_GPU:-}" ] && { echo "2.11.0+cu130"; exit 0; } ;; esac
case "${1:-}" in -|-c) exec REAL "$@" ;; esac
exit 0
"""


@pytest.mark.parametrize("mode", ["dry-run", "gpu-machine"])
def test_the_whole_run_in_order_writing_nothing_into_the_tree(tmp_path, mode):
    """End to end with a stand-in Python: what each step runs, in order; the tree untouched."""
    stub = tmp_path / "python"
    stub.write_text(STUB.replace("REAL", sys.executable))
    stub.chmod(0o755)
    log, out = tmp_path / "calls.log", tmp_path / "out"
    folder = tmp_path / "whl"
    folder.mkdir()
    _write_wheel(folder, "escapedoc", "1.0", ESCAPE_MODULE)
    env = {"PYTHON": str(stub), "STUB_LOG": str(log), "OUT": str(out), "TMPDIR": str(tmp_path),
           "GPU_WHEELS": str(folder), "PYTHONPATH": "", "SUITE_ARGS": "", "CUDA_TESTS_ARGS": "", "PYTEST_ADDOPTS": "",
           "GPU_DRY_RUN": "1" if mode == "dry-run" else "", "STUB_GPU": "" if mode == "dry-run" else "1"}
    before = _outs()
    proc = subprocess.run(["bash", str(GPU), "--quick"], check=False, capture_output=True, text=True, timeout=300, cwd=REPO,
                          env={**os.environ, **env})
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert _outs() == before, "the run wrote into snippets/ (it records in a copy)"

    calls = log.read_text(encoding="utf-8").splitlines()
    args = [c.split(" | ", 2)[2] for c in calls]

    def first(*needles: str) -> int:
        found = [i for i, a in enumerate(args) if all(n in a for n in needles)]
        assert found, f"no call with {needles} in:\n" + "\n".join(args)
        return found[0]

    if mode == "dry-run":
        install = first(".ci/gpu-wheels --check")
    else:
        install = first("-m pip install", "--no-index", "--no-deps", "--target")
    if mode == "gpu-machine":
        assert first("-W ignore -m compileall") > install
    scripts = first("-m pytest", "-m cuda", "--snippets-as-files", "--update-outputs", "--record-tested-with")
    bench = first("-m benchmarks --device cuda", "--quick")
    probes = first("-m benchmarks.probes --out")
    cuda_tests = first("-m pytest", "-m cuda", "-rfEs")
    suite = first("-m pytest", "not site and not cuda")
    assert install < scripts < bench < probes < cuda_tests < suite, args
    assert ("--dry-run" in args[bench]) == (mode == "dry-run"), args[bench]
    for call in calls:
        addopts, pythonpath, argv = call.split(" | ", 2)
        if "-m pytest" in argv:
            assert "-p no:benchmark" in argv and "-p no:benchmark" in addopts, call
            assert str(REPO) in pythonpath.split(":") or "/tree" in pythonpath, call
    assert f"-n {os.cpu_count()}" in args[suite] or "-n " in args[suite]

    files = sorted(p.name for p in out.iterdir())
    assert len(files) <= 8, files
    summary = (out / "summary.txt").read_text(encoding="utf-8")
    planned = _plan()["steps"]
    rows = [line.split() for line in summary.splitlines() if line.split()[:1] and line.split()[0] in planned]
    assert [r[0] for r in rows] == planned and all(r[-1] == "passed" for r in rows), summary
    assert ("DRY RUN" in summary) == (mode == "dry-run")


def test_no_gpu_stops_at_once_with_exit_2(tmp_path):
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: .ci/gpu would run")
    proc = subprocess.run(["bash", str(GPU)], check=False, capture_output=True, text=True, timeout=120, cwd=REPO,
                          env={**os.environ, "PYTHON": sys.executable, "OUT": str(tmp_path / "out"), "GPU_DRY_RUN": ""})
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "no CUDA GPU is visible" in proc.stderr and "GPU_DRY_RUN=1" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()


def _gather(repo: Path, work: Path, out: Path, dry: str = "") -> subprocess.CompletedProcess:
    return _bash(f'source {GPU}; export DRY="{dry}" PYTHON={sys.executable}; gather {repo} {work} {out}',
                 env={"PYTHONPATH": str(REPO)})


def test_the_gather_ships_new_and_changed_outputs_never_empty_ones(tmp_path):
    repo, work, out = tmp_path / "repo", tmp_path / "work", tmp_path / "out"
    committed = {"snippets/a/x_cuda.out": "1\n", "snippets/a/same_cuda.out": "3\n",
                 "snippets/a/x_cuda.test.toml": 'requires = ["cuda"]\n', "snippets/a/other.txt": "a\n",
                 "docs/tested-with.json": '{"cpu": {}}\n'}
    recorded = {"snippets/a/x_cuda.out": "2\n",                      # changed: shipped
                "snippets/a/x_cuda.test.toml": 'requires = ["cuda"]\n[recorded]\n',  # goes with it
                "snippets/a/new_cuda.out": "hello\n",                # new: shipped
                "snippets/a/failed_cuda.out": "",                    # created empty, the script failed: never
                "snippets/a/same_cuda.out": "3\n",                   # unchanged: not shipped
                "snippets/a/other.txt": "b\n"}                       # not an output: listed, not shipped
    for root, files in ((repo, committed), (work / "tree", recorded)):
        for rel, text in files.items():
            (root / rel).parent.mkdir(parents=True, exist_ok=True)
            (root / rel).write_text(text, encoding="utf-8")
    (work / "results" / "cuda").mkdir(parents=True)
    (work / "results" / "cuda" / "gpu_matmul.json").write_text("{}", encoding="utf-8")
    (work / "tested-with.json").write_text('{"cpu": {}, "cuda": {}}\n', encoding="utf-8")
    (work / "logs").mkdir()
    steps = _plan()["steps"]
    for step in steps:
        (work / "logs" / f"{step}.log").write_text(f"===== {step}\n", encoding="utf-8")
    (work / "logs" / "suite.log").write_text("FAILED tests/test_x.py::test_y - AssertionError\n", encoding="utf-8")
    (work / "logs" / "cuda-scripts.log").write_text("....  [100%]tested-with: recorded {'torch': '2.11.0'}\n",
                                                    encoding="utf-8")
    (work / "steps.tsv").write_text("".join(f"{s}\t10\t1\t{'FAILED (exit 1)' if s == 'suite' else 'passed'}\n" for s in steps),
                                    encoding="utf-8")
    for _ in range(2):  # a second gather into the same folder leaves the same files
        proc = _gather(repo, work, out)
        assert proc.returncode == 0, proc.stdout + proc.stderr
    files = sorted(p.name for p in out.iterdir())
    assert len(files) <= 8 and "summary.txt" in files and "results.tar.gz" in files, files
    with tarfile.open(out / "results.tar.gz") as tar:
        members = {m.name: m.size for m in tar.getmembers()}
    assert set(members) == {"benchmarks/results/cuda/gpu_matmul.json", "docs/tested-with.json",
                            "snippets/a/x_cuda.out", "snippets/a/x_cuda.test.toml", "snippets/a/new_cuda.out"}, members
    assert all(size > 0 for name, size in members.items() if name.endswith(".out")), members
    summary = (out / "summary.txt").read_text(encoding="utf-8")
    assert "snippets/a/failed_cuda.out" in summary.split("recorded nothing", 1)[1], summary
    assert "FAILED tests/test_x.py::test_y" in summary and "1 of 7 did not pass" in summary, summary
    assert "tested-with: recorded" in summary
    assert (repo / "snippets/a/x_cuda.out").read_text() == "1\n", "the gather never writes into the tree"


def test_a_dry_gather_names_its_tarball_so(tmp_path):
    work = tmp_path / "work"
    (work / "results" / "cuda").mkdir(parents=True)
    (work / "results" / "cuda" / "gpu_matmul.json").write_text("{}", encoding="utf-8")
    proc = _gather(tmp_path / "repo", work, tmp_path / "out", dry="1")
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (tmp_path / "out" / "results-DRY-RUN.tar.gz").is_file()
    assert not (tmp_path / "out" / "results.tar.gz").exists()
    assert (tmp_path / "out" / "summary.txt").read_text(encoding="utf-8").startswith("DRY RUN")


# ---- the wheel folder -----------------------------------------------------------------------

def test_the_requirements_are_the_extras_minus_the_machine_and_the_site():
    reqs = {wheels.canonicalize_name(r.name): r for r in wheels.extras_requirements()}
    assert {"torchao", "pytest", "pytest-codeblocks", "nbclient", "ipykernel", "ruff", "mkdocs", "nvidia-ml-py"} <= set(reqs)
    assert "playwright" not in reqs and "mkdocs-material" not in reqs
    lacking = {wheels.canonicalize_name(r.name) for r in wheels.wanted(list(reqs.values()))}
    assert "pytest" in lacking, "carried anyway: the machine's pytest is older than 9"
    assert not lacking & {"torch", "numpy", "matplotlib", "onnx", "onnxruntime", "transformers", "nvidia-ml-py"}, lacking


def test_the_closure_stops_at_what_the_machine_has_and_never_takes_torch():
    req = wheels.Requirement
    metadata = {"a": ("1.0", ["b>=1", "numpy", "c; sys_platform == 'win32'", "d; extra == 'x'"]),
                "b": ("2.0", ["torch>=2"]), "numpy": ("2.0", ["e"])}
    assert wheels.closure([req("a")], metadata) == {"a": "1.0", "b": "2.0"}
    with pytest.raises(SystemExit, match="nvidia-cublas-x"):
        wheels.closure([req("a")], {**metadata, "a": ("1.0", ["nvidia-cublas-x"]), "nvidia-cublas-x": ("1", [])})


def test_check_finds_a_missing_dependency_a_wrong_version_and_two_versions(tmp_path):
    req = wheels.Requirement
    folder = tmp_path / "whl"
    folder.mkdir()
    _write_wheel(folder, "alpha", "1.0", "", requires=("beta>=2", "numpy", "gamma; sys_platform == 'win32'"))
    _write_wheel(folder, "beta", "2.1", "")
    assert wheels.check(folder, [req("alpha")]) == []
    problems = wheels.check(folder, [req("alpha"), req("beta<2"), req("delta")])
    assert any("beta<2" in p for p in problems) and any("delta" in p for p in problems), problems
    _write_wheel(folder, "beta", "2.2", "")
    with pytest.raises(SystemExit, match="more than one wheel"):
        wheels.check(folder, [req("alpha")])


def test_the_fetched_folder_is_complete_offline():
    """The real .whl/, where .ci/gpu-wheels has filled it (it is git-ignored: absent on a fresh clone)."""
    if not (wheels.WHEELS / "requirements.txt").is_file():
        pytest.skip("no .whl/ here: `python3 .ci/gpu-wheels` fills it before a GPU session")
    assert wheels.check(wheels.WHEELS) == []
    assert not [p.name for p in wheels.WHEELS.glob("*.whl") if wheels.NEVER.match(wheels.canonicalize_name(p.name.split("-")[0]))]


def _pypi_answers() -> bool:
    proc = subprocess.run([sys.executable, "-m", "pip", "index", "versions", "pytest-codeblocks",
                           "--disable-pip-version-check"], check=False, capture_output=True, text=True, timeout=60)
    return proc.returncode == 0 and "pytest-codeblocks" in proc.stdout


def test_the_wheel_list_resolves_for_the_gpu_machine():
    """pip resolves the GPU run's requirements for CPython 3.12 manylinux under constraints.txt
    (needs the package index: skipped where it does not answer)."""
    try:
        reachable = _pypi_answers()
    except subprocess.TimeoutExpired:
        reachable = False
    if not reachable:
        pytest.skip("the package index does not answer here (no network): the resolution needs it")
    pins = wheels.resolve(wheels.wanted(wheels.extras_requirements()))
    assert {"torchao", "pytest", "pytest-codeblocks", "ipykernel", "nbclient"} <= set(pins), pins
    assert pins["pytest"].startswith("9."), pins
    assert not [n for n in pins if wheels.NEVER.match(n) or (n in wheels.MACHINE_HAS and n not in wheels.CARRY_ANYWAY)], pins
    constraints = (REPO / "constraints.txt").read_text(encoding="utf-8").lower()
    unpinned = [n for n in pins if f"\n{n}==" not in "\n" + constraints.replace("_", "-")]
    assert not unpinned, f"constraints.txt pins none of {unpinned}: add them so the GPU run is reproducible"
