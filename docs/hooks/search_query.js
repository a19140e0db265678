/*
 * How Material's search worker reads Japanese text and what readers type.
 *
 * docs/hooks/search_query.py appends this file, after a line that sets
 * self.__SEARCH_SYNONYMS (docs/search-synonyms.yml, the build's language), to
 * Material's assets/javascripts/lunr/tinyseg.js. The search worker loads that file
 * (with importScripts, or from the offline edition's iframe) when the search
 * languages include "ja", after lunr and before it builds the index; mkdocs.en.yml
 * lists ja for the English site for this reason.
 *
 * 1. Words, not scripts: where the browser has Intl.Segmenter (ICU's dictionary;
 *    every current browser), Japanese text is cut into words with it, both in the
 *    index (Material calls lunr.TinySegmenter's segment()) and in the query, so that
 *    使い方 is one word and not 使 / い / 方 (the single い matched every page).
 *    Without Intl.Segmenter, TinySegmenter stays.
 * 2. Query words are cut the same way (Material only cuts kanji runs of a query),
 *    single hiragana (particles: の, を) are dropped.
 * 3. Stop words (English and Japanese particles such as とは) match only themselves:
 *    Material appends * to every query word, so "to" would find "torch" and "tour"
 *    and, through the title boost, rank "A tour of the front-end API" first. A word
 *    ending in ^1 keeps Material from appending *.
 * 4. Synonyms: a query word listed in docs/search-synonyms.yml (bf16, fp8, 精度) also
 *    searches for the words the site uses (bfloat16, float8, 正解率). Identifiers are
 *    also looked up by their dotted parts (torch.amp.GradScaler -> gradscaler).
 *
 * Checked in Chromium by tests/test_site_search.py.
 */
;(function (lunr, synonyms) {
  if (!lunr || !lunr.QueryLexer) return
  var JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u3005\u3006]/
  var ONE_HIRAGANA = /^[\u3040-\u309f]$/
  var STOP = new Set([
    "の", "に", "は", "を", "が", "で", "と", "も", "へ", "や", "か", "な", "た", "て", "し", "だ",
    "です", "ます", "する", "した", "して", "いる", "ある", "から", "まで", "より", "など", "という",
    "ため", "とは", "vs", "versus"
  ])
  var words = typeof Intl !== "undefined" && Intl.Segmenter
    ? new Intl.Segmenter("ja", { granularity: "word" })
    : null
  var tiny = lunr.TinySegmenter ? new lunr.TinySegmenter() : null

  /* Every piece of the text, in order: Material computes positions from the lengths. */
  function segment(text) {
    if (words) return Array.from(words.segment(text), function (s) { return s.segment })
    return tiny ? tiny.segment(text) : [text]
  }
  if (words && lunr.TinySegmenter) lunr.TinySegmenter.prototype.segment = segment

  function isStopWord(word) {
    return STOP.has(word) || (typeof lunr.stopWordFilter === "function" && !lunr.stopWordFilter(word))
  }

  function queryWords(term) {
    return JAPANESE.test(term) ? segment(term) : [term]
  }

  /*
   * Material lexes each whitespace-separated part of the query, then splits each
   * term with the search separator (which contains U+200B), appending * to each word.
   * lunr lexes the result again: a term that already has * or ^ is left alone.
   */
  var run = lunr.QueryLexer.prototype.run
  lunr.QueryLexer.prototype.run = function () {
    run.call(this)
    for (var i = 0; i < this.lexemes.length; i++) {
      var lexeme = this.lexemes[i]
      var next = this.lexemes[i + 1]
      if (lexeme.type !== lunr.QueryLexer.TERM || /[*\u200b]/.test(lexeme.str)) continue
      if (next && (next.type === lunr.QueryLexer.BOOST || next.type === lunr.QueryLexer.EDIT_DISTANCE)) continue
      var all = queryWords(lexeme.str).filter(function (w) { return w.trim() })
      var kept = all.filter(function (w) { return !ONE_HIRAGANA.test(w) })
      if (!kept.length) kept = all
      var expanded = []
      kept.forEach(function (word) {
        var lower = word.toLowerCase()
        ;[lower].concat(lower.split(/[._]/)).forEach(function (key) {
          if (Object.prototype.hasOwnProperty.call(synonyms, key))
            synonyms[key].forEach(function (s) { expanded = expanded.concat(queryWords(s)) })
        })
      })
      lexeme.str = kept.concat(expanded)
        .map(function (w) { return isStopWord(w.toLowerCase()) ? w + "^1" : w })
        .join("\u200b")
    }
  }
})(self.lunr, self.__SEARCH_SYNONYMS || {})
