"""The eight mutations an independent review's second round (2026-11-29, /tmp/reviews/mutations-2026-11-29.md)
found MISSED, each closed at its cause since, with the reviewer's exact change: activation qparams of
all-negative data at an ordinary scale, QuantizedWeight.dequantize's per-channel axis, pytest's filter
lines of the warnings policy without their message, a policy prefix whose only "name" is an acronym,
the root page's canonical link, a ``varies = "run"`` rule widened over an exact line, a step's process
detached from its time box, and the reader's PATH filter comparing text. Three more, one per kind, break
the same thing another way (the range's other end, the policy's old pattern back, a trailing ``&``).

Select them with `-k "review 11-29b"`. None is in CI_MUTATIONS. The deploy one builds the site
(tests/test_site_deploy.py: six builds, minutes); ``--without-site`` leaves it out.

The warning-policy entry runs tests/test_warning_policy.py with ``--noconftest`` (the policy refuses a
bad list on import, and tests/conftest.py imports it: see numerics_warnings.py).
"""

# `Mutation` and `EDIT` are provided by .ci/prove_tests_fail.py, which loads this file.

_DYNAMIC = "reference_impl/quantization/dynamic.py"
_POLICY = "docs_tools/warning_policy.py"

MUTATIONS = [
    # -- numerics: edge data were tested only at 1e-10 (the small-scale branch hides the range)
    Mutation("review 11-29b: numerics: dynamic activation range of all-negative data no longer widened up to 0",
             EDIT.format(path=_DYNAMIC, old="    hi = max(float(hi), 0.0)\n", new="    hi = float(hi)\n"),
             ["tests/test_quantization_dynamic.py", "-k", "edge_data or by_hand or one_signed"],
             r"test_activation_qparams_of_edge_data_at_every_scale_equal_torchs\[all-negative-ordinary"),
    Mutation("review 11-29b: numerics: dynamic activation range of all-positive data no longer widened down to 0",
             EDIT.format(path=_DYNAMIC, old="    lo = min(float(lo), 0.0)\n", new="    lo = float(lo)\n"),
             ["tests/test_quantization_dynamic.py", "-k", "edge_data or by_hand or one_signed"],
             r"test_activation_qparams_of_edge_data_at_every_scale_equal_torchs\[all-positive-ordinary"),
    # -- numerics: a per-row scale applied along the columns (silent on a square weight)
    Mutation("review 11-29b: numerics: QuantizedWeight.dequantize applies the per-row scales along the columns",
             EDIT.format(path=_DYNAMIC, old="s = self.scale.reshape(-1, 1) if", new="s = self.scale.reshape(1, -1) if"),
             ["tests/test_quantization_dynamic.py", "-k", "dequantizes_as_torchs"],
             r"test_a_quantized_weight_dequantizes_as_torchs\[square-per-channel\]"),
    # -- the warnings policy: how the list is applied, and what an entry must name
    Mutation("review 11-29b: warnings: pytest's filter line for an allowed entry drops its message (ignore::<class>)",
             EDIT.format(path=_POLICY, old='return [f"ignore:{re.escape(e.prefix)}:{e.category}" for e in validate()]',
                          new='return [f"ignore::{e.category}" for e in validate()]'),
             ["tests/test_warning_policy.py", "-k", "filter_lines"],
             r"test_a_pytest_session_with_the_filter_lines_fails_on_any_other_warning"),
    Mutation("review 11-29b: warnings: an allowed entry whose prefix names only an acronym (Please use the new API)",
             EDIT.format(path=_POLICY, old="ALLOWED: tuple[AllowedWarning, ...] = (\n",
                          new="ALLOWED: tuple[AllowedWarning, ...] = (\n    AllowedWarning(\"UserWarning\", \"Please use the new API\","
                              " \"torch moved the TF32 settings to a new API\"),\n"),
             ["tests/test_warning_policy.py"], r"test_the_allow_list_in_the_repository_is_accepted", ["--noconftest"]),
    Mutation("review 11-29b: warnings: an upper-case run counts as a name again ([A-Z]{2} back in the policy's pattern)",
             EDIT.format(path=_POLICY, old='    r"|[A-Za-z][0-9]"  # a name with digits\n',
                          new='    r"|[A-Za-z][0-9]|[A-Z]{2}"  # a name with digits\n'),
             ["tests/test_warning_policy.py", "-k", "plain_words"], r"test_a_prefix_of_plain_words_is_refused\[an-acronym\]"),
    # -- deployment: the root page's head (its canonical link) was never read
    Mutation("review 11-29b: deploy: the root index.html redirects to ja/ but names en/ as its canonical page",
             EDIT.format(path="docs/hooks/root_pages.py", old='<link rel="canonical" href="ja/">',
                          new='<link rel="canonical" href="en/">'),
             ["tests/test_site_deploy.py", "-k", "root_holds"],
             r"test_the_root_holds_the_sitemap_index_and_the_pages_for_every_address"),
    # -- tolerance: a measurement rule was left out of the evidence checks
    Mutation("review 11-29b: tolerance: a varies = \"run\" rule's line widened over an exact line (^checkpointed)",
             EDIT.format(path="snippets/amp/memory_checkpoint.test.toml", old="line = '^checkpointed step:'\n",
                          new="line = '^checkpointed'\n"),
             ["tests/test_cpu_records.py", "-k", "measurement_rule"],
             r"test_a_measurement_rule_covers_only_numbers_that_vary\[amp/memory_checkpoint#1\]"),
    # -- the GPU command: a step's process leaves timeout's process group
    Mutation("review 11-29b: gpu command: the gpu-info step's Python detached from its box (setsid)",
             EDIT.format(path=".ci/gpu", old="\n  \"$PYTHON\" - <<'PY'\nimport importlib.metadata as md\n",
                          new="\n  setsid \"$PYTHON\" - <<'PY'\nimport importlib.metadata as md\n"),
             ["tests/test_ci_gpu.py", "-k", "outlive or stopped_at_its_box"],
             r"test_(nothing_in_the_scripts_can_outlive_its_time_box|a_step_is_stopped_at_its_box)"),
    Mutation("review 11-29b: gpu command: the gpu-info step's Python sent to the background (&)",
             EDIT.format(path=".ci/gpu", old="\n  \"$PYTHON\" - <<'PY'\nimport importlib.metadata as md\n",
                          new="\n  \"$PYTHON\" - <<'PY' &\nimport importlib.metadata as md\n"),
             ["tests/test_ci_gpu.py", "-k", "outlive"], r"test_nothing_in_the_scripts_can_outlive_its_time_box"),
    # -- path guards: the reader's PATH filter as a string prefix
    Mutation("review 11-29b: path guard: the reader's PATH filter is a string-prefix test (startswith(str(REPO)))",
             EDIT.format(path="tests/support/reader_venv.py", old="and not points_into(p, REPO)]",
                          new="and not p.startswith(str(REPO))]"),
             ["tests/test_reader_venv.py"], r"test_a_cache_beside_the_clone_with_the_same_prefix_is_no_leak"),
]
