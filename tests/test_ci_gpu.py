"""`.ci/gpu`, the one command for a lent GPU machine, and its offline wheels (`.ci/gpu-wheels`,
`.ci/gpu-install`), checked here without a GPU and (but for one test) without a network.

- the plan: GPU steps first, the CPU suite last, every step under a time box, the boxes within
  one device run (600 s), and a step really stopped at its box;
- the script read as bash reads it: everything it runs that can hang (python, pytest, pip, git,
  a step, another script) is under `timeout` with a bound from its table of boxes and a kill grace,
  whichever function or line it is on; and nothing, in a step or anywhere, leaves the box's process
  group or the shell's jobs (setsid, nohup, disown, `&`, job control, a Python's new session), so
  that a step stopped at its box leaves no process running (checked on a real step too);
- a run whose steps fail: each failure reported as such and the run's exit 1 (no `trap` in the
  script may exit, return or catch a box's signals), and the suite boxed by what is left of the
  budget, never the whole of it;
- the offline install: a wheel installed from a folder with no index, byte-compiled so that a
  docstring's invalid escape does not become an error when warnings are errors;
- the whole script end to end with a stand-in Python (GPU_DRY_RUN=1, and a "GPU machine" whose
  torch says yes): the commands in order, each under a `timeout` (the stand-in looks at the processes
  above it) with its step's box, pytest-benchmark off everywhere, nothing written into the tree (no
  empty `.out`), at most 8 files gathered;
- the gather on a fake tree: new and changed outputs shipped, empty ones never;
- the wheel folder: complete offline (every requirement and dependency carried or on the machine),
  one version each, never torch; the real resolution against PyPI where the network answers.
"""

from __future__ import annotations

import base64
import fnmatch
import hashlib
import importlib.machinery
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tarfile
import time
import zipfile
from dataclasses import dataclass
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
    """STEPS, BOX (every key), LOG_OF and the budget, read by sourcing .ci/gpu (which then runs nothing)."""
    proc = _bash(f"""source {GPU}
        printf 'steps %s\\n' "${{STEPS[*]}}"
        for k in "${{!BOX[@]}}"; do printf 'box %s %s\\n' "$k" "${{BOX[$k]}}"; done
        for s in "${{STEPS[@]}}"; do printf 'log %s %s\\n' "$s" "${{LOG_OF[$s]:-}}"; done
        printf 'budget %s %s %s\\n' "$BUDGET" "$KILL_GRACE" "$MAX_OUT_FILES"
        for s in "${{STEPS[@]}}"; do declare -F "step_$s" >/dev/null || echo "nofunction $s"; done""")
    assert proc.returncode == 0, proc.stderr
    plan: dict = {"box": {}, "log": {}, "missing": []}
    for line in proc.stdout.splitlines():
        kind, _, rest = line.partition(" ")
        if kind == "steps":
            plan["steps"] = rest.split()
        elif kind in ("box", "log"):
            name, _, value = rest.partition(" ")
            plan[kind][name] = value
        elif kind == "budget":
            plan["budget"], plan["grace"], plan["max_files"] = map(int, rest.split())
        elif kind == "nofunction":
            plan["missing"].append(rest)
    return plan


def test_gpu_results_come_first_and_the_cpu_suite_last():
    steps = _plan()["steps"]
    assert steps[0] == "install" and steps[-1] == "suite", steps
    assert set(GPU_STEPS) <= set(steps), steps
    assert max(steps.index(s) for s in GPU_STEPS) < steps.index("suite"), steps
    assert steps.index("gpu-info") < min(steps.index(s) for s in GPU_STEPS), "the GPU line comes before the results"


# What runs besides the steps, each under its own box: the GPU check before them (inside BUDGET: the
# run's clock starts before it) and the gather after them (outside BUDGET).
AROUND_THE_STEPS = ("precheck", "gather")
SLACK_S = 5  # bash starting, the work folder, the last lines after the gather


def test_every_step_has_a_time_box_and_they_fit_one_device_run():
    plan = _plan()
    assert not plan["missing"], f"steps without a step_<name> function: {plan['missing']}"
    boxes = plan["box"]
    assert set(boxes) == {*plan["steps"], *AROUND_THE_STEPS}, (
        f"BOX has {sorted(boxes)}: one box per step, the precheck and the gather; a box for something new "
        "must be counted here, before or after the steps")
    assert all(b.isdigit() and int(b) > 0 for b in boxes.values()), boxes
    box = {k: int(v) for k, v in boxes.items()}
    budget, grace = plan["budget"], plan["grace"]
    assert grace > 0
    # the precheck, the steps and the suite's floor fit the budget (the suite gets what is left of it)
    planned = box["precheck"] + sum(box[s] for s in plan["steps"])
    assert planned <= budget <= 570, f"boxes {box} (gather aside) add up to {planned} s; budget {budget} s"
    # the worst case of the wall clock, each box overrun by its kill grace: up to the suite's end, the
    # budget (the suite's box is what is left) or, if the steps before it ran past it, their boxes; then
    # the gather
    before_suite = sum(box[s] + grace for s in ("precheck", *plan["steps"][:-1]))
    worst = max(budget, before_suite) + grace + box["gather"] + grace
    assert worst + SLACK_S <= DEVICE_LIMIT_S, f"worst case {worst} s + {SLACK_S} s: over the device tool's {DEVICE_LIMIT_S} s"
    groups = {plan["log"][s] for s in plan["steps"]}
    assert "" not in groups, plan["log"]
    assert len(groups) + 2 <= plan["max_files"] == 8, "one log per group, the summary and the tarball"


