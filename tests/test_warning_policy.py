"""The allow-list of warnings (docs_tools/warning_policy.py) refuses an entry that would silence too much.

An entry with an empty message prefix silenced every warning of its class, in the tests, the
pages, the snippets and the notebooks alike, and nothing said so (issue 39). The policy now
refuses, on import and whenever it is applied, an entry whose prefix is empty, all spaces or
wildcard characters, or too short to name one message, and an entry without a reason.

The module is imported inside the tests, not at the top of this file, so that a bad entry in the
real list fails :func:`test_the_allow_list_in_the_repository_is_accepted` instead of stopping the
collection (``.ci/mutations/numerics_warnings.py`` runs this file with ``--noconftest``, since
``tests/conftest.py`` imports the policy too, and then stops the whole run with the same error).
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import sys
import warnings
from pathlib import Path

import pytest

POLICY_FILE = Path(__file__).resolve().parents[1] / "docs_tools" / "warning_policy.py"


@pytest.fixture
def policy():
    return importlib.import_module("docs_tools.warning_policy")


def _load_fresh(path: Path, name: str = "warning_policy_fresh"):
    """Execute a copy of the policy module as a new module: its import-time check runs again."""
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is made
    try:
        spec.loader.exec_module(module)
    finally:
        del sys.modules[name]
    return module


def test_the_allow_list_in_the_repository_is_accepted():
    """The committed ALLOWED passes the check that runs on import (executed afresh, not from sys.modules)."""
    module = _load_fresh(POLICY_FILE)
    assert module.validate() == module.ALLOWED
    assert module.problems(module.ALLOWED) == []


def test_importing_a_list_with_an_empty_prefix_fails(tmp_path):
    """The check runs when the module is imported: a bad entry stops the tests and the site build before they start."""
    source = POLICY_FILE.read_text(encoding="utf-8")
    start = "ALLOWED: tuple[AllowedWarning, ...] = ("
    assert start in source
    bad = source.replace(start, start + '\n    AllowedWarning("UserWarning", "", "everything, by mistake"),', 1)
    (tmp_path / "warning_policy.py").write_text(bad, encoding="utf-8")
    with pytest.raises(ValueError, match=r"(?s)prefix is empty, which silences every UserWarning.*literal start"):
        _load_fresh(tmp_path / "warning_policy.py", "warning_policy_bad")


GOOD = dict(category="UserWarning", prefix="TypedStorage is deprecated", reason="torch's own pickling raises it")
# '.', '(' and ' ' are characters of a regular expression: pytest's filter must match them literally
DOTTED = dict(category="UserWarning", prefix="`demo.api(` is deprecated", reason="a test entry with regex characters")


@pytest.mark.parametrize(
    "change,message",
    [
        pytest.param(dict(prefix=""), r"prefix is empty, which silences every UserWarning", id="empty-prefix"),
        pytest.param(dict(prefix="   "), r"prefix is empty", id="blank-prefix"),
        pytest.param(dict(prefix=".*"), r"0 letter\(s\).*not wildcards", id="wildcard-prefix"),
        pytest.param(dict(prefix=" .* "), r"prefix is empty|0 letter", id="spaced-wildcard-prefix"),
        pytest.param(dict(prefix="Torch"), r"5 letter\(s\), too few.*at least 10 letters", id="short-prefix"),
        pytest.param(dict(prefix=" TypedStorage is deprecated"), r"starts or ends with a space", id="leading-space"),
        pytest.param(dict(prefix="TypedStorage is deprecated, use"), r"holds ',' or ':'", id="comma"),
        pytest.param(dict(prefix="TypedStorage: is deprecated"), r"holds ',' or ':'", id="colon"),
        pytest.param(dict(reason=""), r"the reason is empty; say why", id="empty-reason"),
        pytest.param(dict(reason="  \n"), r"the reason is empty", id="blank-reason"),
        pytest.param(dict(category="NotAWarning"), r"not a built-in warning class", id="unknown-category"),
        pytest.param(dict(category="ValueError"), r"not a built-in warning class", id="not-a-warning"),
        pytest.param(dict(prefix="User provided device_type of 'cuda'. but CUDA is not available. Disabling"),
                     r"CUDA code must fail", id="cuda-not-available"),
    ],
)
def test_a_bad_entry_is_refused_with_its_fix(policy, change, message):
    """Each kind of bad entry raises PolicyError (a ValueError) whose message names the entry and the fix."""
    entry = policy.AllowedWarning(**{**GOOD, **change})
    assert policy.problems([policy.AllowedWarning(**GOOD)]) == []
    with pytest.raises(policy.PolicyError, match=r"(?s)ALLOWED entry 1 .*" + message) as info:
        policy.validate([entry])
    assert isinstance(info.value, ValueError)


def test_an_entry_listed_twice_is_refused(policy):
    entry = policy.AllowedWarning(**GOOD)
    with pytest.raises(policy.PolicyError, match="ALLOWED entry 2 .*listed twice"):
        policy.validate([entry, policy.AllowedWarning(**{**GOOD, "prefix": GOOD["prefix"].upper()})])


def test_every_way_of_applying_the_list_refuses_a_bad_entry_added_later(policy, monkeypatch):
    """install(), the pytest lines and PYTHONWARNINGS check the list again (an entry added at run time)."""
    monkeypatch.setattr(policy, "ALLOWED", (*policy.ALLOWED, policy.AllowedWarning("UserWarning", "", "oops")))
    for apply in (policy.pytest_filterwarnings_lines, policy.pythonwarnings_env):
        with pytest.raises(policy.PolicyError, match="prefix is empty"):
            apply()
    with warnings.catch_warnings(), pytest.raises(policy.PolicyError, match="prefix is empty"):
        policy.install()


def test_an_accepted_entry_silences_its_message_only(policy, monkeypatch):
    """A good entry ignores the warning it names; another warning of the same class is still an error."""
    monkeypatch.setattr(policy, "ALLOWED", (policy.AllowedWarning(**GOOD),))
    with warnings.catch_warnings():
        policy.install()
        warnings.warn("TypedStorage is deprecated. It will be removed", UserWarning)  # allowed: no error
        with pytest.raises(UserWarning, match="something else"):
            warnings.warn("something else", UserWarning)
    assert policy.pythonwarnings_env() == "error,ignore:TypedStorage is deprecated:UserWarning"


# Each way of applying the list, end to end, on the same warnings: (message, category, let through?).
# pytest's filter lines dropped the message (`ignore::UserWarning`, silencing every UserWarning in every
# test) and no test read them, since the list is empty in the repository (independent review, 2026-11-29).
APPLIED_CASES = [
    ("TypedStorage is deprecated. It will be removed", "UserWarning", True),
    ("typedstorage IS DEPRECATED (any case)", "UserWarning", True),
    ("`demo.api(` is deprecated; use demo_api2", "UserWarning", True),
    ("something else", "UserWarning", False),
    ("`demoXapi(` is deprecated", "UserWarning", False),  # '.' is no wildcard
    ("Old TypedStorage is deprecated", "UserWarning", False),  # a prefix: from the first character
    ("TypedStorage is deprecated", "DeprecationWarning", False),  # another class
]


@pytest.fixture
def two_entries(policy, monkeypatch):
    monkeypatch.setattr(policy, "ALLOWED", (policy.AllowedWarning(**GOOD), policy.AllowedWarning(**DOTTED)))
    return policy


def test_install_lets_through_the_listed_messages_only(two_entries):
    import builtins

    for message, category, allowed in APPLIED_CASES:
        with warnings.catch_warnings():
            two_entries.install()
            raised = False
            try:
                warnings.warn(message, getattr(builtins, category))
            except Warning:
                raised = True
        assert raised != allowed, (message, category, allowed)


def test_the_pytest_filter_lines_keep_each_message_and_class(two_entries):
    """Each line is pytest's `ignore:<message regex>:<class>` of one entry: the message kept, escaped."""
    from _pytest.config import parse_warning_filter

    lines = two_entries.pytest_filterwarnings_lines()
    assert len(lines) == 2, lines
    for line, entry in zip(lines, (GOOD, DOTTED)):
        action, message, category, module, lineno = parse_warning_filter(line, escape=False)
        assert (action, category.__name__, module, lineno) == ("ignore", entry["category"], "", 0), line
        assert message and re.match(message, entry["prefix"], re.I) and re.fullmatch(message, entry["prefix"]), line


