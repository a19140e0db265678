"""Search that reads Japanese as words and queries as readers type them (hook; both builds).

Material's search worker loads ``assets/javascripts/lunr/tinyseg.js`` when the search
languages include ``ja`` (mkdocs.yml; mkdocs.en.yml adds ``ja`` for this). After the
build, this hook appends to that file the synonyms of the build's language (from
docs/glossary.yml and docs/search-synonyms.yml) and docs/hooks/search_query.js, which cuts
Japanese text and queries into words with the browser's ``Intl.Segmenter``, ignores katakana
long vowels, lets stop words match only themselves, adds the synonyms to a query, weighs
results by the reader's words and lists only those as missing. The text of the search index
is not changed; the hook only writes it again as UTF-8 (Material writes \\uXXXX escapes: the
Japanese index shrinks from 1.06 MB to 0.77 MB).
Why this and not a segmenter at build time or Pagefind: README "Japanese search".
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import yaml
from _common import DOCS, lang
from mkdocs.exceptions import PluginError

SCRIPT = Path(__file__).with_suffix(".js")
SYNONYMS = DOCS / "search-synonyms.yml"
GLOSSARY = DOCS / "glossary.yml"
WORKER_SCRIPT = Path("assets") / "javascripts" / "lunr" / "tinyseg.js"
MARKER = "\n/* appended by docs/hooks/search_query.py */"


PLAIN = re.compile(r"^[^\[\](){}?*+|\\^$.]+$")  # an avoid pattern that is a plain word


def names(text: str) -> list[str]:
    """A glossary term's names: ``float16(半精度)`` -> float16, 半精度."""
    match = re.match(r"^(.*?)\s*[(（](.*)[)）]\s*$", text)
    return [n.strip() for n in (match.groups() if match else (text,)) if n.strip()]


def glossary_synonyms(language: str) -> dict[str, list[str]]:
    """What readers type for each glossary term -> the term's names in ``language``.

    Keys: the abbreviations (bf16, QAT), the variants the style rules out in Japanese prose
    (ロススケーリング, トレーニング, 正答率: readers type them), the other language's names
    and the reading in parentheses (半精度 -> float16), each to the term's main name; one word
    each, as the query looks words up one by one.
    """
    table: dict[str, list[str]] = {}
    other = "ja" if language == "en" else "en"
    for group in yaml.safe_load(GLOSSARY.read_text(encoding="utf-8"))["groups"]:
        for term in group["terms"]:
            own = names(term[language])
            keys = own[1:] + names(term[other]) + list(term.get("abbr") or [])
            # an avoid pattern holding the term itself is a misuse (テスト精度 means accuracy)
            misuse = names(term["ja"])[0]
            keys += [a for a in term.get("avoid") or [] if PLAIN.match(a) and misuse not in a]
            for key in keys:
                key = key.lower()
                if " " in key or key == own[0].lower():
                    continue
                table.setdefault(key, [])
                if own[0] not in table[key]:
                    table[key].append(own[0])
    return table


def synonyms(language: str) -> dict[str, list[str]]:
    """The glossary's synonyms, extended by docs/search-synonyms.yml (what readers type that
    the glossary does not list: 精度 for accuracy, 量子化認識学習)."""
    table = glossary_synonyms(language)
    listed = yaml.safe_load(SYNONYMS.read_text(encoding="utf-8"))[language]
    for word, expansions in listed.items():
        key = str(word).lower()
        table.setdefault(key, [])
        table[key] += [str(e) for e in expansions if str(e) not in table[key]]
    return table


def on_config(config, **kwargs):
    search = config["plugins"].get("search")
    if search is None:
        return config
    if "ja" not in (search.config.get("lang") or []):
        raise PluginError("search: lang must include ja, or the search worker never loads docs/hooks/search_query.js")
    if "\\u200b" not in search.config["separator"] and "\u200b" not in search.config["separator"]:
        raise PluginError("the search separator must contain U+200B: docs/hooks/search_query.js joins query words with it")
    return config


def on_post_build(config, **kwargs):
    index = Path(config["site_dir"]) / "search" / "search_index.json"
    if index.is_file():  # after the search plugin (plugins run before hooks) wrote it
        data = json.loads(index.read_text(encoding="utf-8"))
        index.write_text(json.dumps(data, ensure_ascii=False, separators=(",", ":")), encoding="utf-8")
    path = Path(config["site_dir"]) / WORKER_SCRIPT
    if not path.is_file():
        raise PluginError(f"{WORKER_SCRIPT} is missing: has Material moved its Japanese segmenter?")
    path.write_text(worker_script(path.read_text(encoding="utf-8"), lang(config)), encoding="utf-8")


def worker_script(material: str, language: str) -> str:
    """Material's tinyseg.js with the synonyms of ``language`` and search_query.js appended: the file
    the site ships (tests/test_search_normalisation.py runs it in Material's worker as it is)."""
    material = material.split(MARKER)[0]  # once, also on a dirty rebuild
    table = json.dumps(synonyms(language), ensure_ascii=False)
    return f"{material}{MARKER}\n;self.__SEARCH_SYNONYMS = {table};\n{SCRIPT.read_text(encoding='utf-8')}"
