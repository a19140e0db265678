"""The machinery that makes the suite fast must not make it blind (README "What the caches key on").

* The site hooks parse each page once (docs/hooks/_common.py): the hooks share one tree, and
  the last hook writes it back with every hook's edits.
"""

from __future__ import annotations

import importlib.util
import re
import sys
from types import SimpleNamespace

import pytest
import yaml

from docs_tools.docs_model import REPO

# -- one parse per page in the site hooks ---------------------------------------------------------


def _hook_module(name: str):
    hooks = str(REPO / "docs" / "hooks")
    sys.path.insert(0, hooks)
    try:
        spec = importlib.util.spec_from_file_location(f"{name}_under_test", REPO / "docs" / "hooks" / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # as MkDocs loads a hook
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(hooks)
    return module


def _page(src="guide/x.md"):
    return SimpleNamespace(file=SimpleNamespace(src_uri=src))


def test_the_hooks_share_one_tree_and_the_last_writes_it_back(monkeypatch):
    common = _hook_module("_common")
    parses = []
    real = common.soup
    monkeypatch.setattr(common, "soup", lambda html: parses.append(html) or real(html))
    page, html = _page(), "<h1>T</h1><p>one</p>"
    tree = common.page_tree(html, page)
    assert common.page_tree(html, page) is tree and len(parses) == 1  # the next hook gets the same tree
    tree.p.string = "two"
    passed = common.edited(html, page)
    assert passed is html  # handed on unchanged: the next hook recognises it
    assert common.page_tree(passed, page) is tree and len(parses) == 1
    assert common.page_html(passed, page) == "<h1>T</h1><p>two</p>"  # written back once, with the edit
    # nothing edited: the HTML is returned as it came
    other = "<p>same</p>"
    common.page_tree(other, page)
    assert common.page_html(other, page) is other


def test_an_edit_is_never_lost_to_html_changed_between_hooks():
    common = _hook_module("_common")
    page, html = _page(), "<p>one</p>"
    common.page_tree(html, page).p.string = "two"
    common.edited(html, page)
    with pytest.raises(common.PluginError, match="harness_check.py must stay the last hook"):
        common.page_tree("<p>something else</p>", page)


def test_harness_check_is_the_last_hook_that_reads_page_content():
    """It writes the shared tree back: a hook after it that edits the tree would be lost."""
    config = yaml.load((REPO / "mkdocs.yml").read_text(encoding="utf-8"), Loader=_IgnoreTags)
    hooks = [h for h in config["hooks"] if "def on_page_content" in (REPO / h).read_text(encoding="utf-8")]
    assert hooks[-1] == "docs/hooks/harness_check.py", hooks
    for hook in hooks:  # those that parse HTML use the shared tree
        text = (REPO / hook).read_text(encoding="utf-8")
        assert "soup" not in text or "page_tree(" in text, hook


class _IgnoreTags(yaml.SafeLoader):
    pass


_IgnoreTags.add_multi_constructor("!", lambda loader, suffix, node: None)


# -- the copy-paste test's pages: run again whenever anything that decides them changed -----------


def _context(**change):
    from tests.support.copy_paste import RunContext

    fields = dict(wheel="wheel-files-1", venv="reader-0123456789abcdef",
                  packages=("numpy-2.3.5.dist-info", "torch-2.13.0.dist-info"),
                  cpu="x86_64 avx512_vnni avx512f avx2 cores=2", env=(("HOME", "/home/r"), ("LANG", "C.UTF-8")),
                  runner="runner-1")
    fields.update(change)
    return RunContext(**fields)


class FakeRunner:
    """Stands in for the reader's interpreter: each block 'prints' ``printed`` (default: what the page shows)."""

    def __init__(self, printed=None, fail=False):
        self.calls, self.printed, self.fail = [], printed, fail

    def __call__(self, blocks, workdir, env, timeout, files, python=None):
        from tests.support.copy_paste import Outcome

        self.calls.append(env)
        status = "failed" if self.fail else "ok"
        return Outcome(results=[{"index": b.index, "status": status, "error": "boom"} for b in blocks],
                       stdout={b.index: self.printed if self.printed is not None else (b.expected or "") for b in blocks},
                       stderr={}, returncode=0, tail="")


def _blocks(**change):
    from tests.support.paste_plan import Block

    fields = dict(index=1, kind="paste", code="import torch\nprint(torch.tensor(1.5).item())", expected="1.5\n",
                  origin="docs/en/x.md:3")
    fields.update(change)
    return [Block(**fields)]


def test_a_page_that_passed_runs_again_when_any_one_of_its_inputs_changes(tmp_path, monkeypatch):
    from docs_tools import warning_policy
    from docs_tools.outputs import Rule
    from tests.support.copy_paste import PageCache, run_page

    cache, runner = PageCache(root=tmp_path / "cache"), FakeRunner()
    work = tmp_path / "work"
    work.mkdir()

    def run(blocks=None, files=None, context=None, env=None, timeout=300):
        context = context or _context()
        env = env if env is not None else {**dict(context.env), "PWD": str(work), "SHLVL": "2"}
        found, ran = run_page("docs/en/x.md", blocks or _blocks(), files if files is not None else {"data.csv": "1,2\n"},
                              context, env, work, timeout, None, cache, shown=1, runner=runner)
        assert not found, found
        return ran

    assert run() is True
    assert run() is False, "the same page with the same inputs ran again"
    # the shell's state and the page's own folder are not inputs
    assert run(env={**dict(_context().env), "PWD": "/elsewhere", "OLDPWD": "/", "SHLVL": "5", "_": "/bin/x"}) is False
    # nor is what the caller's shell decides (CI's has no SHELL and another PATH after the venv's bin)
    assert run(env={**dict(_context().env), "PATH": "/reader/bin:/ci/bin", "SHELL": "/bin/zsh"}) is False

    changed_env = tuple(sorted((*_context().env, ("OMP_NUM_THREADS", "1"))))
    one_change = {
        "the code as copied": dict(blocks=_blocks(code="import torch\nprint(torch.tensor(1.5).item()) ")),
        "the expected output": dict(blocks=_blocks(expected="1.50\n")),
        "a tolerance rule": dict(blocks=_blocks(tolerance=[Rule(line="^1", why="spread seen on AVX2", abs=0.1)])),
        "the stderr it may write": dict(blocks=_blocks(allow_stderr=["^Failed to load"])),
        "why a block is skipped": dict(blocks=_blocks(skip="needs a CUDA GPU")),
        "saved as a file": dict(blocks=_blocks(kind="file", title="x.py")),
        "a file saved beside the blocks": dict(files={"data.csv": "1,3\n"}),
        "the time it may take": dict(timeout=301),
        "the wheel's files": dict(context=_context(wheel="wheel-files-2")),
        "the reader venv's key": dict(context=_context(venv="reader-fedcba9876543210")),
        "the torch version": dict(context=_context(packages=("numpy-2.3.5.dist-info", "torch-2.11.0.dist-info"))),
        "the CPU class": dict(context=_context(cpu="x86_64 amx_tile amx_bf16 amx_int8 avx512_fp16 avx512_bf16 avx512_vnni avx512f avx2 cores=2")),
        "an environment variable of the run": dict(context=_context(env=changed_env), env={**dict(changed_env), "PWD": str(work)}),
        "the code that runs and judges the blocks": dict(context=_context(runner="runner-2")),
    }
    for what, change in one_change.items():
        before = len(runner.calls)
        assert run(**change) is True, f"{what} changed, and the page was served from the cache"
        assert len(runner.calls) == before + 1, what
    extra = warning_policy.AllowedWarning(category="UserWarning", prefix="a new exception", reason="the test")
    monkeypatch.setattr(warning_policy, "ALLOWED", (*warning_policy.ALLOWED, extra))
    assert run() is True, "the warnings policy changed, and the page was served from the cache"


def test_a_page_that_failed_runs_every_time(tmp_path):
    from tests.support.copy_paste import PageCache, run_page

    cache = PageCache(root=tmp_path / "cache")
    for runner in (FakeRunner(printed="1.25\n"), FakeRunner(fail=True)):
        for _ in range(2):
            context = _context()
            found, ran = run_page("docs/en/x.md", _blocks(), {}, context, dict(context.env), tmp_path, 300, None, cache,
                                  shown=1, runner=runner)
            assert found and ran
        assert len(runner.calls) == 2
    assert not list((tmp_path / "cache").glob("*.json"))


def test_a_page_runs_in_exactly_the_environment_its_key_names(tmp_path):
    from tests.support.copy_paste import PageCache, run_page

    context = _context()
    with pytest.raises(AssertionError, match="another environment"):
        run_page("docs/en/x.md", _blocks(), {}, context, {**dict(context.env), "OMP_NUM_THREADS": "1"}, tmp_path, 300,
                 None, PageCache(root=tmp_path / "cache"), shown=1, runner=FakeRunner())


def test_the_run_context_reads_the_reader_venv_the_wheel_and_the_cpu(tmp_path):
    import zipfile

    from tests.support.copy_paste import run_context
    from tests.support.reader_venv import ReaderVenv
    from tests.support.shared_cache import cpu_class

    venv = tmp_path / "reader-0123456789abcdef"
    for name in ("torch-2.13.0.dist-info", "numpy-2.3.5.dist-info"):
        (venv / "lib" / "python3.11" / "site-packages" / name).mkdir(parents=True)
    wheel = tmp_path / "reference_impl-0.1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("reference_impl-0.1.0.dist-info/RECORD", "reference_impl/__init__.py,sha256=abc,10\n")
    context = run_context(ReaderVenv(venv), wheel, {"HOME": "/home/r", "PWD": "/x"})
    assert context.torch == "2.13.0" and context.venv == venv.name and context.cpu == cpu_class()
    assert context.env == (("HOME", "/home/r"),)
    with zipfile.ZipFile(wheel, "w") as z:
        z.writestr("reference_impl-0.1.0.dist-info/RECORD", "reference_impl/__init__.py,sha256=abd,10\n")
    assert run_context(ReaderVenv(venv), wheel, {"HOME": "/home/r"}).wheel != context.wheel



def test_the_reader_venv_is_made_by_the_bare_python_with_the_same_key():
    """.ci/setup makes the reader venv in the background with the machine's Python, before .venv
    exists (`python -m tests.support.reader_venv`): the module must import with the standard
    library alone, and name the same checkout, languages and venv as the suite's Python."""
    import subprocess

    from docs_tools.docs_model import LANGS
    from tests.support import reader_venv

    assert (reader_venv.REPO, reader_venv.LANGS) == (REPO, LANGS)
    # -S: no site-packages at all, as on a machine where nothing is installed yet
    bare = getattr(sys, "_base_executable", sys.executable)
    proc = subprocess.run([bare, "-S", "-c", "from tests.support import reader_venv as r; print(r.reader_venv_path())"],
                          cwd=REPO, capture_output=True, text=True, timeout=60, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == str(reader_venv.reader_venv_path())
    assert "-m tests.support.reader_venv" in (REPO / ".ci" / "setup").read_text(encoding="utf-8")

def test_executed_notebooks_are_keyed_on_the_cpu_and_its_kernel_variables(monkeypatch):
    """The build's .cache (executed notebooks among it) is shared by the clones on the machine
    (.ci/setup): outputs computed under the AVX2 kernel variables, or on another CPU, are not
    another build's (docs/hooks/notebooks.py)."""
    notebooks = _hook_module("notebooks")
    keys = set()
    for value in (None, "avx2"):
        if value is None:
            monkeypatch.delenv("ATEN_CPU_CAPABILITY", raising=False)
        else:
            monkeypatch.setenv("ATEN_CPU_CAPABILITY", value)
        keys.add(notebooks._outputs_key())
    monkeypatch.setattr(notebooks, "_cpu_flags", lambda: "avx2 fma sse4_2")
    keys.add(notebooks._outputs_key())
    assert len(keys) == 3


def test_the_cpu_class_names_the_features_that_change_torchs_kernels():
    from tests.support.shared_cache import CPU_FLAGS, cpu_class

    assert {"amx_tile", "avx512_fp16", "avx512_bf16", "avx512_vnni", "avx512f", "avx2"} <= set(CPU_FLAGS)
    assert "cores=" in cpu_class()


# -- the site build cache ------------------------------------------------------------------------


def test_the_build_key_names_the_config_the_folder_and_the_environment(tmp_path, monkeypatch):
    from tests.support.site_fixtures import NOT_FOR_THE_BUILD, build_env, build_key

    base = dict(config=REPO / "mkdocs.yml", name="ja", env={"HOME": "/home/r", "LANG": "C.UTF-8"}, inputs="inputs-1")
    key = build_key(**base)
    zip_a, zip_b = tmp_path / "a.zip", tmp_path / "b.zip"
    zip_a.write_bytes(b"one")
    zip_b.write_bytes(b"two")
    for what, change in {
        "the files and tools it reads": dict(inputs="inputs-2"),
        "the config": dict(config=REPO / "mkdocs.en.yml"),
        "the folder's name": dict(name="en"),
        "a variable of its environment": dict(env={**base["env"], "SITE_URL": "https://example.org/"}),
        "another value of a variable": dict(env={**base["env"], "LANG": "ja_JP.UTF-8"}),
        "the offline edition it publishes": dict(env={**base["env"], "OFFLINE_EDITION": str(zip_a)}),
    }.items():
        assert build_key(**{**base, **change}) != key, what
    # the zip counts by its content, not by where it lies
    same_a = tmp_path / "c.zip"
    same_a.write_bytes(b"one")
    with_a = build_key(**{**base, "env": {**base["env"], "OFFLINE_EDITION": str(zip_a)}})
    assert build_key(**{**base, "env": {**base["env"], "OFFLINE_EDITION": str(same_a)}}) == with_a
    assert build_key(**{**base, "env": {**base["env"], "OFFLINE_EDITION": str(zip_b)}}) != with_a
    # what the build does not get is not in its key
    for name in ("PYTEST_XDIST_WORKER", "PWD", "SHLVL", "MPLBACKEND", "PYTHONDONTWRITEBYTECODE"):
        assert NOT_FOR_THE_BUILD.match(name), name
        monkeypatch.setenv(name, "anything")
    monkeypatch.setenv("SITE_URL", "https://example.org/")
    env = build_env()
    assert not any(NOT_FOR_THE_BUILD.match(k) for k in env) and "SITE_URL" not in env
    assert build_env({"SITE_URL": "https://x/"})["SITE_URL"] == "https://x/"


def test_one_run_keys_the_same_build_the_same_in_every_process(monkeypatch):
    """.ci/setup's prebuild, pytest's and a worker's fixture ask for the same build with the
    variables each process has set for itself along the way: one key (they once made three); and
    CI, started from another shell than the fresh clone run before it, finds that run's builds."""
    from tests.support.site_fixtures import build_env, build_key

    monkeypatch.setenv("HOME", "/home/r")
    for name in ("SETUP_PREBUILD_SITE", "TORCHINDUCTOR_CACHE_DIR", "NO_MKDOCS_2_WARNING"):
        monkeypatch.delenv(name, raising=False)
    key = build_key(REPO / "mkdocs.yml", "ja", build_env(), "inputs-1")
    monkeypatch.setenv("SETUP_PREBUILD_SITE", "/tmp/ppg-prebuild.x")  # .ci/setup's
    assert build_key(REPO / "mkdocs.yml", "ja", build_env(), "inputs-1") == key
    monkeypatch.delenv("SETUP_PREBUILD_SITE")
    monkeypatch.setenv("TORCHINDUCTOR_CACHE_DIR", "/tmp/torchinductor_root")  # a process that compiled
    monkeypatch.setenv("NO_MKDOCS_2_WARNING", "1")  # a process that imported Material
    env = build_env()
    assert env["TORCHINDUCTOR_CACHE_DIR"] == "/tmp/torchinductor_root"  # the build still gets them
    assert build_key(REPO / "mkdocs.yml", "ja", env, "inputs-1") == key
    # CI's shell and a developer's: another PATH, no SHELL; the build still gets the caller's PATH
    monkeypatch.setenv("PATH", "/tmp/fresh-clone/.venv/bin:/usr/bin:/bin")
    monkeypatch.delenv("SHELL", raising=False)
    assert build_env()["PATH"] == "/tmp/fresh-clone/.venv/bin:/usr/bin:/bin"
    assert build_key(REPO / "mkdocs.yml", "ja", build_env(), "inputs-1") == key
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")  # any other variable still counts
    assert build_key(REPO / "mkdocs.yml", "ja", build_env(), "inputs-1") != key


def test_the_inputs_are_every_file_git_would_keep(tmp_path):
    import subprocess

    from tests.support.site_fixtures import inputs_digest

    repo = tmp_path / "repo"
    repo.mkdir()
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    (repo / ".gitignore").write_text("site/\n")
    (repo / "page.md").write_text("# A page\n")
    subprocess.run(["git", "add", "."], cwd=repo, check=True)
    digest = inputs_digest(repo)
    (repo / "site").mkdir()
    (repo / "site" / "index.html").write_text("built")
    assert inputs_digest(repo) == digest, "an ignored file changed the key"
    (repo / "page.md").write_text("# A page, changed\n")
    changed = inputs_digest(repo)
    assert changed != digest, "a tracked file's change was not seen"
    (repo / "new.md").write_text("# New\n")
    assert inputs_digest(repo) != changed, "a new file git does not ignore was not seen"
    (repo / "new.md").chmod(0o755)
    assert inputs_digest(repo) != changed


FAKE_MKDOCS = '''
import os, sys, time
out = sys.argv[sys.argv.index("-d") + 1]
with open(os.environ["FAKE_COUNT"], "a") as f:
    f.write("built\\n")
time.sleep(0.5)
if os.environ.get("FAKE_FAIL"):
    sys.exit("the build failed on purpose")
os.makedirs(out)
with open(os.path.join(out, "index.html"), "w") as f:
    f.write(os.environ.get("FAKE_TEXT", "<p>page</p>"))
with open(os.path.join(os.path.dirname(out), "llms.txt"), "w") as f:
    f.write("root file")
'''


def _fake_mkdocs(tmp_path, monkeypatch):
    """site_fixtures with a cache in ``tmp_path`` and FAKE_MKDOCS as mkdocs; returns (module, build count file)."""
    from tests.support import site_fixtures

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    count = tmp_path / "count"
    monkeypatch.setenv("FAKE_COUNT", str(count))
    script = tmp_path / "fake_mkdocs.py"
    script.write_text(FAKE_MKDOCS)
    monkeypatch.setattr(site_fixtures, "MKDOCS", [sys.executable, str(script)])
    # the checkout's files held still: other work in the same checkout may change them between two builds
    monkeypatch.setattr(site_fixtures, "inputs_digest", lambda repo=REPO: "the checkout's files")
    return site_fixtures, count


def test_concurrent_builds_of_the_same_inputs_wait_for_one(tmp_path, monkeypatch):
    from concurrent.futures import ThreadPoolExecutor

    site_fixtures, count = _fake_mkdocs(tmp_path, monkeypatch)
    config = REPO / "mkdocs.yml"
    with ThreadPoolExecutor(3) as pool:
        procs = list(pool.map(lambda i: site_fixtures.mkdocs_build(config, tmp_path / f"out{i}" / "ja"), range(3)))
    assert [p.returncode for p in procs] == [0, 0, 0]
    assert count.read_text().count("built") == 1, "three callers, more than one build"
    for i in range(3):  # each caller has its own copy, with the files the build writes beside the site
        assert (tmp_path / f"out{i}" / "ja" / "index.html").read_text() == "<p>page</p>"
        assert (tmp_path / f"out{i}" / "llms.txt").read_text() == "root file"
    (tmp_path / "out0" / "ja" / "index.html").write_text("changed by a test")
    site_fixtures.mkdocs_build(config, tmp_path / "again" / "ja")
    assert (tmp_path / "again" / "ja" / "index.html").read_text() == "<p>page</p>", "a test changed the cache"
    assert count.read_text().count("built") == 1


def test_a_failed_build_is_not_kept_but_reported_once_per_run(tmp_path, monkeypatch):
    site_fixtures, count = _fake_mkdocs(tmp_path, monkeypatch)
    config = REPO / "mkdocs.yml"
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    # FAKE_FAIL reaches the build, so it is in the key: set it on both sides of the comparison
    for _ in range(2):  # the same run: the second worker gets the failure without building again
        _, proc = site_fixtures.cached_build(config, "ja", {"FAKE_FAIL": "1"}, run_dir=run_dir)
        assert proc.returncode != 0 and "on purpose" in proc.stderr
    assert count.read_text().count("built") == 1
    _, proc = site_fixtures.cached_build(config, "ja", {"FAKE_FAIL": "1"}, run_dir=tmp_path)  # the next run
    assert proc.returncode != 0 and count.read_text().count("built") == 2, "a failure was kept for later runs"


def test_a_site_that_depends_on_where_it_was_built_is_refused(tmp_path, monkeypatch):
    site_fixtures, _ = _fake_mkdocs(tmp_path, monkeypatch)
    proc = site_fixtures.mkdocs_build(REPO / "mkdocs.yml", tmp_path / "out" / "ja",
                                      {"FAKE_TEXT": f"<p>from {REPO}/docs/ja/index.md</p>"})
    assert proc.returncode != 0 and "depends on where it was built" in proc.stderr


def test_the_maintainers_readme_is_not_part_of_the_wheel():
    """The site's wheel, whose content keys every copy-paste page (copy_paste.RunContext.wheel), is
    built from the package folders only: its description is reference_impl/README.md. With the
    project's README as the description, every edit of the README ran every page again (600 s)."""
    import tomllib

    readme = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]["readme"]
    assert readme.split("/", 1)[0] in ("reference_impl", "benchmarks"), readme
    source = (REPO / "docs" / "hooks" / "reader_package.py").read_text(encoding="utf-8")
    files = re.search(r"^PACKAGE_FILES = \(([^)]*)\)", source, re.M)
    assert files and '"README.md"' not in files[1], files


# -- site tests that passed with the same inputs (tests/support/site_passes.py) -------------------


def _site_item(nodeid="tests/test_site_a11y.py::test_x[ja]", fixturenames=("base_url",), keywords=("site",)):
    return SimpleNamespace(nodeid=nodeid, fixturenames=list(fixturenames), keywords=set(keywords),
                           stash=pytest.Stash(), setup=None, runtest=None)


def _report(when, passed=True):
    return SimpleNamespace(when=when, passed=passed, user_properties=[])


def test_a_site_test_is_kept_under_its_id_the_site_builds_and_the_browser(monkeypatch):
    from tests.support import site_passes

    assert site_passes.item_key("a", "base-1") != site_passes.item_key("b", "base-1")
    assert site_passes.item_key("a", "base-1") != site_passes.item_key("a", "base-2")
    keys = []
    for build, chromium in (("build-1", "Chromium 1"), ("build-2", "Chromium 1"), ("build-1", "Chromium 2")):
        site_passes.base_key.cache_clear()
        monkeypatch.setattr("tests.support.site_fixtures.build_key", lambda config, name, env, b=build: f"{b}-{name}")
        monkeypatch.setattr(site_passes, "_version", lambda command, c=chromium: c if command == "chromium" else "node 1")
        keys.append(site_passes.base_key())
    site_passes.base_key.cache_clear()
    assert len(set(keys)) == 3, "a site build's key or Chromium's version does not change the site tests' key"


def test_a_site_test_that_passed_all_three_phases_is_kept_and_passes_without_running(tmp_path, monkeypatch):
    from tests.support import site_passes

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.delenv("SITE_TESTS", raising=False)
    monkeypatch.setattr(site_passes, "base_key", lambda: "base-1")
    not_a_site_test = _site_item("tests/test_x.py::test_y", fixturenames=("tmp_path",), keywords=())
    failed, passed, broke_down = _site_item("t::failed"), _site_item("t::passed"), _site_item("t::teardown")
    site_passes.keep_passes([not_a_site_test, failed, passed, broke_down])
    assert site_passes.KEY not in not_a_site_test.stash
    for item, outcome in ((failed, (True, False, True)), (passed, (True, True, True)), (broke_down, (True, True, False))):
        for when, ok in zip(("setup", "call", "teardown"), outcome):
            site_passes.after_phase(item, _report(when, ok))

    again = [_site_item("t::failed"), _site_item("t::passed"), _site_item("t::teardown")]
    site_passes.keep_passes(again)
    assert [site_passes.kept(i) for i in again] == [False, True, False]
    assert again[1].setup is site_passes._pass and again[1].runtest is site_passes._pass
    report = _report("call")
    site_passes.after_phase(again[1], report)
    assert report.user_properties == [("site_test_kept", site_passes.item_key("t::passed", "base-1"))]

    monkeypatch.setenv("SITE_TESTS", "rerun")
    rerun = _site_item("t::passed")
    site_passes.keep_passes([rerun])
    assert not site_passes.kept(rerun) and rerun.runtest is None