def test_a_pytest_session_with_the_filter_lines_fails_on_any_other_warning(two_entries, tmp_path):
    """A real pytest session whose ini filters are `error` and the generated lines (as tests/conftest.py
    adds them): a test raising a listed warning passes; one raising another message of the same class,
    the listed message as another class, or a message the '.' of a prefix would match as a wildcard, fails."""
    import subprocess
    import xml.etree.ElementTree as ET

    lines = "\n".join(f"    {line}" for line in ["error", *two_entries.pytest_filterwarnings_lines()])
    (tmp_path / "pytest.ini").write_text(f"[pytest]\nfilterwarnings =\n{lines}\n", encoding="utf-8")
    body = "import warnings\n\n"
    for n, (message, category, _) in enumerate(APPLIED_CASES):
        body += f"\ndef test_case_{n}():\n    warnings.warn({message!r}, {category})\n"
    (tmp_path / "test_cases.py").write_text(body, encoding="utf-8")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONWARNINGS", "PYTEST_ADDOPTS") and not k.startswith("PYTEST_XDIST")}
    proc = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly",
                           "--junitxml", str(tmp_path / "out.xml"), "test_cases.py"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert (tmp_path / "out.xml").is_file(), proc.stdout + proc.stderr
    outcome = {}
    for case in ET.parse(tmp_path / "out.xml").getroot().iter("testcase"):
        outcome[case.get("name")] = case.find("failure") is None and case.find("error") is None
    expected = {f"test_case_{n}": allowed for n, (_, _, allowed) in enumerate(APPLIED_CASES)}
    assert outcome == expected, f"{proc.stdout[-3000:]}\n(passed = True; expected {expected})"


