"""Each way search reads text and queries, tested on its own: no site build, no browser, no query set.

The site's search is Material's search worker (lunr) with docs/hooks/search_query.js appended to its
Japanese segmenter (docs/hooks/search_query.py), the separator of each config (mkdocs.yml,
mkdocs.en.yml) and the synonyms of docs/glossary.yml and docs/search-synonyms.yml. Every
normalisation they make, in the index or in the query, has a test here that fails when that one
normalisation is removed:

| normalisation | where | test |
| --- | --- | --- |
| words cut by the browser's segmenter (Intl.Segmenter), not TinySegmenter | index and query | ``test_japanese_is_cut_into_the_browsers_words`` |
| katakana pieces ICU cut out of an unknown word joined again | index and query | ``test_katakana_pieces_are_joined`` |
| ... each rule of that join on its own (a letter before or after a piece, a small kana, two known words apart, no kanji) | index and query | ``test_katakana_pieces_are_joined_only_where_icu_cut_a_word`` |
| katakana long vowels folded (データローダー = データローダ) | index and query | ``test_long_vowels_are_folded`` |
| a kanji run not cut at every index key (the inverted index answers "no" for kanji) | query | ``test_kanji_keys_are_hidden_from_materials_query_cut`` |
| kanji pieces of one word reported as one word (正解率, not 正解 and 率) | query | ``test_a_kanji_word_stays_one_word`` |
| single hiragana (particles) dropped | query | ``test_particles_are_dropped`` |
| Japanese particles and stop words typed alone between Latin words (Mac の MPS で) are no query word | query | ``test_a_particle_typed_alone_is_no_query_word`` |
| a verb or adjective ICU cut into stem and endings (下 が っ た) searched by its stem, reported as typed | query | ``test_an_inflected_word_is_reported_as_typed`` |
| a hyphenated word also indexed and searched joined (speed-up = speedup) | index and query | ``test_hyphenated_words_are_also_joined`` |
| stop words match only themselves | query | ``test_stop_words_match_only_themselves`` |
| a minus before a digit is the number's sign, not lunr's "exclude" (-1e9 half) | query | ``test_a_minus_before_a_digit_is_a_sign`` |
| English words also looked up by their stem; the index keeps the word | query | ``test_english_words_are_also_looked_up_by_their_stem`` |
| synonyms: the glossary's and docs/search-synonyms.yml's, looked up by the folded word and by the whole part | query | ``test_synonyms_*`` |
| a dotted identifier: its last name is the word, the modules weigh less | query | ``test_a_dotted_name_is_asked_about_its_last_name`` |
| the separator (punctuation, code, U+200B, Latin next to Japanese; not camelCase) | index and query | ``test_the_separator_*`` |

Material's worker (``workers/search.*.min.js``) runs in Node exactly as the browser runs it, with
the tinyseg.js the build ships and the search config the build writes (Material's search plugin
reads mkdocs.yml and mkdocs.en.yml here): tests/support/search_worker.js. What a reader finds on
the built site is tests/test_site_search.py (Chromium, the query set).
"""

from __future__ import annotations

import importlib.util
import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
HOOKS = REPO / "docs" / "hooks"
HARNESS = Path(__file__).parent / "support" / "search_worker.js"


def _hook(name: str):
    sys.path.insert(0, str(HOOKS))
    try:
        spec = importlib.util.spec_from_file_location(f"{name}_under_test", HOOKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(HOOKS))


search_query = _hook("search_query")
search_hook = _hook("search")


def _node() -> str:
    """Node: the system's, else the one Playwright ships (the site tests need Playwright anyway)."""
    found = shutil.which("node")
    if found:
        return found
    import playwright

    return str(Path(playwright.__file__).parent / "driver" / "node")


def _assets() -> Path:
    import material

    return Path(material.__file__).parent / "templates" / "assets" / "javascripts"


def _search_config(config_file: str) -> dict:
    """What the build writes as the search index's config: Material's search plugin, set up from the config file."""
    from mkdocs.config import load_config

    config = load_config(str(REPO / config_file))
    plugin = config.plugins["material/search"]
    plugin.on_config(config)
    return {key: plugin.config[key] for key in ("lang", "separator", "pipeline", "fields")}


