"""Mutations for the outputs of every CPU class (recorded/cpu, tests/test_cpu_records.py): a shown output
that only one class prints, a bound wider than its observed spread, a rule widened over numbers that never
moved, a bound and its spread raised together beyond what was seen, an observation off the record that the
rules do not admit, a recorded output edited by hand (its digest recomputed by hand too)."""

# `Mutation` and `EDIT` are provided by .ci/prove_tests_fail.py, which loads this file.

MUTATIONS = [
    Mutation("a shown output re-recorded on one CPU class (the AMX convolution message, its cpu rule gone)",
             "cp recorded/cpu/amx/amp/dtype_mismatch_messages.out snippets/amp/dtype_mismatch_messages.out"
             " && rm snippets/amp/dtype_mismatch_messages.test.toml",
             ["tests/test_cpu_records.py", "-k", "admits_every_class and dtype_mismatch"],
             r"test_the_shown_output_admits_every_class\[amp/dtype_mismatch_messages\]"),
    Mutation("a shown number that only one CPU class prints (memory's unknown cell: the AMX value beyond its rule)",
             "sed -i 's/^unknown               -    8.0    0.0      -    0.4$/unknown               -    8.0    0.0      -    1.1/'"
             " snippets/amp/memory_measure.out && grep -q '    1.1$' snippets/amp/memory_measure.out",
             ["tests/test_cpu_records.py", "-k", "admits_every_class and memory_measure"],
             r"test_the_shown_output_admits_every_class\[amp/memory_measure\]"),
    Mutation("a tolerance bound widened far beyond its observed spread (memory_measure abs 0.6 -> 3.0)",
             "sed -i 's/^abs = 0.6$/abs = 3.0/' snippets/amp/memory_measure.test.toml && grep -q '^abs = 3.0' snippets/amp/memory_measure.test.toml",
             ["tests/test_cpu_records.py", "-k", "no_wider and memory_measure"],
             r"test_a_bound_is_no_wider_than_its_observed_spread\[amp/memory_measure"),
    Mutation("a spread that understates what the classes printed (memory_measure spread 0.6 -> 0.3, bound 0.6 kept)",
             "sed -i 's/^spread = 0.6$/spread = 0.3/' snippets/amp/memory_measure.test.toml && grep -q '^spread = 0.3' snippets/amp/memory_measure.test.toml",
             ["tests/test_cpu_records.py", "-k", "no_wider and memory_measure"],
             r"test_a_bound_is_no_wider_than_its_observed_spread\[amp/memory_measure"),
    Mutation("a script changed back to what only one class printed (float8_scaled's torch.equal: AMX and AVX2 records stale, not compared)",
             "sed -i 's/print(f\"torch._scaled_mm gives the same result within 1e-5: {torch.allclose(older, out, rtol=1e-5, atol=1e-5)}\")/"
             "print(f\"torch._scaled_mm gives the same result: {torch.equal(older, out)}\")/' snippets/gpu/float8_scaled.py"
             " && sed -i 's/gives the same result within 1e-5: True/gives the same result: True/' snippets/gpu/float8_scaled.out"
             " && grep -q 'torch.equal(older, out)' snippets/gpu/float8_scaled.py",
             ["tests/test_cpu_records.py", "-k", "admits_every_class and float8_scaled"],
             r"test_the_shown_output_admits_every_class\[gpu/float8_scaled\]"),
    # -- the evidence bounds each rule from above (records and recorded/observed.toml) --
    Mutation("a tolerance rule's line widened over exact numbers (lr_sweep's lr-1 rule from SGD|RMSprop to every optimizer: Adam's 0.100 no longer exact)",
             EDIT.format(path="snippets/guide/lr_sweep.test.toml", old="line = '^(SGD|RMSprop)\\s'\nnumber = 5",
                          new="line = '^\\w+\\s'\nnumber = 5"),
             ["tests/test_cpu_records.py", "-k", "vary and lr_sweep"],
             r"test_a_rule_covers_only_numbers_that_vary\[guide/lr_sweep#2\]"),
    Mutation("a tolerance rule's line widened back over the stable lines (accuracy_skip's accuracy rule on every int8/int4 row)",
             EDIT.format(path="snippets/quantization/accuracy_skip.test.toml", old="line = '^int4, (every Linear|layer 4 in int8)'",
                          new="line = '^(int8|int4)'"),
             ["tests/test_cpu_records.py", "-k", "vary and accuracy_skip"],
             r"test_a_rule_covers_only_numbers_that_vary\[quantization/accuracy_skip#2\]"),
    Mutation("a tolerance rule's number dropped, widening it over its line's exact numbers (memory_lowbit's AdamWFp8 loss rule: 0.25 and 83.5% no longer exact)",
             EDIT.format(path="snippets/amp/memory_lowbit.test.toml", old="line = '^AdamWFp8\\s'\nnumber = -3\n",
                          new="line = '^AdamWFp8\\s'\n"),
             ["tests/test_cpu_records.py", "-k", "vary and memory_lowbit"],
             r"test_a_rule_covers_only_numbers_that_vary\[amp/memory_lowbit#2\]"),
    Mutation("a bound and its stated spread raised together (memory_measure abs and spread 0.6 -> 1.5)",
             "sed -i 's/^abs = 0.6$/abs = 1.5/; s/^spread = 0.6$/spread = 1.5/' snippets/amp/memory_measure.test.toml"
             " && grep -q '^spread = 1.5' snippets/amp/memory_measure.test.toml && grep -q '^abs = 1.5' snippets/amp/memory_measure.test.toml",
             ["tests/test_cpu_records.py", "-k", "seen and memory_measure"],
             r"test_a_spread_is_no_larger_than_what_was_seen\[amp/memory_measure"),
    Mutation("an observation off the record that the rules do not admit (schedule_early_stop: AMD printed 0.946, beyond the 0.004 bound)",
             EDIT.format(path="recorded/observed.toml", old="printed = ['0.956']", new="printed = ['0.946']"),
             ["tests/test_cpu_records.py", "-k", "observation"],
             r"test_each_observation_is_admitted_by_the_rules_and_within_the_spread\[guide/schedule_early_stop"),
    Mutation("a recorded class output edited by hand and its digest recomputed by hand (AVX-512's unknown cell 0.4 -> 0.9, record.toml re-sealed)",
             """.venv/bin/python - <<'PY'
from docs_tools import records
rec = next(r for r in records.all_records("cpu") if r.name == "avx512")
path = rec.output_path("amp/memory_measure"); text = path.read_text(encoding="utf-8")
assert "    0.4\\n" in text
text = text.replace("    0.4\\n", "    0.9\\n"); path.write_text(text, encoding="utf-8")
rec.entries["amp/memory_measure"].output = records.digest(text)
rec.save()
PY""",
             ["tests/test_cpu_records.py", "-k", "what_was_recorded or copied_record"],
             r"test_a_copied_record_is_the_file_of_its_commit\[cpu/avx512\]"),
    # -- a copy passed off as a run: the review's instance went through a prose figure that quotes the
    # value; this one is an entry no prose quotes, caught by the rule that a copied record's entries
    # keep their origin until a machine of the class runs them (ran_on)
    Mutation("a copied record entry re-sealed with its origin deleted (AVX-512's accuracy_perplexity 5.307 -> 5.310, no prose quotes it)",
             """.venv/bin/python - <<'PY'
from docs_tools import records
rec = next(r for r in records.all_records("cpu") if r.name == "avx512")
key = "quantization/accuracy_perplexity"
path = rec.output_path(key); text = path.read_text(encoding="utf-8")
assert " 5.307 " in text and rec.entries[key].origin and rec.made == "copied"
text = text.replace(" 5.307 ", " 5.310 "); path.write_text(text, encoding="utf-8")
rec.entries[key].output = records.digest(text)
rec.entries[key].origin = ""
rec.save()
PY""",
             ["tests/test_cpu_records.py", "-k", "made or copied_record"],
             r"test_a_record_says_how_each_entry_was_made\[cpu/avx512\]"),
    Mutation("a recorded class output edited by hand (AVX-512's unknown cell 0.4 -> 0.9)",
             "sed -i 's/    0.4$/    0.9/' recorded/cpu/avx512/amp/memory_measure.out && grep -q '    0.9$' recorded/cpu/avx512/amp/memory_measure.out",
             ["tests/test_cpu_records.py", "-k", "what_was_recorded"],
             r"test_recorded_outputs_are_what_was_recorded\[cpu/avx512\]"),
]

# One per kind in CI (the suite's time budget): the per-class comparison and how a record was made; the
# bound against its spread, the evidence's bounds (line and number) and the records' digests are in
# `bash .ci/prove-tests-fail` (each needs no site and runs in seconds, left out to keep --ci near a minute).
CI_MUTATIONS = (
    "a shown output re-recorded on one CPU class",
    # how a record was made: one test file, no site, no script run (about 8 s of CPU, as the one above)
    "a copied record entry re-sealed with its origin deleted",
)