def test_pythonwarnings_lets_through_the_listed_messages_only(two_entries):
    """A subprocess with PYTHONWARNINGS = pythonwarnings_env() (snippets, notebooks): the same cases."""
    import json
    import subprocess

    code = ("import builtins, json, sys, warnings\nout = []\nfor message, category in json.loads(sys.argv[1]):\n"
            "    try:\n        warnings.warn(message, getattr(builtins, category))\n        out.append(True)\n"
            "    except Warning:\n        out.append(False)\nprint(json.dumps(out))\n")
    env = {**os.environ, "PYTHONWARNINGS": two_entries.pythonwarnings_env()}
    cases = [[m, c] for m, c, _ in APPLIED_CASES]
    proc = subprocess.run([sys.executable, "-c", code, json.dumps(cases)], env=env, capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == [allowed for _, _, allowed in APPLIED_CASES], proc.stdout


# What counts as naming one message: a code identifier, as the message spells it. An all-caps acronym
# counted as a name ("Please use the new API" passed, and silenced "Please use the new API of torch.foo
# instead of bar": independent review, 2026-11-29), and so did a capitalised word, any quote mark (the
# apostrophe of "It's") and any digit.
PLAIN_PREFIXES = {
    "plain-words": "The default value of",
    "plain-words-2": "This overload is deprecated",
    "plain-words-3": "is deprecated and will be removed",
    "an-acronym": "Please use the new API",
    "two-acronyms": "Please use the CUDA API instead",
    "a-capitalised-word": "Please use Adam instead of it",
    "an-apostrophe": "It's deprecated and will be removed",
    "a-version-number": "Will be removed in 2.0 or later",
    "an-abbreviation": "e.g. this is deprecated now",
}
NAMING_PREFIXES = {
    "camel-case": "TypedStorage is deprecated",
    "back-ticked-dotted": "You are using `torch.load` with",
    "dotted": "torch.ao.quantization is deprecated",
    "a-name-with-digits": "Please use the new API settings to control TF32",
    "underscored": "weights_only is now True by default",
    "private": "Call _register_pytree_node instead",
    "a-call": "Calling load( without a map location",
    "a-quoted-word": "Argument 'cuda' is not valid here",
    "a-dtype": "float16 is not supported on this device",
    "back-ticked": "Listed message of `demo_api`",
}


@pytest.mark.parametrize("prefix", PLAIN_PREFIXES.values(), ids=PLAIN_PREFIXES.keys())
def test_a_prefix_of_plain_words_is_refused(policy, prefix):
    """Plain words, acronyms and numbers start the messages of many APIs: such a prefix silences warnings nobody read."""
    found = policy.problems([policy.AllowedWarning("UserWarning", prefix, "a reason")])
    assert any("plain words" in f for f in found), found


@pytest.mark.parametrize("prefix", NAMING_PREFIXES.values(), ids=NAMING_PREFIXES.keys())
def test_a_prefix_that_names_its_api_is_accepted(policy, prefix):
    assert policy.problems([policy.AllowedWarning("UserWarning", prefix, "a reason")]) == []


def test_every_entry_the_tests_and_mutations_write_is_judged_as_meant(policy):
    """The allow-list in the repository, this file's own good entries and the paste driver's are accepted;
    the entries .ci/mutations/ adds to break the list are refused (each for the reason it was written for)."""
    import ast

    assert policy.problems(policy.ALLOWED) == []
    assert policy.problems([policy.AllowedWarning(**GOOD), policy.AllowedWarning(**DOTTED)]) == []
    mutations = (POLICY_FILE.parents[1] / ".ci" / "mutations" / "numerics_warnings.py").read_text(encoding="utf-8")
    written = [kw.value.value for call in ast.walk(ast.parse(mutations))
               if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "format"
               for kw in call.keywords if kw.arg == "entry" and isinstance(kw.value, ast.Constant)]
    assert len(written) >= 3, written
    for entry in written:
        category, prefix, reason = ast.literal_eval(f"({entry})")
        assert policy.problems([policy.AllowedWarning(category, prefix, reason)]), f"a mutation's entry is accepted: {entry}"


def test_the_paste_driver_allows_only_the_listed_message(monkeypatch, tmp_path):
    """The reader's interpreter (tests/support/paste_driver.py) applies an entry to its message only:
    the listed warning passes, in a pasted block and in a saved file alike; another warning of the
    same class still fails the block. ALLOWED is empty in the repository, so this is the only run
    that exercises the driver's filter."""
    import os

    from docs_tools import warning_policy
    from tests.support.copy_paste import run_pasted
    from tests.support.paste_plan import Block

    entry = warning_policy.AllowedWarning("UserWarning", "Listed message of `demo_api`", "this test's own entry")
    monkeypatch.setattr(warning_policy, "ALLOWED", (entry,))
    listed = 'import warnings\nwarnings.warn("Listed message of `demo_api`: allowed", UserWarning)\nprint("went on")'
    other = 'import warnings\nwarnings.warn("Another message of `demo_api`", UserWarning)\nprint("went on")'
    env = {k: v for k, v in os.environ.items() if k != "PYTHONWARNINGS"}
    for kind, title in (("paste", None), ("file", "listed.py")):
        work = tmp_path / f"{kind}-listed"
        work.mkdir()
        outcome = run_pasted([Block(1, kind, listed, title=title, timeout=60)], work, env, timeout=120)
        assert [r["status"] for r in outcome.results] == ["ok"], (kind, outcome.results, outcome.tail)
        work = tmp_path / f"{kind}-other"
        work.mkdir()
        outcome = run_pasted([Block(1, kind, other, title=title and "other.py", timeout=60)], work, env, timeout=120)
        assert [r["status"] for r in outcome.results] == ["failed"], (kind, outcome.results)
        assert "Another message of `demo_api`" in outcome.results[0]["error"], outcome.results[0]["error"]


def test_pytest_gets_no_filter_but_error_and_the_allow_list(pytestconfig):
    """The allow-list is the only way a warning is let through: pyproject.toml's pytest settings say
    ``error`` and nothing else, add no ``-W`` and do not switch the warnings plugin off, and the
    filters in force are ``error`` followed by the allow-list's own lines (tests/conftest.py adds them).
    A blanket ``ignore::DeprecationWarning`` there passed the whole suite (independent review,
    2026-11-29)."""
    import shlex
    import tomllib

    from docs_tools import warning_policy

    ini = tomllib.loads((POLICY_FILE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["pytest"]["ini_options"]
    assert ini.get("filterwarnings") == ["error"], ini.get("filterwarnings")
    addopts = shlex.split(ini.get("addopts", ""))
    assert not [a for a in addopts if a.startswith(("-W", "--pythonwarnings")) or a in ("no:warnings", "-pno:warnings")], addopts
    in_force = pytestconfig.getini("filterwarnings")
    assert in_force[0] == "error" and set(in_force[1:]) <= set(warning_policy.pytest_filterwarnings_lines()), in_force