def test_the_main_loop_runs_the_steps_in_the_planned_order():
    text = GPU.read_text(encoding="utf-8")
    assert 'for step in "${STEPS[@]}"' in text
    assert "pip install" not in text.replace(".ci/gpu-install", ""), "no network there: only .ci/gpu-install installs"




# ---- reading the script: everything that can hang runs under `timeout` ----------------------
# The scripts are read as bash reads them: each wrapped in a function and printed back by
# `declare -f` (continuation lines joined, comments dropped, one command per line, heredoc bodies
# apart), then split into simple commands, each with the function it is in. From the top level of
# `bash .ci/gpu`, the reader follows the functions and scripts each command calls; a command under
# `timeout` is boxed with all it runs, and is not followed. Any other command that is not trivial
# (a shell builtin or a file utility) can hang unboxed.

# Commands that finish on their own: shell builtins, and file utilities on local files.
TRIVIAL = frozenset({
    ":", "true", "false", "echo", "printf", "local", "declare", "typeset", "export", "readonly", "unset", "set",
    "shopt", "shift", "return", "exit", "break", "continue", "cd", "pwd", "test", "[", "[[", "let", "trap", "type",
    "rm", "mkdir", "cp", "mv", "chmod", "ln", "touch", "mktemp", "dirname", "basename", "date", "cut", "grep", "sed",
    "tail", "head", "cat", "sort", "tr", "wc", "nproc", "uname", "realpath", "readlink", "ls",
})
ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\[[^]]*\])?\+?=")
EXPANSION = re.compile(r"\$\{[^}]*\}|\$[A-Za-z_][A-Za-z0-9_]*|\$.")
BOX_BOUND = re.compile(r"\$\{BOX\[([^]]+)\]\}")


@dataclass
class _Command:
    words: list[str]
    function: str  # "" at the top level
    entry: str  # "step" / "main": only in that branch of an `if [ "$1" = --step ]`; "" everywhere
    background: bool = False  # ended by `&` (a compound command sent there: words ["<compound>"])


