"""Mutations of `.ci/gpu`, the one command for a lent GPU machine: a step that can hang runs
outside its time box, or the boxes outgrow the device tool's 10 minutes (tests/test_ci_gpu.py)."""

# `Mutation` is provided by .ci/prove_tests_fail.py, which loads this file.
_EDIT = """python3 - <<'PY'
p = ".ci/gpu"; s = open(p).read()
old, new = {old!r}, {new!r}
assert old in s, "the mutation no longer applies: " + old
open(p, "w").write(s.replace(old, new))
PY"""

MUTATIONS = [
    # run_step starts every step in its own bash; without `timeout` around it every step (pytest,
    # the benchmark, the probes, pip through .ci/gpu-install) runs as long as it likes
    Mutation("gpu command: a step's timeout removed (run_step starts the steps unboxed)",
             _EDIT.format(old='timeout -k "$KILL_GRACE" "${BOX[$name]}" bash "$REPO/.ci/gpu" --step',
                          new='bash "$REPO/.ci/gpu" --step'),
             ["tests/test_ci_gpu.py", "-k", "can_hang"], r"test_every_command_that_can_hang"),
    # one step run straight from the main loop, on a line of its own and across two lines
    Mutation("gpu command: the probes run by the main loop itself, outside run_step's timeout",
             _EDIT.format(old='      run_step "$step"\n',
                          new='      if [ "$step" = probes ]; then step_probes \\\n        ; continue; fi\n      run_step "$step"\n'),
             ["tests/test_ci_gpu.py", "-k", "can_hang"], r"test_every_command_that_can_hang"),
    # the gather's Python unboxed: caught by reading the script, and by the run itself (the stand-in
    # Python finds no `timeout` above it)
    Mutation("gpu command: the gather's timeout removed (caught by the dry run too)",
             _EDIT.format(old='timeout -k "$KILL_GRACE" "${BOX[gather]}" \\\n', new=''),
             ["tests/test_ci_gpu.py", "-k", "whole_run and dry"], r"test_the_whole_run_in_order"),
    Mutation("gpu command: a box grown past the budget (benchmark 240 -> 300 s)",
             _EDIT.format(old="[benchmark]=240", new="[benchmark]=300"),
             ["tests/test_ci_gpu.py", "-k", "fit_one_device_run"], r"test_every_step_has_a_time_box"),
]

# the fastest of the kind (reading the script: well under a second)
CI_MUTATIONS = ["gpu command: a step's timeout removed"]