def doc(text: str, location: str = "a/", title: str = "T") -> dict:
    return {"location": location, "title": title, "text": text}


KATAKANA_JOIN_TEXT = "クエリ、トラッカ、ニューラルネットワーク、データローダー、テンソルコア、データ型"

#: Every case: (language, docs, ops). The worker runs once per language for all of them (module fixture).
CASES: dict[str, tuple[str, list[dict], list[dict]]] = {
    "segmenter": ("ja", [doc("正解率の使い方を説明します")],
                  [{"op": "tokens"}, {"op": "icu", "text": "正解率の使い方を説明します"},
                   {"op": "tiny", "text": "正解率の使い方を説明します"}, {"op": "lex", "part": "正解率の使い方を説明します"}]),
    "katakana": ("ja", [doc("キャリブレーション")],
                 [{"op": "tokens"}, {"op": "icu", "text": "キャリブレーション"}, {"op": "lex", "part": "キャリブレーション"},
                  {"op": "search", "query": "キャリブレーション"}]),
    # each way the join may or may not glue two katakana pieces, one word of the text per way (the icu op
    # checks that ICU still cuts them so): ク|エリ (a letter before a piece), ニュー|ラ|ル (letters after a
    # piece), トラ|ッカ (a piece that starts with a small kana), データ|ローダー and テンソル|コア (two words
    # ICU knows: apart), データ|型 (katakana before a kanji: apart)
    "katakana_join": ("ja", [doc(KATAKANA_JOIN_TEXT)], [{"op": "icu", "text": KATAKANA_JOIN_TEXT}, {"op": "tokens"},
                                                        {"op": "lex", "part": "ニューラルネットワーク"},
                                                        {"op": "search", "query": "トラッカ"}]),
    "long_vowels": ("ja", [doc("パラメーターを渡す", "a/"), doc("データローダを使う", "b/")],
                    [{"op": "tokens"}, {"op": "lex", "part": "パラメータ"}, {"op": "lex", "part": "パラメーター"},
                     {"op": "search", "query": "パラメータ"}, {"op": "search", "query": "データローダー"}]),
    "kanji_keys": ("ja", [doc("正解率は 90 %", "a/"), doc("正解を出す。確率", "b/"), doc("GradScaler", "c/")],
                   [{"op": "tokens"}, {"op": "has", "keys": ["正解", "率", "gradscaler"]}]),
    "kanji_word": ("ja", [doc("正解率は 90 %", "a/"), doc("正解を出す。確率", "b/")],
                   [{"op": "search", "query": "正解率"}]),
    "particles": ("ja", [doc("GradScaler の使い方", "a/"), doc("モデルの保存", "b/")],
                  [{"op": "lex", "part": "の使い方"}, {"op": "search", "query": "GradScaler の使い方"}]),
    "particles_alone": ("ja", [doc("Mac の MPS で混合精度を使う", "a/"), doc("モデルの保存", "b/")],
                        [{"op": "lex", "part": "の"}, {"op": "lex", "part": "なら"},
                         {"op": "search", "query": "Mac の MPS で混合精度"}]),
    "inflected": ("ja", [doc("精度が下がった原因を調べる", "a/"), doc("速くならない", "b/")],
                  [{"op": "lex", "part": "精度が下がった原因を調べたい"}, {"op": "search", "query": "精度が下がった原因を調べたい"},
                   {"op": "search", "query": "AMP 速くならない"}]),
    "hyphens": ("en", [doc("No speed-up on a GPU", "a/"), doc("the speedup table", "b/")],
                [{"op": "tokens"}, {"op": "lex", "part": "speed-up"}, {"op": "search", "query": "AMP no speedup GPU"}]),
    # -1e9 is a number a reader pastes from a mask (issue 42); -amp still excludes the word amp
    "negative_number_en": ("en", [doc("Masking with -1e9 overflows in half precision (float16)", "a/"), doc("half of the batch", "b/")],
                           [{"op": "lex", "part": "-1e9"}, {"op": "lex", "part": "-amp"}, {"op": "search", "query": "-1e9 half"}]),
    "negative_number_ja": ("ja", [doc("float16 では -1e9 でマスクするとオーバーフローします", "a/"), doc("半精度の説明", "b/")],
                           [{"op": "lex", "part": "-1e9"}, {"op": "search", "query": "-1e9 float16"}]),
    "stop_words_ja": ("ja", [doc("量子化とは何か", "a/")], [{"op": "lex", "part": "とは"}, {"op": "search", "query": "量子化 とは"}]),
    "stop_words_en": ("en", [doc("torch and autocast", "a/")], [{"op": "lex", "part": "to"}, {"op": "lex", "part": "the"}]),
    "stems": ("en", [doc("two layers dropped", "a/")],
              [{"op": "tokens"}, {"op": "lex", "part": "layers"}, {"op": "lex", "part": "dropped"}, {"op": "lex", "part": "class"}]),
    "synonyms_ja": ("ja", [doc("x")],
                    [{"op": "lex", "part": "bf16"}, {"op": "lex", "part": "精度"}, {"op": "lex", "part": "データローダー"},
                     {"op": "lex", "part": "量子化認識学習"}]),
    "synonyms_en": ("en", [doc("x")], [{"op": "lex", "part": "qat"}, {"op": "lex", "part": "optimiser"}]),
    "identifier": ("ja", [doc("x")], [{"op": "lex", "part": "torch.amp.GradScaler"}]),
    "separator_ja": ("ja", [doc("GradScaler使い方、torch.amp.autocast(x) は 0.5 倍「量子化」a\u200bb BFloat16")], [{"op": "tokens"}]),
    "separator_en": ("en", [doc("torch.amp.GradScaler(x) is 0.5x; BFloat16 p\u200bq state_dict")], [{"op": "tokens"}]),
}