def _normalized(text: str) -> str:
    """The script as bash reads it: `declare -f` of a function whose body is the whole script."""
    proc = subprocess.run(["bash", "-c", '__script__() {\n' + text + '\n}\ndeclare -f __script__'], check=False,
                          capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and not proc.stderr, f"bash cannot read the script: {proc.stderr}"
    return proc.stdout


def _unquote(word: str) -> str:
    return re.sub(r"[\"']", "", word)


def _skip(s: str, i: int) -> int:
    """The index after the quoted or substituted part that starts at s[i]: '...', $'...', "...",
    `...`, $(...), $((...)), ${...}, <(...), >(...), or an array's (...)."""
    if s.startswith("$'", i):
        j = i + 2
        while s[j] != "'":
            j += 2 if s[j] == "\\" else 1
        return j + 1
    if s[i] == "'":
        return s.index("'", i + 1) + 1
    if s[i] in '"`':
        j = i + 1
        while s[j] != s[i]:
            if s[j] == "\\":
                j += 2
            elif s[i] == '"' and (s[j] == "`" or (s[j] == "$" and s[j + 1:j + 2] in ("(", "{"))):
                j = _skip(s, j)
            else:
                j += 1
        return j + 1
    opener = s[i] if s[i] == "(" else s[i + 1]
    closer = {"(": ")", "{": "}"}[opener]
    depth, j = 1, s.index(opener, i) + 1
    while depth:
        c = s[j]
        if c in "'\"`" or (c == "$" and s[j + 1:j + 2] in ("'", "(", "{")):
            j = _skip(s, j)
            continue
        j += 2 if c == "\\" else 1
        depth += (c == opener) - (c == closer)
    return j


def _starts_part(s: str, i: int) -> bool:
    c, n = s[i], s[i + 1:i + 2]
    return c in "'\"`" or (c == "$" and n in ("'", "(", "{")) or (c in "<>" and n == "(")


def _word_end(s: str, i: int) -> int:
    start = i
    while i < len(s):
        c = s[i]
        if c == "\\":
            i += 2
        elif _starts_part(s, i) or (c == "(" and ASSIGNMENT.fullmatch(s[start:i])):
            i = _skip(s, i)
        elif c in " \t\n;&|()<>":
            break
        else:
            i += 1
    return i


def _substitutions(word: str, quoted: bool = False) -> list[str]:
    """The commands substituted into a word ($(...), `...`, <(...)), as source text; ``quoted``:
    the inside of double quotes, where a single quote is a plain character."""
    found, i = [], 0
    while i < len(word):
        if word[i] == "\\":
            i += 2
        elif not quoted and (word[i] == "'" or word.startswith("$'", i)):
            i = _skip(word, i)
        elif word[i] == '"':  # "$(...)" runs a command too
            end = _skip(word, i)
            found += _substitutions(word[i + 1:end - 1], quoted=True)
            i = end
        elif word.startswith(("$((", "${"), i):
            end = _skip(word, i)
            found += _substitutions(word[i + 2:end - 1], quoted)
            i = end
        elif word.startswith(("$(", "<(", ">("), i) or word[i] == "`":
            end = _skip(word, i)
            found.append(word[i + (1 if word[i] == "`" else 2):end - 1])
            i = end
        else:
            i += 1
    return found


REDIRECTION = re.compile(r"\d*(<<<|<<-|<<|&>>|&>|>>|<&|>&|<>|>\||<(?!\()|>(?!\())")
OPERATOR = re.compile(r";;&|;;|;&|&&|\|\||\|&|[;&|()]")


def _lex(s: str) -> list[tuple[str, str]]:
    """("word" | "op" | "redir", text) of normalized bash; heredoc bodies are data, skipped."""
    tokens: list[tuple[str, str]] = []
    heredocs: list[tuple[str, bool]] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c == "\\" and s[i + 1:i + 2] == "\n":
            i += 2
        elif c in " \t":
            i += 1
        elif c == "\n":
            tokens.append(("op", "\n"))
            i += 1
            for delim, strip_tabs in heredocs:
                while i < len(s):
                    end = s.find("\n", i) % (len(s) + 1)
                    line, i = s[i:end], end + 1
                    if (line.lstrip("\t") if strip_tabs else line) == delim:
                        break
            heredocs = []
        elif c == "#":
            i = s.find("\n", i) % (len(s) + 1)
        elif m := REDIRECTION.match(s, i):
            i = m.end()
            while s[i:i + 1] in (" ", "\t"):
                i += 1
            start, i = i, _word_end(s, i)
            if m.group(1) in ("<<", "<<-"):
                heredocs.append((re.sub(r"[\"'\\]", "", s[start:i]), m.group(1) == "<<-"))
            tokens.append(("redir", m.group(0) + s[start:i]))
        elif m := OPERATOR.match(s, i):
            tokens.append(("op", m.group(0)))
            i = m.end()
        else:
            start, i = i, _word_end(s, i)
            tokens.append(("word", s[start:i]))
    return tokens


def _is_step_guard(words: list[str]) -> bool:
    """`[ "${1:-}" = --step ]` and its spellings: the branch that runs only for `--step`."""
    w = [_unquote(x) for x in words]
    return (len(w) >= 4 and w[0] in ("[", "[[", "test") and "--step" in w and bool({"=", "=="} & set(w))
            and bool({"$1", "${1}", "${1:-}"} & set(w)))


def _commands(text: str, function: str = "", entry: str = "") -> list[_Command]:
    """The simple commands of normalized bash, with the function each is in (substitutions included)."""
    out: list[_Command] = []
    words: list[str] = []
    functions: list[tuple[str, int]] = []  # (name, brace depth of its body)
    depth = 0
    pending = ""  # a function header seen: its body is the next `{`
    ifs: list[dict] = []
    cases: list[str] = []  # "pattern" / "body"
    header = ""  # "for" or "case": the words up to `in` / the end of the line are not a command
    after_paren = False

    def where() -> tuple[str, str]:
        branch = next((f["branch"] for f in reversed(ifs) if f["branch"]), entry)
        return (functions[-1][0] if functions else function), branch

    def finish() -> None:
        nonlocal words
        if words:
            fn, branch = where()
            for word in words:
                for sub in _substitutions(word):
                    out.extend(_commands(sub, fn, branch))
            command = _Command(words, fn, branch)
            out.append(command)
            if ifs and ifs[-1]["state"] == "cond":
                ifs[-1]["cond"].append(command)
        words = []

    for kind, text_ in _lex(text):
        if kind == "redir":
            continue
        if cases and cases[-1] == "pattern":  # case patterns: `a | b)`
            if kind == "word" and text_ == "esac":
                cases.pop()
            elif (kind, text_) == ("op", ")"):
                cases[-1] = "body"
            continue
        if header:
            if kind == "word":
                fn, branch = where()
                for sub in _substitutions(text_):
                    out.extend(_commands(sub, fn, branch))
                if header == "case" and text_ == "in":
                    header = ""
                    cases.append("pattern")
            elif header == "for" and text_ in (";", "\n"):
                header = ""
            continue
        if kind == "op":
            if text_ == "(" and (len(words) == 1 or (len(words) == 2 and words[0] == "function")):
                pending, words, after_paren = words[-1], [], True
                continue
            if text_ == ")" and after_paren:
                after_paren = False
                continue
            if text_ == "&":
                if words:
                    finish()
                    out[-1].background = True
                else:  # `( ... ) &`, `{ ...; } &`, `done &`
                    out.append(_Command(["<compound>"], *where(), background=True))
                continue
            finish()
            if text_ in (";;", ";&", ";;&"):
                cases[-1] = "pattern"
            continue
        if not words:  # a reserved word where a command starts
            if text_ in ("for", "select", "case"):
                header = "case" if text_ == "case" else "for"
                continue
            if text_ == "esac":
                cases.pop()
                continue
            if text_ in ("if", "elif"):
                if text_ == "if":
                    ifs.append({"state": "cond", "cond": [], "guard": False, "branch": ""})
                else:
                    ifs[-1].update(state="cond", cond=[], branch="main" if ifs[-1]["guard"] else "")
                continue
            if text_ == "then":
                frame = ifs[-1]
                if not frame["guard"] and len(frame["cond"]) == 1 and _is_step_guard(frame["cond"][0].words):
                    frame["guard"] = True
                    frame["branch"] = "step"
                frame["state"] = "body"
                continue
            if text_ == "else":
                ifs[-1]["branch"] = "main" if ifs[-1]["guard"] else ""
                continue
            if text_ == "fi":
                ifs.pop()
                continue
            if text_ == "{":
                depth += 1
                if pending:
                    functions.append((pending, depth))
                    pending = ""
                continue
            if text_ == "}":
                if functions and functions[-1][1] == depth:
                    functions.pop()
                depth -= 1
                continue
            if text_ in ("do", "done", "while", "until", "!", "time"):
                continue
        words.append(text_)
    finish()
    return out


def _program(words: list[str]) -> tuple[str, list[str]]:
    """The command a simple command runs, and its arguments (assignments, exec and redirections aside)."""
    i = 0
    while i < len(words) and ASSIGNMENT.match(words[i]):
        i += 1
    rest = words[i:]
    while rest and rest[0] in ("exec", "command", "builtin"):
        if rest[0] == "command" and rest[1:2] in (["-v"], ["-V"]):
            return ":", []
        rest = rest[1:]
    return (_unquote(rest[0]), rest[1:]) if rest else ("", [])


@dataclass
class _Timeout:
    where: str
    bound: str  # as written
    key: str  # the BOX key it reads ("$name": one per step), "" when not from BOX
    kill: str  # the -k grace as written, "" if none
    foreground: bool


def _timeout(where: str, args: list[str]) -> _Timeout:
    """A `timeout` command's kill grace and bound, from its arguments."""
    kill, foreground, i = "", False, 0
    while i < len(args) and args[i].startswith("-"):
        a = args[i]
        if a in ("-k", "--kill-after", "-s", "--signal"):
            kill = args[i + 1] if a in ("-k", "--kill-after") else kill
            i += 2
            continue
        if a.startswith(("--kill-after=", "-k")):
            kill = a.split("=", 1)[1] if "=" in a else a[2:]
        foreground |= a == "--foreground"
        i += 1
        if a == "--":
            break
    bound = args[i] if i < len(args) else ""
    m = BOX_BOUND.fullmatch(_unquote(bound))
    return _Timeout(where, bound, m.group(1) if m else "", kill, foreground)


def _read_scripts(texts: dict[str, str]) -> dict[str, list[_Command]]:
    """Each script's commands; those of its top level (the wrapping function's) with function ""."""
    scripts = {}
    for name, text in texts.items():
        commands = _commands(_normalized(text))
        for command in commands:
            command.function = "" if command.function == "__script__" else command.function
        scripts[name] = commands
    return scripts


def _unboxed(scripts: dict[str, list[_Command]], start: str) -> tuple[list[str], list[_Timeout]]:
    """What `bash <start>` runs outside any `timeout` that can hang, and every `timeout` it runs."""
    problems: list[str] = []
    timeouts: list[_Timeout] = []
    seen: set[tuple[str, str, str]] = set()

    def script_of(word: str) -> str:
        w = _unquote(word)
        return next((name for name in scripts if w == name or w.endswith("/" + name)), "")

    def visit(script: str, function: str, entry: str) -> None:
        key = (script, function, "" if function else entry)  # the entry matters at the top level only
        if key in seen:
            return
        seen.add(key)
        names = {c.function for c in scripts[script]} - {""}
        for command in scripts[script]:
            if command.function != function or command.entry not in ("", entry):
                continue
            program, args = _program(command.words)
            where = f"{script}, {function or 'top level'}: {' '.join(command.words)}"
            if not program or program in TRIVIAL:
                continue
            if program == "timeout":
                timeouts.append(_timeout(where, args))
                continue
            if program in names:
                visit(script, program, entry)
                continue
            literal = EXPANSION.sub("", program)
            called = fnmatch.filter(sorted(names), EXPANSION.sub("*", program)) if literal and literal != program else []
            if called:  # "step_$2": any function the name can expand to
                for name in called:
                    visit(script, name, entry)
                continue
            options = [a for a in args if not a.startswith("-")]
            if program in ("bash", "sh", "source", ".") and options and script_of(options[0]):
                visit(script_of(options[0]), "", "step" if "--step" in map(_unquote, args) else "main")
                continue
            problems.append(where)

    visit(start, "", "main")
    return problems, timeouts


def _script_texts() -> dict[str, str]:
    return {".ci/gpu": GPU.read_text(encoding="utf-8"), ".ci/gpu-install": INSTALL.read_text(encoding="utf-8")}


def test_every_command_that_can_hang_runs_under_a_time_box_of_the_table():
    """Read from the script itself: nothing `bash .ci/gpu` runs can hang outside a `timeout`, and
    every `timeout` takes its bound from BOX (so the budget test counts it) with a kill grace."""
    for path in (GPU, INSTALL):
        proc = subprocess.run(["bash", "-n", str(path)], check=False, capture_output=True, text=True, timeout=60)
        assert proc.returncode == 0, proc.stderr
    problems, timeouts = _unboxed(_read_scripts(_script_texts()), ".ci/gpu")
    assert not problems, "can hang outside any `timeout` (put it in a step, or under a box of BOX):\n  " + "\n  ".join(problems)
    plan = _plan()
    for t in timeouts:
        assert not t.foreground, f"{t.where}: --foreground leaves the command's children running past the box"
        assert _unquote(t.kill) in ("$KILL_GRACE", "${KILL_GRACE}"), (
            f"{t.where}: without -k \"$KILL_GRACE\" a command that ignores SIGTERM runs past its box")
        assert t.key, f"{t.where}: its bound {t.bound} is not from BOX, so the budget does not count it"
        if "$" not in t.key:
            assert plan["box"].get(t.key, "").isdigit() and int(plan["box"][t.key]) > 0, (t.where, plan["box"])
    used = {t.key for t in timeouts if "$" not in t.key}
    if any("$" in t.key for t in timeouts):  # run_step's ${BOX[$name]}: one per step (the whole run checks each)
        used |= set(plan["steps"])
    assert used == set(plan["box"]), f"boxes of BOX that no `timeout` uses: {set(plan['box']) - used}"


# A trap decides how a step or the run ends: an action that exits or returns replaces the status of
# what failed (`trap 'exit 0' EXIT` makes a failed step pass), and one on the signals `timeout` sends
# (TERM, then KILL after the grace) or on ERR/INT/HUP turns a step stopped at its box into anything else.
STATUS_WORDS = re.compile(r"(^|[\s;&|(])(exit|return|kill|true|:)([\s;&|)]|$)")
BOX_SIGNALS = {"ERR", "TERM", "SIGTERM", "INT", "SIGINT", "HUP", "SIGHUP", "15", "2", "1"}


def _traps(texts: dict[str, str]) -> list[tuple[str, str, list[str]]]:
    """(where, action, signals) of every `trap` the scripts set, in any function or branch."""
    found = []
    for script, commands in _read_scripts(texts).items():
        for command in commands:
            program, args = _program(command.words)
            if program != "trap":
                continue
            args = [a for a in args if a != "--"]
            if not args or args[0] in ("-l", "-p"):
                continue
            found.append((f"{script}, {command.function or 'top level'}: {' '.join(command.words)}",
                          _unquote(args[0]), [_unquote(a).upper() for a in args[1:]]))
    return found


def test_no_trap_can_change_how_a_step_or_the_run_ends():
    """Read from the scripts: no trap exits, returns or kills in its action, and none catches the
    signals of a time box or ERR, so that a step's exit status (and a box's 124/137) reaches run_step
    and the summary, and the run's reaches the device tool."""
    problems = []
    for where, action, signals in _traps(_script_texts()):
        if STATUS_WORDS.search(action):
            problems.append(f"{where}: its action changes the exit status")
        if BOX_SIGNALS & set(signals):
            problems.append(f"{where}: catches {sorted(BOX_SIGNALS & set(signals))}, how a box stops a step or an error is seen")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("script", "bad"), [
    pytest.param('main() { trap "exit 0" EXIT; run; }\nmain\n', True, id="exit-in-main"),
    pytest.param("if [ \"${1:-}\" = --step ]; then\n  trap 'exit 0' EXIT\n  \"step_$2\"\n  exit $?\nfi\n", True,
                 id="exit-in-the-step-branch"),
    pytest.param("trap -- 'return 0' RETURN\n", True, id="return"),
    pytest.param("trap '' TERM\n", True, id="TERM-ignored"),
    pytest.param("trap 'rm -rf \"$WORK\"' EXIT\n", False, id="cleanup"),
])
def test_the_trap_reader_finds_a_trap_that_changes_an_exit_status(script, bad):
    problems = [w for w, action, signals in _traps({"run.sh": script})
                if STATUS_WORDS.search(action) or BOX_SIGNALS & set(signals)]
    assert bool(problems) == bad, _traps({"run.sh": script})


