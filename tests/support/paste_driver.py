"""Run a page's code the way a reader pastes it: every block, in order, in one interpreter.

This file is never imported by the reader's interpreter: tests/support/copy_paste.py reads its
text and starts ``<reader venv>/bin/python -c "<this file's text>" PLAN`` in the page's work
folder, so nothing of the repository is on ``sys.path`` and ``__main__`` is what a reader's
``python`` prompt has: no ``__file__``, ``sys.argv == [""]``, the working folder (``""``) first
on ``sys.path``. Before the first block, the names this file defined (and its docstring) are
removed from ``__main__``, which is left as a fresh prompt has it.

* a ``paste`` block is executed in ``__main__`` (exactly the copied text);
* a ``file`` block (a block titled with a file name, "save as ``name.py`` and run
  ``python name.py``") is saved under that name and run as ``python -W error ... name.py``;
* a block with a ``skip`` reason is not run.

Warnings are errors, except the allow-list of the plan (docs_tools/warning_policy.py). The
reader sets no ``PYTHONWARNINGS``, so the policy is applied here, as ``-W`` options would apply
it: ``warnings.simplefilter("error")`` then one ``filterwarnings("ignore", ...)`` per allowed
prefix, and the same options in ``sys.warnoptions`` (what ``-W`` fills), so that the
interpreters ``multiprocessing`` starts get them as ``-W`` options too. A saved file runs with
the same ``-W`` options on its command line. Neither changes what the code does: a block that
warns fails the test (the reader would see the warning on stderr, which must be empty too);
a block that does not warn runs exactly as it does for the reader.

Before each block a marker line goes to stdout and stderr, so the caller can split what
each block printed. The outcome of each block is written to ``PLAN + ".result"``; the
run stops at the first failing block (the blocks after it depend on it).
"""

MARKER = "@@copy-paste block {index}@@"


def main() -> None:
    import ast
    import builtins
    import json
    import re
    import subprocess
    import sys
    import traceback
    import warnings

    marker_template = MARKER
    main_ns = sys.modules["__main__"].__dict__
    # Leave the reader's namespace as a fresh prompt has it.
    for name in [n for n in main_ns if not (n.startswith("__") and n.endswith("__"))]:
        del main_ns[name]
    main_ns["__doc__"] = None
    main_ns.pop("__file__", None)
    plan_path = sys.argv[1]
    sys.argv = [""]
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)

    options = ["error"]
    warnings.simplefilter("error")
    for allowed in plan.get("warnings", []):
        category = getattr(builtins, allowed["category"])
        warnings.filterwarnings("ignore", re.escape(allowed["prefix"]), category)
        options.append(f"ignore:{allowed['prefix']}:{allowed['category']}")
    sys.warnoptions[:] = options

    results = []

    def write_results():
        with open(plan_path + ".result", "w", encoding="utf-8") as f:
            json.dump(results, f)

    for block in plan["blocks"]:
        marker = marker_template.format(index=block["index"])
        displayed_note = None
        for stream in (sys.stdout, sys.stderr):
            stream.flush()
            stream.write(f"\n{marker}\n")
            stream.flush()
        if block.get("skip"):
            results.append({"index": block["index"], "status": "skipped", "reason": block["skip"]})
            continue
        try:
            if block["kind"] == "file":
                with open(block["title"], "w", encoding="utf-8") as f:
                    f.write(block["code"] + "\n")
                proc = subprocess.run(
                    [sys.executable, *(f"-W{o}" for o in options), block["title"]],
                    capture_output=True, text=True, timeout=block["timeout"],
                )
                sys.stdout.write(proc.stdout)
                sys.stderr.write(proc.stderr)
                if proc.returncode != 0:
                    raise RuntimeError(
                        f"`python {block['title']}` exited with {proc.returncode}:\n{proc.stderr[-4000:]}"
                    )
            else:
                # As pasted, then as a notebook shows it: a block whose last statement is an expression
                # runs the rest, then evaluates that expression; a value other than None is what Jupyter
                # (and IPython) would display under the cell, so it is reported (the page shows no such value).
                name = f"<block {block['index']}>"
                tree = ast.parse(block["code"], name)
                last = tree.body[-1] if tree.body and isinstance(tree.body[-1], ast.Expr) else None
                if last is None:
                    exec(compile(tree, name, "exec"), main_ns)
                else:
                    exec(compile(ast.Module(tree.body[:-1], type_ignores=[]), name, "exec"), main_ns)
                    value = eval(compile(ast.Expression(last.value), name, "eval"), main_ns)
                    if value is not None:
                        displayed = repr(value)
                        displayed_note = displayed if len(displayed) <= 300 else displayed[:300] + " [...]"
        except BaseException as exc:  # noqa: BLE001 - report whatever the block raised
            sys.stdout.flush()
            sys.stderr.flush()
            # Drop the driver's own frame: the reader's traceback starts in their code.
            tb = exc.__traceback__.tb_next if exc.__traceback__ is not None else None
            text = "".join(traceback.format_exception(type(exc), exc, tb))
            results.append({"index": block["index"], "status": "failed", "error": text,
                            "type": type(exc).__name__})
            write_results()
            return
        sys.stdout.flush()
        sys.stderr.flush()
        results.append({"index": block["index"], "status": "ok", **({"displayed": displayed_note} if displayed_note else {})})
    write_results()


if __name__ == "__main__":
    main()