@pytest.fixture(scope="module")
def answers() -> dict[str, list]:
    """Each case's answers, from one run of the worker per language (about a second)."""
    configs = {"ja": _search_config("mkdocs.yml"), "en": _search_config("mkdocs.en.yml")}
    material = (_assets() / "lunr" / "tinyseg.js").read_text(encoding="utf-8")
    out: dict[str, list] = {}
    for lang, config in configs.items():
        names = [name for name, (language, _, _) in CASES.items() if language == lang]
        job = {
            "assets": str(_assets()),
            "tinyseg": search_query.worker_script(material, lang),
            "marker": search_query.MARKER,
            "cases": [{"index": {"config": config, "docs": CASES[n][1]}, "ops": CASES[n][2]} for n in names],
        }
        proc = subprocess.run([_node(), str(HARNESS)], input=json.dumps(job), capture_output=True, text=True,
                              encoding="utf-8", timeout=120)
        assert proc.returncode == 0, proc.stderr[-3000:]
        out.update(zip(names, json.loads(proc.stdout)))
    return out


def terms(clauses: list[str]) -> set[str]:
    """The index terms a query's clauses look up (``データ*^1`` -> データ)."""
    return {re.sub(r"\*?\^\d+(\.\d+)?$", "", c) for c in clauses}


def typed_words(result: list) -> set[str]:
    """The words the reader typed, as search_query.js reports them on each result (its ``terms``)."""
    return {word for group in result for item in group for word in item["terms"]}


def pages(result: list) -> list[str]:
    return [group[0]["location"] for group in result]


def words(pieces: list[str]) -> list[str]:
    """The word-like pieces of a cut (no blanks, no punctuation), in lower case."""
    return [p.lower() for p in pieces if p.strip() and not re.fullmatch(r"[\s\W]+", p)]


# --- index and query ---


def test_japanese_is_cut_into_the_browsers_words(answers):
    """The index and the query cut Japanese where Intl.Segmenter does (使い方 one word; not 使 / い / 方),
    not where TinySegmenter would; the example is one the two cut differently."""
    tokens, icu, tiny, lexed = answers["segmenter"]
    assert words(icu) != words(tiny), "the example no longer tells the two segmenters apart"
    assert set(words(icu)) <= set(tokens) and not set(words(tiny)) - set(words(icu)) & set(tokens), (icu, tokens)
    assert "使い方" in tokens
    # single hiragana and Japanese stop words (ます) leave the query: test_particles_are_dropped
    kept = {w for w in words(icu) if not re.fullmatch(r"[\u3040-\u309f]", w) and w != "ます"}
    assert kept <= terms(lexed) and not terms(lexed) - set(words(icu)), (lexed, icu)