# Small scripts the reader must get right: (scripts, the commands it must find unboxed).
READER_CASES = {
    "a command written across lines": ({"run.sh": '"$PYTHON" -m pytest \\\n  -q \\\n  tests\n'},
                                       ['"$PYTHON" -m pytest -q tests']),
    "in a function the top level calls": ({"run.sh": "f() {\n  python3 -m benchmarks\n}\nmain() { f; }\nmain \"$@\"\n"},
                                          ["python3 -m benchmarks"]),
    "a function nothing calls does not run": ({"run.sh": "f() {\n  python3 -m benchmarks\n}\n"}, []),
    "under timeout": ({"run.sh": 'timeout -k "$KILL_GRACE" "${BOX[a]}" python3 -m benchmarks\n'}, []),
    "a substitution runs before its timeout": (
        {"run.sh": 'timeout -k 3 "${BOX[a]}" echo "$(python3 -c 1)"\nx=$(pip list)\n'}, ["python3 -c 1", "pip list"]),
    "a pipeline, a loop and a background job": (
        {"run.sh": "git log | tail -1\nwhile ! nvidia-smi; do :; done\nsleep 9 &\n"}, ["git log", "nvidia-smi", "sleep 9"]),
    "a heredoc's body is data": ({"run.sh": "cat <<'EOF'\npython3 -m x\nEOF\n\"$PYTHON\" - <<'PY' || exit 1\nimport os\nPY\n"},
                                 ['"$PYTHON" -']),
    "another script it runs": ({"run.sh": 'bash "$DIR/helper.sh" x\n', "helper.sh": "pip install x\n"}, ["pip install x"]),
    "another script run under timeout": ({"run.sh": 'timeout -k 3 "${BOX[a]}" bash "$DIR/helper.sh"\n',
                                          "helper.sh": "pip install x\n"}, []),
    "a step reached by name, under timeout": (
        {"run.sh": 'step_a() { python3 x; }\nif [ "${1:-}" = --step ]; then "step_$2"; exit $?; fi\n'
                   'timeout -k 3 "${BOX[a]}" bash "$DIR/run.sh" --step a\n'}, []),
    "a step reached by name, without": (
        {"run.sh": 'step_a() { python3 x; }\nif [ "${1:-}" = --step ]; then "step_$2"; exit $?; fi\n'
                   'bash "$DIR/run.sh" --step a\n'}, ["python3 x"]),
}


