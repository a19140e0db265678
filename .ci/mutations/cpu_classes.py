"""Mutations for the outputs of every CPU class (recorded/cpu, tests/test_cpu_records.py): a shown output
that only one class prints, a bound wider than its observed spread, a recorded output edited by hand."""

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
    Mutation("a recorded class output edited by hand (AVX-512's unknown cell 0.4 -> 0.9)",
             "sed -i 's/    0.4$/    0.9/' recorded/cpu/avx512/amp/memory_measure.out && grep -q '    0.9$' recorded/cpu/avx512/amp/memory_measure.out",
             ["tests/test_cpu_records.py", "-k", "what_was_recorded"],
             r"test_recorded_outputs_are_what_was_recorded\[cpu/avx512\]"),
]

# One per kind in CI (the suite's time budget): the per-class comparison; the bound against its spread
# and the records' digests are in `bash .ci/prove-tests-fail`.
CI_MUTATIONS = ("a shown output re-recorded on one CPU class",)