def test_katakana_pieces_are_joined(answers):
    """ICU cuts a katakana word it does not know into letters (キ ャ リ ブ レ ー ション); the index
    and the query join them again, so that no single letter is a word and the query finds the page."""
    tokens, icu, lexed, result = answers["katakana"]
    assert any(len(p) == 1 for p in icu), f"ICU no longer cuts the example into letters: {icu}"
    assert not [t for t in tokens if re.fullmatch(r"[\u30a1-\u30ff]", t)], tokens
    assert not [t for t in terms(lexed) if len(t) == 1], lexed
    assert terms(lexed) <= set(tokens)
    assert pages(result) == ["a/"] and all(result[0][0]["terms"].values()), result


# ICU's cut of KATAKANA_JOIN_TEXT, and what the join makes of it (the index's words, long vowels folded)
KATAKANA_CUT = ["ク", "エリ", "、", "トラ", "ッカ", "、", "ニュー", "ラ", "ル", "ネットワーク", "、", "データ", "ローダー", "、",
                "テンソル", "コア", "、", "データ", "型"]


def test_katakana_pieces_are_joined_only_where_icu_cut_a_word(answers):
    """Each rule of the join on its own: a single letter joins the katakana piece before or after it
    (ク|エリ, ニュー|ラ|ル), a piece that starts with a small kana or ー joins the one before it
    (トラ|ッカ); two words ICU knows stay two (データ|ローダー, テンソル|コア), and katakana never joins
    a kanji (データ|型). In the index and in the query alike."""
    icu, tokens, lexed, found = answers["katakana_join"]
    assert icu == KATAKANA_CUT, f"ICU cuts the example otherwise now; choose words it still cuts so: {icu}"
    joined = {"クエリ", "トラッカ", "ニュラル"}  # ニューラル, folded
    apart = {"ネットワク", "デタ", "ロダ", "テンソル", "コア", "型"}
    glued = {"ク", "エリ", "トラ", "ッカ", "ニュ", "ラ", "ル", "ラル", "ニュラルネットワク", "デタロダ", "テンソルコア", "デタ型"}
    assert joined | apart <= set(tokens), tokens
    assert not glued & set(tokens), f"joined where it must not, or not where it must: {sorted(glued & set(tokens))}"
    assert terms(lexed) == {"ニュラル", "ネットワク"}, lexed
    assert pages(found) == ["a/"] and found[0][0]["terms"] == {"トラッカ": True}, found


def test_long_vowels_are_folded(answers):
    """A ー after katakana is dropped in the index and in the query: パラメータ finds the page that
    writes パラメーター, データローダー the page that writes データローダ."""
    tokens, short, long, found_short, found_long = answers["long_vowels"]
    assert not [t for t in tokens if re.search(r"[\u30a1-\u30fa]\u30fc", t)], tokens  # the index holds folded words
    assert short == long  # the query folds both spellings to the same clauses
    assert pages(found_short) == ["a/"] and all(found_short[0][0]["terms"].values()), found_short
    assert pages(found_long) == ["b/"] and all(found_long[0][0]["terms"].values()), found_long


# --- the query ---


def test_kanji_keys_are_hidden_from_materials_query_cut(answers):
    """Material cuts a query's kanji run at every substring that is a key of the index (正解率 -> 正解* 率);
    search_query.js makes the inverted index answer "no" for kanji keys, which leaves the run whole.
    The keys are in the index all the same."""
    tokens, has = answers["kanji_keys"]
    assert {"正解", "率", "gradscaler"} <= set(tokens)
    assert has == [False, False, True]


def test_a_kanji_word_stays_one_word(answers):
    """正解率 (ICU: 正解 / 率) is one word the reader typed: the page that has it is first, and no result
    says 正解 or 率 was typed (the missing line would list them)."""
    (result,) = answers["kanji_word"]
    assert typed_words(result) == {"正解率"}, result
    assert pages(result)[0] == "a/" and result[0][0]["terms"] == {"正解率": True}


