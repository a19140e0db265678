"""Mutations for the kinds of hole issue 39 found in the numerics, the warnings policy and the path guards:
a per-channel observer wrong for every axis but 0, qparams wrong only for all-negative data, an
allow-list entry that silences every warning of its class, and a path guard that compares text.

The warning-policy mutations run tests/test_warning_policy.py with ``--noconftest``: the policy now
refuses a bad list when it is imported, and tests/conftest.py imports it, so with the conftest the
whole run stops with that error (exit 4, which prove_tests_fail does not count as a test failing);
without it the one test that loads the real list fails.
"""

_OBSERVERS = "reference_impl/quantization/observers.py"
_AFFINE = "reference_impl/quantization/affine.py"
_POLICY = "docs_tools/warning_policy.py"
_READER_VENV = "tests/support/reader_venv.py"
_ADD_ENTRY = """python - <<'PY'
p = "docs_tools/warning_policy.py"; s = open(p).read()
start = "ALLOWED: tuple[AllowedWarning, ...] = ("
assert start in s
open(p, "w").write(s.replace(start, start + '\\n    AllowedWarning({entry}),', 1))
PY"""

MUTATIONS = [
    # -- numerics: every axis, every edge range --
    Mutation("numerics: the per-channel observer ignores its axis (always reduces over dim 0)",
             f"sed -i 's/y = x.detach().float().movedim(axis, 0).flatten(1)/y = x.detach().float().flatten(1)/' {_OBSERVERS}"
             f" && grep -q 'y = x.detach().float().flatten(1)' {_OBSERVERS}",
             ["tests/test_quantization_axes.py", "-k", "every_axis"],
             r"test_per_channel_observer_matches_torch_on_every_axis\[\dd-axis(-\d|[1-9])"),
    Mutation("numerics: affine qparams of all-negative data (the range's max no longer widened up to 0)",
             f"sed -i 's/^    hi = torch.clamp(hi, min=0.0)$/    hi = hi/' {_AFFINE} && grep -q '^    hi = hi$' {_AFFINE}",
             ["tests/test_quantization_axes.py", "-k", "edge_ranges or all_negative"],
             r"test_qparams_match_torch_on_edge_ranges\[all-negative-u?int8-affine"),
    # -- the warnings policy: an entry must name one message and say why --
    Mutation("warning policy: an allowed warning with an empty message prefix (silences every UserWarning)",
             _ADD_ENTRY.format(entry='"UserWarning", "", "a dependency is noisy"'),
             ["tests/test_warning_policy.py"], r"test_the_allow_list_in_the_repository_is_accepted", ["--noconftest"]),
    Mutation("warning policy: an allowed warning whose prefix is one short word (every DeprecationWarning from torch)",
             _ADD_ENTRY.format(entry='"DeprecationWarning", "torch", "torch deprecates things we do not call"'),
             ["tests/test_warning_policy.py"], r"test_the_allow_list_in_the_repository_is_accepted", ["--noconftest"]),
    Mutation("warning policy: an allowed warning whose prefix is plain words (the start of many APIs' messages)",
             _ADD_ENTRY.format(entry='"UserWarning", "The default value of", "a default changes in a later release"'),
             ["tests/test_warning_policy.py"], r"test_the_allow_list_in_the_repository_is_accepted", ["--noconftest"]),
    # the reader's interpreter applies an entry to its whole class (the message dropped from the filter)
    Mutation("warning policy: the paste driver's filter drops the message (ignores every warning of the class)",
             "sed -i 's/warnings.filterwarnings(\"ignore\", re.escape(allowed\\[\"prefix\"\\]), category)/"
             "warnings.filterwarnings(\"ignore\", \"\", category)/' tests/support/paste_driver.py"
             " && grep -q 'warnings.filterwarnings(\"ignore\", \"\", category)' tests/support/paste_driver.py",
             ["tests/test_warning_policy.py", "-k", "paste_driver"], r"test_the_paste_driver_allows_only_the_listed_message",
             ["--noconftest"]),
    # -- path guards: paths, not text --
    Mutation("path guard: the reader environment's leak test back to a substring (str(REPO) in v)",
             f"sed -i 's/and points_into(v, REPO)}}/and str(REPO) in v}}/' {_READER_VENV}"
             f" && grep -q 'and str(REPO) in v}}' {_READER_VENV}",
             ["tests/test_reader_venv.py"], r"test_a_cache_beside_the_clone_with_the_same_prefix_is_no_leak"),
    Mutation("path guard: a string-prefix test (startswith) in place of the path comparison",
             f"sed -i 's/and Path(p).resolve().is_relative_to(root)/and p.startswith(str(root))/' {_READER_VENV}"
             f" && grep -q 'p.startswith(str(root))' {_READER_VENV}",
             ["tests/test_reader_venv.py"], r"test_(a_cache_beside_the_clone|points_into_compares_paths\[sibling)"),
]

CI_MUTATIONS = (
    "warning policy: an allowed warning with an empty message prefix",  # the warnings policy
)