@pytest.mark.parametrize("case", READER_CASES)
def test_the_script_reader_finds_what_runs_unboxed(case):
    texts, expected = READER_CASES[case]
    problems, _ = _unboxed(_read_scripts(texts), "run.sh")
    assert [p.split(": ", 1)[1] for p in problems] == expected, problems


# A time box stops a step by signalling `timeout`'s process group (TERM, then KILL after the grace). A
# process that leaves the group is not stopped: `setsid "$PYTHON" -` in gpu-info was reported TIMED OUT
# at its box and ran on, and on the GPU machine it would hold the GPU under the next steps (independent
# review, 2026-11-29; the unboxed reader does not look inside what runs under `timeout`). So nothing in
# the scripts may start a process outside the group or leave one behind: a new session or process group
# (setsid, a Python's start_new_session/os.setsid/os.setpgrp, `set -m`), a job sent to the background
# (`&`, coproc, bg) or let go of (disown, nohup, which also hides the hangup), a service manager.
DETACHING = frozenset({"setsid", "nohup", "disown", "bg", "coproc", "daemon", "daemonize", "start-stop-daemon",
                       "systemd-run", "at", "batch", "screen", "tmux", "setpgid"})
# Commands that run the command in their arguments: a detaching one among those counts too.
WRAPPERS = frozenset({"timeout", "env", "nice", "ionice", "stdbuf", "chrt", "taskset", "sudo", "time", "exec", "command"})
DETACHING_TEXT = re.compile(r"\b(setsid|setpgrp|setpgid|start_new_session|process_group|daemoni[sz]e|nohup|disown)\b")
JOB_CONTROL = re.compile(r"^-[a-zA-Z]*m|^monitor$")