def test_particles_are_dropped(answers):
    """A single hiragana (の, を) is no word of the query: it would match every page."""
    lexed, result = answers["particles"]
    assert "の" not in terms(lexed) and "使い方" in terms(lexed), lexed
    assert typed_words(result) == {"gradscaler", "使い方"}, result
    assert pages(result) == ["a/"]


def test_a_particle_typed_alone_is_no_query_word(answers):
    """の and で typed between Latin words (Mac の MPS で) and なら are no clause at all: they would match,
    and be highlighted, on every page, and the missing line would list them."""
    no, nara, result = answers["particles_alone"]
    assert no == [] and nara == [], (no, nara)
    assert typed_words(result) == {"mac", "mps", "混合", "精度"}, result
    assert pages(result) == ["a/"]


def test_an_inflected_word_is_reported_as_typed(answers):
    """ICU cuts 下がった into 下 / が / っ / た and 速くならない into 速 / く / なら / ない: the stem is searched,
    and the word the missing line may list is the one typed (下がった), never a fragment (下, なら, 調べ)."""
    lexed, result, amp = answers["inflected"]
    assert {"下", "原因", "調べ"} <= terms(lexed) and not {"なら", "たい", "が", "た"} & terms(lexed), lexed
    assert typed_words(result) == {"精度", "下がった", "原因", "調べたい"}, result
    assert pages(result) == ["a/"] and all(result[0][0]["terms"].values())
    assert typed_words(amp) == {"amp", "速くならない"}, amp


def test_hyphenated_words_are_also_joined(answers):
    """The index holds speed-up as speed, up and speedup; a query's speed-up also searches speedup, so that
    either spelling finds both pages and the missing line never lists speedup for a page that writes speed-up."""
    tokens, lexed, result = answers["hyphens"]
    assert {"speed", "up", "speedup"} <= set(tokens), tokens
    assert "speedup*^1" in lexed and "speed^3" in lexed, lexed
    assert set(pages(result)) == {"a/", "b/"} and all(r[0]["terms"]["speedup"] for r in result), result


def test_stop_words_match_only_themselves(answers):
    """An English stop word is looked up as itself (no trailing *, which would make "to" find "torch"), with
    the weight of an expansion; a Japanese one (とは) is no clause at all; neither is a word the reader is
    told is missing."""
    lexed_ja, result = answers["stop_words_ja"]
    assert lexed_ja == [], lexed_ja
    assert typed_words(result) == {"量子化"}, result
    to, the = answers["stop_words_en"]
    assert to == ["to^1"] and the == ["the^1"]


def test_a_minus_before_a_digit_is_a_sign(answers):
    """lunr reads a leading - as "exclude this word", so "-1e9 half" found only the pages without 1e9 (issue
    42). A minus before a digit is now the number's sign: the index holds 1e9 (the separator drops the sign),
    so the query looks 1e9 up and finds the page that writes -1e9; a minus before a letter still excludes."""
    sign, exclude, result = answers["negative_number_en"]
    assert "1e9^3" in sign and "-" not in sign, sign
    assert exclude == ["-", "amp"], exclude  # left to lunr's own lexer: PRESENCE.PROHIBITED
    assert pages(result)[0] == "a/" and result[0][0]["terms"] == {"1e9": True, "half": True}, result
    sign_ja, result_ja = answers["negative_number_ja"]
    assert "1e9^3" in sign_ja, sign_ja
    assert pages(result_ja) == ["a/"], result_ja


def test_english_words_are_also_looked_up_by_their_stem(answers):
    """layers -> layer*, dropped -> drop*, class stays class; the index keeps the words as written."""
    tokens, layers, dropped, klass = answers["stems"]
    assert {"layers", "dropped"} <= set(tokens) and "layer" not in tokens
    assert "layer*^1" in layers and "layers^3" in layers
    assert "drop*^1" in dropped
    assert terms(klass) == {"class"}


