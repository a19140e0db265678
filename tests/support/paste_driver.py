"""Run a page's code the way a reader pastes it: every block, in order, in one interpreter.

Started by tests/support/copy_paste.py as ``python -c "from tests.support.paste_driver import main; main()" PLAN``
in a fresh process, so ``__main__`` is the interactive namespace a reader's ``python`` prompt
has: no ``__file__``, ``sys.argv == [""]``, the working folder first on ``sys.path``.

* a ``paste`` block is executed in ``__main__`` (exactly the copied text);
* a ``file`` block (a block titled with a file name, "save as ``name.py`` and run
  ``python name.py``") is saved under that name and run as ``python name.py``;
* a block with a ``skip`` reason is not run.

Before each block a marker line goes to stdout and stderr, so the caller can split what
each block printed. The outcome of each block is written to ``PLAN + ".result"``; the
run stops at the first failing block (the blocks after it depend on it).
"""

from __future__ import annotations

MARKER = "@@copy-paste block {index}@@"


def main() -> None:
    import json
    import subprocess
    import sys
    import traceback

    main_ns = sys.modules["__main__"].__dict__
    main_ns.pop("main", None)  # leave the reader's namespace as a fresh prompt has it
    plan_path = sys.argv[1]
    sys.argv = [""]
    with open(plan_path, encoding="utf-8") as f:
        plan = json.load(f)
    results = []

    def write_results():
        with open(plan_path + ".result", "w", encoding="utf-8") as f:
            json.dump(results, f)

    for block in plan["blocks"]:
        marker = MARKER.format(index=block["index"])
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
                    [sys.executable, block["title"]], capture_output=True, text=True, timeout=block["timeout"]
                )
                sys.stdout.write(proc.stdout)
                sys.stderr.write(proc.stderr)
                if proc.returncode != 0:
                    raise RuntimeError(
                        f"`python {block['title']}` exited with {proc.returncode}:\n{proc.stderr[-4000:]}"
                    )
            else:
                exec(compile(block["code"], f"<block {block['index']}>", "exec"), main_ns)
        except BaseException as exc:  # noqa: BLE001 - report whatever the block raised
            sys.stdout.flush()
            sys.stderr.flush()
            lines = traceback.format_exception(type(exc), exc, exc.__traceback__)
            # Drop the driver's own frame: the reader's traceback starts in their code.
            text = "".join(ln for ln in lines if "paste_driver.py" not in ln)
            results.append({"index": block["index"], "status": "failed", "error": text,
                            "type": type(exc).__name__})
            write_results()
            return
        sys.stdout.flush()
        sys.stderr.flush()
        results.append({"index": block["index"], "status": "ok"})
    write_results()