def _detaching(texts: dict[str, str]) -> list[str]:
    """Where the scripts start a process that can outlive its box, in any function, branch or substitution,
    reached or not; and, in their text (heredoc bodies: the steps' Python), the calls that do it."""
    found = []
    for script, commands in _read_scripts(texts).items():
        for command in commands:
            where = f"{script}, {command.function or 'top level'}: {' '.join(command.words)}"
            words, program = [_unquote(w) for w in command.words], _program(command.words)[0]
            if command.background:
                found.append(f"{where} &")
            elif DETACHING & ({program} | (set(words) if program in WRAPPERS else set())):
                found.append(where)
            elif words[:1] == ["set"] and any(JOB_CONTROL.match(w) for w in words[1:]):
                found.append(f"{where} (job control: every job its own process group)")
        for n, line in enumerate(texts[script].splitlines(), 1):
            code = line.split("#", 1)[0] if line.lstrip().startswith("#") else line
            if DETACHING_TEXT.search(code):
                found.append(f"{script}:{n}: {line.strip()}")
    return found


def test_nothing_in_the_scripts_can_outlive_its_time_box():
    """Read from the scripts: no command, in a step or anywhere else, leaves `timeout`'s process group
    or the shell's jobs (see DETACHING), so a box stops all a step started."""
    found = _detaching(_script_texts())
    assert not found, ("starts a process a time box cannot stop (run it in the foreground, in the step's own "
                       "process group):\n  " + "\n  ".join(found))


DETACH_CASES = {
    "setsid in a step": ('step_a() {\n  setsid "$PYTHON" - <<\'PY\'\nimport os\nPY\n}\n', True),
    "exec setsid": ("step_a() { exec setsid python3 x; }\n", True),
    "setsid under timeout": ('STEP_BOX=2 timeout -k 3 "${BOX[a]}" setsid python3 x\n', True),
    "nohup": ("step_a() { nohup python3 x >log 2>&1; }\n", True),
    "a background job": ("step_a() {\n  python3 x &\n  wait\n}\n", True),
    "a background job in a substitution": ('step_a() { out=$(python3 x & echo started); }\n', True),
    "a background subshell": ("step_a() {\n  ( python3 x ) &\n}\n", True),
    "a background loop": ("step_a() {\n  while :; do python3 x; done &\n}\n", True),
    "disown": ("step_a() { python3 x & disown; }\n", True),
    "job control": ("step_a() {\n  set -m\n  python3 x\n}\n", True),
    "job control, spelled out": ("set -o monitor\n", True),
    "a new session from the step's Python": (
        'step_a() {\n  "$PYTHON" - <<\'PY\'\nimport subprocess\nsubprocess.Popen(["x"], start_new_session=True)\nPY\n}\n', True),
    "os.setsid in an inline Python": ('step_a() { "$PYTHON" -c "import os; os.setsid()"; }\n', True),
    "words that are only text": ('echo stopped at its box, not in the background\nprintf "%s" bg\n', False),
    "and, or, redirections": ("step_a() {\n  python3 x &>log && echo ok || echo no >&2\n  python3 y 2>&1 | tail -1\n}\n", False),
    "a comment that names them": ("# no setsid, nohup or & here\nstep_a() { python3 x; }  # not in the background\n", False),
}


