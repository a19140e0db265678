# Issue 39: what readers would suffer in search and in the results tables.
# Loaded by .ci/prove_tests_fail.py (Mutation is provided there; see README.md in this folder).

MUTATIONS = [
    # -- search: a normalisation of the index or the query removed --
    Mutation("search: the long-vowel fold dropped from the index (データローダー no longer finds データローダ; the worker in Node)",
             """python3 - <<'PY'
p = "docs/hooks/search_query.js"; s = open(p, encoding="utf-8").read()
old = "if (this.pipeline._stack.indexOf(foldLongVowels) < 0) this.pipeline.add(foldLongVowels)"
assert old in s
open(p, "w", encoding="utf-8").write(s.replace(old, ""))
PY""",
             ["tests/test_search_normalisation.py", "-k", "long_vowels"], r"test_long_vowels_are_folded"),
    Mutation("search: kanji pieces of one word no longer joined (正解率 reported as 正解 and 率; the worker in Node)",
             """python3 - <<'PY'
p = "docs/hooks/search_query.js"; s = open(p, encoding="utf-8").read()
old = "if (previous && kanji && previous.kanji && (lower.length === 1 || previous.word.length === 1)) {"
assert old in s
open(p, "w", encoding="utf-8").write(s.replace(old, "if (false) {"))
PY""",
             ["tests/test_search_normalisation.py", "-k", "kanji_word"], r"test_a_kanji_word_stays_one_word"),
    Mutation("search: the long-vowel fold dropped from the index and the query (the query set in Chromium: ja 110 of 112 found, above the old 95 %)",
             """python3 - <<'PY'
p = "docs/hooks/search_query.js"; s = open(p, encoding="utf-8").read()
for old in ("if (this.pipeline._stack.indexOf(foldLongVowels) < 0) this.pipeline.add(foldLongVowels)", "      term = fold(term)\\n"):
    assert old in s
    s = s.replace(old, "")
open(p, "w", encoding="utf-8").write(s)
PY""",
             ["tests/test_site_search.py", "-k", "finds_the_page and ja"], r"test_search_finds_the_page\[ja\]"),
    # -- search: the join of katakana pieces ICU cut out of a word, each rule of it --
    Mutation("search: the katakana join glues any two katakana pieces (データ|ローダー, テンソル|コア become one word; the worker in Node)",
             """python3 - <<'PY'
p = "docs/hooks/search_query.js"; s = open(p, encoding="utf-8").read()
old = "(last.length === 1 || piece.length === 1 || SMALL_OR_LONG.test(piece))"
assert old in s
open(p, "w", encoding="utf-8").write(s.replace(old, "true"))
PY""",
             ["tests/test_search_normalisation.py", "-k", "katakana"], r"test_katakana_pieces_are_joined_only_where_icu_cut_a_word"),
    Mutation("search: a katakana letter no longer joins the piece after it (ク|エリ stays two; the worker in Node)",
             """python3 - <<'PY'
p = "docs/hooks/search_query.js"; s = open(p, encoding="utf-8").read()
old = "(last.length === 1 || piece.length === 1 || SMALL_OR_LONG.test(piece))"
assert old in s
open(p, "w", encoding="utf-8").write(s.replace(old, "(piece.length === 1 || SMALL_OR_LONG.test(piece))"))
PY""",
             ["tests/test_search_normalisation.py", "-k", "katakana"], r"test_katakana_pieces_are_joined_only_where_icu_cut_a_word"),
    # -- results: a committed number that no run produced --
    Mutation("results: a committed GPU result edited by hand, its tables re-rendered (gpu_matmul float16 at n = 8192: 692 -> 761 TFLOP/s)",
             """.venv/bin/python - <<'PY'
import json
from pathlib import Path
p = Path("benchmarks/results/cuda/gpu_matmul.json"); d = json.loads(p.read_text(encoding="utf-8"))
row = next(r for r in d["rows"] if r["dtype"] == "float16" and r["n"] == 8192)
row["tflops"] *= 1.1
p.write_text(json.dumps(d, indent=2, ensure_ascii=False) + "\\n", encoding="utf-8")
PY
.venv/bin/python -m benchmarks --render-only --out benchmarks/results/cuda > /dev/null && grep -q '| 761 |' benchmarks/results/cuda/gpu_matmul.md""",
             ["tests/test_bench_provenance.py", "-k", "committed_result"],
             r"test_every_committed_result_matches_the_digest_of_its_run\[cuda/gpu_matmul\]"),
    # -- results: a row whose verdict contradicts its times --
    Mutation("results: a committed row says faster beside times that say slower (cuda/torchao 6.29x slower -> 6.29x faster, digest recorded again, tables re-rendered)",
             """.venv/bin/python - <<'PY'
import json
from pathlib import Path
from benchmarks import provenance
p = Path("benchmarks/results/cuda/torchao.json"); d = json.loads(p.read_text(encoding="utf-8"))
row = next(r for r in d["rows"] if r["verdict"]["msg"] == "verdict.slower" and r["verdict"]["args"]["ratio"] > 6)
row["verdict"]["msg"] = "verdict.faster"
d = provenance.seal(d, d["provenance"]["run"], d["provenance"]["recorded"])  # so that only the row check can catch it
p.write_text(json.dumps(d, indent=2, ensure_ascii=False) + "\\n", encoding="utf-8")
PY
.venv/bin/python -m benchmarks --render-only --out benchmarks/results/cuda > /dev/null && grep -q '6.29x faster' benchmarks/results/cuda/torchao.md""",
             ["tests/test_result_rows.py", "-k", "committed_row"], r"test_every_committed_row_agrees_with_its_times\[cuda/torchao\]"),
    Mutation("results: a fresh row's two times swapped (report.comparison_cells; the quick run's verdicts contradict their times)",
             """python3 - <<'PY'
p = "benchmarks/report.py"; s = open(p, encoding="utf-8").read()
old = '        "baseline_ms": c.baseline_s * 1e3,\\n        "variant_ms": c.variant_s * 1e3,\\n'
assert old in s
open(p, "w", encoding="utf-8").write(s.replace(old, '        "baseline_ms": c.variant_s * 1e3,\\n        "variant_ms": c.baseline_s * 1e3,\\n'))
PY""",
             ["tests/test_bench.py", "-k", "every_row_agrees"], r"test_every_row_agrees_with_its_times"),
]

# The fastest of each kind that needs no built site (.ci/test runs them after the suite).
CI_MUTATIONS = [
    "results: a committed GPU result edited by hand",
]
