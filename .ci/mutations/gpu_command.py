"""Mutations of `.ci/gpu`, the one command for a lent GPU machine: a step that can hang runs
outside its time box, the boxes outgrow the device tool's 10 minutes, a trap swallows a step's failure, or
the suite's box takes the whole budget (tests/test_ci_gpu.py)."""

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
    # a trap that swallows a step's failure: in the --step branch (a step that does not exec its command,
    # install or gpu-info, then exits 0 whatever failed), and in main (the whole run then exits 0)
    Mutation("gpu command: a trap in the --step branch swallows a step's failure (trap 'exit 0' EXIT)",
             _EDIT.format(old='  if [ "${1:-}" = --step ]; then  # one step, in its own process (run_step puts it under timeout)\n',
                          new='  if [ "${1:-}" = --step ]; then  # one step, in its own process (run_step puts it under timeout)\n'
                              "    trap 'exit 0' EXIT\n"),
             ["tests/test_ci_gpu.py", "-k", "failing_step"], r"test_a_failing_step_fails_the_run"),
    Mutation("gpu command: a trap in main makes the run exit 0 whatever failed (read from the script)",
             _EDIT.format(old='  QUICK="" DRY=""\n', new='  QUICK="" DRY=""\n  trap \'exit 0\' EXIT\n'),
             ["tests/test_ci_gpu.py", "-k", "no_trap"], r"test_no_trap_can_change_how_a_step_or_the_run_ends"),
    # the suite given the whole budget instead of what is left of it: the gather no longer fits the device run
    Mutation("gpu command: the suite's box is the whole budget (BOX[suite]=$BUDGET)",
             _EDIT.format(old="      BOX[suite]=$left\n", new="      BOX[suite]=$BUDGET\n"),
             ["tests/test_ci_gpu.py", "-k", "failing_step"], r"test_a_failing_step_fails_the_run"),
    Mutation("gpu command: a box grown past the budget (benchmark 240 -> 300 s)",
             _EDIT.format(old="[benchmark]=240", new="[benchmark]=300"),
             ["tests/test_ci_gpu.py", "-k", "fit_one_device_run"], r"test_every_step_has_a_time_box"),
]

# the fastest of the kind (reading the script: well under a second)
CI_MUTATIONS = ["gpu command: a step's timeout removed"]