@pytest.mark.parametrize("case", DETACH_CASES)
def test_the_detach_reader_finds_what_leaves_the_box(case):
    text, bad = DETACH_CASES[case]
    found = _detaching({"run.sh": text})
    assert bool(found) == bad, found


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for its parent does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, IndexError, ProcessLookupError):
        return False
    return state not in ("Z", "X")


def test_a_step_is_stopped_at_its_box(tmp_path):
    """A step that runs on is killed at its box with whatever it started, and recorded as timed out: the
    stand-in and the job it started are gone once run_step returns (not only reported as timed out)."""
    slow = tmp_path / "slow-python"
    pids = tmp_path / "pids"
    slow.write_text(f"#!/bin/sh\necho $$ >>{pids}\nsleep 30 &\necho $! >>{pids}\nsleep 30\n")
    slow.chmod(0o755)
    work = tmp_path / "work"
    (work / "logs").mkdir(parents=True)
    start = time.monotonic()
    try:
        proc = _bash(f'source {GPU}; export WORK={work} PYTHON={slow} DRY=""; KILL_GRACE=1; BOX[gpu-info]=2; run_step gpu-info',
                     timeout=30)
        took = time.monotonic() - start
        assert proc.returncode == 0, proc.stderr
        name, box, _used, status = (work / "steps.tsv").read_text(encoding="utf-8").strip().split("\t")
        assert (name, box, status) == ("gpu-info", "2", "TIMED OUT at its box"), status
        assert took < 10, f"the step ran {took:.0f} s past its 2 s box"
        started = [int(p) for p in pids.read_text().split()] if pids.exists() else []
        assert len(started) == 2, f"the stand-in did not start (pids: {started}): {proc.stdout}{proc.stderr}"
        deadline = time.monotonic() + 3  # signals sent; the kernel may take a moment to end them
        while any(map(_alive, started)) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [p for p in started if _alive(p)], "the step's processes outlived its box"
    finally:
        for pid in [int(p) for p in pids.read_text().split()] if pids.exists() else []:
            if _alive(pid):
                os.kill(pid, 9)


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
# a stand-in Python: logs each call, and whether a `timeout` runs above it (up to the test's own
# process); runs inline code (-c, -) with the real one; answers the GPU check
boxed=unboxed pid=$PPID
while [ "${pid:-0}" -gt 1 ] && [ "$pid" != "$STUB_STOP" ]; do
  [ "$(cat /proc/$pid/comm 2>/dev/null)" = timeout ] && { boxed=boxed; break; }
  pid=$(sed 's/.*) //' /proc/$pid/stat 2>/dev/null | cut -d' ' -f2)
done
echo "$boxed | ${PYTEST_ADDOPTS:-} | ${PYTHONPATH:-} | $*" >> "$STUB_LOG"
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
    env = {"PYTHON": str(stub), "STUB_LOG": str(log), "STUB_STOP": str(os.getpid()), "OUT": str(out), "TMPDIR": str(tmp_path),
           "GPU_WHEELS": str(folder), "PYTHONPATH": "", "SUITE_ARGS": "", "CUDA_TESTS_ARGS": "", "PYTEST_ADDOPTS": "",
           "GPU_DRY_RUN": "1" if mode == "dry-run" else "", "STUB_GPU": "" if mode == "dry-run" else "1"}
    before = _outs()
    proc = subprocess.run(["bash", str(GPU), "--quick"], check=False, capture_output=True, text=True, timeout=300, cwd=REPO,
                          env={**os.environ, **env})
    assert proc.returncode == 0, proc.stdout[-4000:] + proc.stderr[-2000:]
    assert _outs() == before, "the run wrote into snippets/ (it records in a copy)"

    calls = log.read_text(encoding="utf-8").splitlines()
    unboxed = [c for c in calls if not c.startswith("boxed | ")]
    assert not unboxed, "run outside any `timeout`:\n" + "\n".join(unboxed)
    calls = [c.split(" | ", 1)[1] for c in calls]
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
    plan = _plan()
    planned = plan["steps"]
    rows = [line.split() for line in summary.splitlines() if line.split()[:1] and line.split()[0] in planned]
    assert [r[0] for r in rows] == planned and all(r[-1] == "passed" for r in rows), summary
    boxes = {r[0]: int(r[1]) for r in rows}  # each step ran under its own box; the suite's, what was left
    assert all(boxes[s] == int(plan["box"][s]) for s in planned[:-1]), summary
    used_before_suite = sum(int(r[2]) for r in rows if r[0] != "suite")
    assert int(plan["box"]["suite"]) <= boxes["suite"] <= plan["budget"] - used_before_suite, (
        f"the suite's box is what is left of the budget ({plan['budget']} s less the {used_before_suite} s the steps "
        f"before it took), so that the gather still fits the device run:\n{summary}")
    assert ("DRY RUN" in summary) == (mode == "dry-run")