def test_synonyms_of_the_glossary_and_the_synonyms_file(answers):
    """bf16 also searches bfloat16 (the glossary's abbreviation); 精度 also 正解率 (docs/search-synonyms.yml);
    qat also quantization-aware on the English site; each with less weight than the word typed."""
    bf16, seido, _, _ = answers["synonyms_ja"]
    assert "bf16^3" in bf16 and "bfloat16*^1" in bf16
    assert "精度^3" in seido and "正解^1" in seido
    qat, optimiser = answers["synonyms_en"]
    assert "quantization*^1" in qat and "aware*^1" in qat
    assert "optimizer*^1" in optimiser


def test_synonyms_are_looked_up_by_the_folded_word_and_the_whole_part(answers):
    """データローダー finds the entry データローダ (-> DataLoader) although it is typed with a long vowel;
    量子化認識学習 finds its entry as typed, before it is cut into words (-> 量子化を意識した学習)."""
    _, _, dataloader, qat = answers["synonyms_ja"]
    assert "dataloader*^1" in dataloader, dataloader
    assert "意識^1" in qat, qat


def test_synonym_table_merges_the_glossary_and_the_synonyms_file():
    """The table the hook appends: the glossary's abbreviations and variants, then docs/search-synonyms.yml."""
    ja, en = search_query.synonyms("ja"), search_query.synonyms("en")
    assert ja["bf16"] == ["bfloat16"] and "正解率" in ja["精度"] and ja["データローダ"] == ["DataLoader"]
    assert "accuracy" in en["精度"] and "float8" in en["fp8"]
    assert all(key == key.lower() for key in (*ja, *en))


def test_a_dotted_name_is_asked_about_its_last_name(answers):
    """torch.amp.GradScaler: GradScaler weighs as a typed word and is expanded; torch and amp weigh 1 and
    are not expanded (amp's synonym, automatic mixed precision, would bring every AMP page)."""
    (lexed,) = answers["identifier"]
    assert "gradscaler^3" in lexed and "torch^1" in lexed and "amp^1" in lexed
    assert "torch^3" not in lexed and "amp^3" not in lexed
    assert {"自動", "混合"}.isdisjoint(terms(lexed)), lexed


# --- the separator (mkdocs.yml, mkdocs.en.yml) ---


def test_the_separator_of_the_japanese_site(answers):
    """Latin next to Japanese splits (GradScaler使い方), so do code punctuation, U+200B and Japanese
    punctuation; a decimal point does not (0.5), nor camelCase (BFloat16 stays one word)."""
    (tokens,) = answers["separator_ja"]
    assert {"gradscaler", "使い方", "torch", "amp", "autocast", "x", "0.5", "量子", "a", "b", "bfloat16"} <= set(tokens), tokens
    assert not [t for t in tokens if re.search(r"[\u200b.(){}「」、]", t) and t != "0.5"], tokens


def test_the_separator_of_the_english_site(answers):
    (tokens,) = answers["separator_en"]
    assert {"torch", "amp", "gradscaler", "x", "0.5x", "bfloat16", "p", "q", "state_dict"} <= set(tokens), tokens
    assert not [t for t in tokens if re.search(r"[\u200b();]", t)], tokens


# --- docs/hooks/search.py: what the index holds and how it weighs pages ---


class _File:
    def __init__(self, uri):
        self.src_uri = uri


class _Page:
    def __init__(self, uri):
        self.file, self.meta = _File(uri), {}


@pytest.mark.parametrize(("uri", "lang", "boost", "excluded"), [
    ("amp/grad-scaler.md", "ja", 1.3, False),
    ("quantization/index.md", "en", 1.5, False),
    ("reference/amp.md", "en", 0.5, False),
    ("reference/amp.md", "ja", 0.5, True),
    ("guide/tensors.md", "ja", None, False),
])
def test_the_search_hook_sets_boost_and_exclude(uri, lang, boost, excluded):
    page = _Page(uri)
    config = {"theme": {"language": lang}, "extra": {}, "site_dir": "site"}
    assert search_hook.on_page_markdown("text", page, config, None) == "text"
    assert page.meta.get("search", {}).get("boost") == boost
    assert page.meta.get("search", {}).get("exclude", False) is excluded