# A torch that answers the precheck at once: the real one's import is what the precheck's box is for on
# the GPU machine, and here it took 11.6 s at load 3.7 and ran past the 15 s box under more load (the
# same import as gpu-info's, measured at up to 26.7 s at load 11-12: .ci/gpu's notes on the boxes).
STAND_IN_TORCH = '__version__ = "2.13.0+stand-in"\n\n\nclass cuda:\n    @staticmethod\n    def is_available():\n        return False\n'


def test_no_gpu_stops_at_once_with_exit_2(tmp_path):
    """Where torch sees no GPU (this machine's torch, and a stand-in that says so at once), `bash .ci/gpu`
    stops in its precheck with exit 2, says what to do, and writes nothing."""
    import torch

    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: .ci/gpu would run")
    (tmp_path / "stand-in" / "torch").mkdir(parents=True)
    (tmp_path / "stand-in" / "torch" / "__init__.py").write_text(STAND_IN_TORCH, encoding="utf-8")
    start = time.monotonic()
    proc = subprocess.run(["bash", str(GPU)], check=False, capture_output=True, text=True, timeout=120, cwd=REPO,
                          env={**os.environ, "PYTHON": sys.executable, "OUT": str(tmp_path / "out"), "GPU_DRY_RUN": "",
                               "PYTHONPATH": str(tmp_path / "stand-in")})
    took = time.monotonic() - start
    assert proc.returncode == 2, proc.stdout + proc.stderr
    assert "no CUDA GPU is visible" in proc.stderr and "2.13.0+stand-in" in proc.stderr, proc.stderr
    assert "GPU_DRY_RUN=1" in proc.stderr, proc.stderr
    assert not (tmp_path / "out").exists()
    assert took < int(_plan()["box"]["precheck"]), f"the precheck took {took:.1f} s: at once means within its box"


FAILING_STUB = """#!/bin/bash
# a stand-in Python for a run whose steps fail: the wheel check (install, a step that does not exec its
# command) at once, the benchmark (one that does) after a second; the rest passes
echo "$*" >> "$STUB_LOG"
case "$*" in
  *gpu-wheels*) exit 1 ;;
  "-m benchmarks "*) sleep 1.1; exit 1 ;;
esac
case "${1:-}" in -|-c) exec REAL "$@" ;; esac
exit 0
"""


def test_a_failing_step_fails_the_run_and_the_suite_gets_only_what_is_left(tmp_path):
    """main with three of the steps (.ci/gpu sourced, STEPS cut down): a step that fails is reported as
    failed, whether it execs its command or not (nothing, a `trap` for one, turns its exit status into a
    pass), the run exits 1 after the gather, and the suite's box is the budget less the time the steps
    before it took, never the whole budget (the gather would then not fit the device run)."""
    stub = tmp_path / "python"
    stub.write_text(FAILING_STUB.replace("REAL", sys.executable))
    stub.chmod(0o755)
    out = tmp_path / "out"
    env = {"PYTHON": str(stub), "STUB_LOG": str(tmp_path / "calls.log"), "OUT": str(out), "TMPDIR": str(tmp_path),
           "GPU_WHEELS": str(tmp_path / "whl"), "PYTHONPATH": "", "SUITE_ARGS": "", "CUDA_TESTS_ARGS": "",
           "PYTEST_ADDOPTS": "", "GPU_DRY_RUN": "1"}
    proc = _bash(f'source {GPU}\nSTEPS=(install benchmark suite)\nmain --quick', env=env, timeout=120)
    assert proc.returncode == 1, f"the run passed with failed steps (exit {proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-2000:]}"
    summary = (out / "summary.txt").read_text(encoding="utf-8")
    rows = {r[0]: r for r in (line.split(None, 3) for line in summary.splitlines()) if r and r[0] in ("install", "benchmark", "suite")}
    assert rows["install"][3] == "FAILED (exit 1)" and rows["benchmark"][3] == "FAILED (exit 1)", summary
    assert rows["suite"][3] == "passed" and "2 of 3 did not pass" in summary, summary
    budget = _plan()["budget"]
    used = int(rows["install"][2]) + int(rows["benchmark"][2])
    assert used >= 1, summary  # the benchmark's second
    assert int(rows["suite"][1]) <= budget - used, f"the suite's box is not what is left of the {budget} s budget:\n{summary}"


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
    (needs the package index: skipped where it does not answer). A resolution that passed is kept
    while .ci/gpu-wheels, pyproject.toml, constraints.txt and this file stay the same (every
    requirement is pinned there, and an index does not take a released version back); 21 s of
    each run otherwise."""
    from tests.support.shared_cache import inputs_key, passed_before, record_pass

    key = inputs_key((".ci/gpu-wheels", "pyproject.toml", "constraints.txt", "tests/test_ci_gpu.py"))
    if passed_before("gpu-wheel-list", key):
        return
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
    record_pass("gpu-wheel-list", key)
