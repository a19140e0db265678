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
 *    Without Intl.Segmenter, TinySegmenter stays. Material's own cutting of kanji runs
 *    in the query (every substring found in the index: 学, 損, 正解 率) is switched off,
 *    so that the query holds only the reader's words and their expansions.
 * 2. Katakana long vowels: a ー after katakana is dropped from every word of the index
 *    and of the query, so that データローダ and データローダー, パラメータ and
 *    パラメーター are the same word (the site writes JIS Z 8301's spelling; many readers
 *    type the other: STYLE.ja.md).
 * 3. Query words: single hiragana (particles: の, を) and Japanese stop words (とは,
 *    なら, したら), typed inside a Japanese run or on their own between Latin words
 *    (Mac の MPS で), are no part of the query: they would match, and be highlighted,
 *    on every page. English stop words match only themselves (Material appends * to
 *    every query word, so "to" would find "torch"); an English word is also looked up
 *    by its stem (dropped -> drop*, layers -> layer*), the index is not stemmed.
 *    A verb or adjective that ICU cut into its stem and endings (下 が っ た, 速 く なら
 *    ない, 調べ たい) is searched by its stem and reported as the reader typed it
 *    (下がった), never as the fragment 下.
 * 3b. Hyphenated words: the index also holds a hyphenated Latin word joined (speed-up
 *    -> speedup, as well as speed and up), and a query word typed with hyphens also
 *    searches the joined word, so that speedup finds speed-up and speed-up speedup.
 * 4. Synonyms: a query word listed in docs/search-synonyms.yml (bf16, 精度, 損失スケー
 *    リング) also searches for the site's words (bfloat16, 正解率, 勾配スケーリング),
 *    with less weight than the words typed. Identifiers are also looked up by their
 *    dotted parts (torch.amp.GradScaler -> gradscaler).
 * 5. Ranking and "Missing": Material multiplies a result's score by how many of the
 *    query's terms it contains and lists the others as missing. Here a result is
 *    weighed by how many of the words the reader typed it contains (a word counts when
 *    it or one of its expansions is there), and the missing line lists only words the
 *    reader typed: never an expansion, a stem or a stop word.
 *
 * Checked in Chromium by tests/test_site_search.py (tests/data/search_queries.yml).
 */
;(function (lunr, synonyms) {
  if (!lunr || !lunr.QueryLexer) return
  var JAPANESE = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff\u3005\u3006]/
  var HAN = /[\u3400-\u9fff\uf900-\ufaff\u3005\u3006]/
  var ONE_HIRAGANA = /^[\u3040-\u309f]$/
  var LONG_VOWEL = /([\u30a1-\u30fa])\u30fc+/g
  var STOP = new Set([
    "の", "に", "は", "を", "が", "で", "と", "も", "へ", "や", "か", "な", "た", "て", "し", "だ",
    "です", "ます", "する", "した", "して", "いる", "ある", "から", "まで", "より", "など", "という",
    "ため", "とは", "たい", "したい", "したら", "たら", "ない", "なら", "ならば", "だけ", "けど", "なる", "れる", "られる", "ください",
    "どれ", "どの", "どう", "どこ", "なぜ", "くらい", "ぐらい", "こと", "もの", "よう", "vs", "versus"
  ])
  var HIRAGANA = /^[\u3040-\u309f]+$/
  var HYPHENATED = /[A-Za-z][A-Za-z0-9]*(?:-[A-Za-z][A-Za-z0-9]*)+/g
  var TYPED = 3       /* the weight of a word the reader typed (lunr's boost) */
  var EXPANSION = 1   /* ... of a synonym or a stem of it */
  var SECTIONS = 0.5 /* a page's rank: its best section's score and this much of the next three's */
  var words = typeof Intl !== "undefined" && Intl.Segmenter
    ? new Intl.Segmenter("ja", { granularity: "word" })
    : null
  var tiny = lunr.TinySegmenter ? new lunr.TinySegmenter() : null

  /*
   * Every piece of the text, in order: Material computes positions from the lengths.
   * ICU cuts katakana words it does not know into letters (キ ャ リ ブ レ ー ション) and
   * a long vowel off its word (オプティマイザ ー): such katakana pieces are joined again.
   */
  var KATAKANA = /^[\u30a1-\u30ff]+$/
  var SMALL_OR_LONG = /^[\u30a1\u30a3\u30a5\u30a7\u30a9\u30c3\u30e3\u30e5\u30e7\u30ee\u30f5\u30f6\u30fc]/
  function joinKatakana(pieces) {
    var out = []
    pieces.forEach(function (piece) {
      var last = out[out.length - 1]
      if (last && KATAKANA.test(last) && KATAKANA.test(piece) &&
          (last.length === 1 || piece.length === 1 || SMALL_OR_LONG.test(piece)))
        out[out.length - 1] = last + piece
      else
        out.push(piece)
    })
    return out
  }
  function segment(text) {
    if (words) return joinKatakana(Array.from(words.segment(text), function (s) { return s.segment }))
    return tiny ? tiny.segment(text) : [text]
  }
  if (words && lunr.TinySegmenter) lunr.TinySegmenter.prototype.segment = segment

  function fold(word) {
    return word.replace(LONG_VOWEL, "$1")
  }

  /* 2. in the index: a step of the indexing pipeline, added before the first document */
  function foldLongVowels(token) {
    return token.update(function (s) { return fold(s) })
  }
  lunr.Pipeline.registerFunction(foldLongVowels, "foldLongVowels")
  var add = lunr.Builder.prototype.add
  lunr.Builder.prototype.add = function () {
    if (this.pipeline._stack.indexOf(foldLongVowels) < 0) this.pipeline.add(foldLongVowels)
    if (!this.tokenizer.__joinsHyphens) this.tokenizer = joinHyphens(this.tokenizer)
    return add.apply(this, arguments)
  }

  /* 3b. in the index: after Material's tokenizer (which cuts speed-up into speed and up),
     one more token for each hyphenated Latin word, joined (speedup), at its first part's
     position (the highlight marks that part) */
  function joinHyphens(tokenize) {
    var wrapped = function (input) {
      var tokens = tokenize.apply(this, arguments)
      var texts = Array.isArray(input) ? input : [input]
      var extra = []
      texts.forEach(function (text) {
        if (typeof text !== "string") return
        ;(text.match(HYPHENATED) || []).forEach(function (word) {
          var first = word.split("-")[0].toLowerCase()
          var at = tokens.find(function (t) { return t.toString() === first })
          if (at) extra.push(new lunr.Token(word.replace(/-/g, "").toLowerCase(), at.metadata))
        })
      })
      return tokens.concat(extra)
    }
    wrapped.__joinsHyphens = true
    return wrapped
  }

  /* 1. Material cuts a query's kanji runs at every substring that is a key of the index
     (`value in index.invertedIndex`); answering "no" for kanji keys leaves each run whole. */
  var build = lunr.Builder.prototype.build
  lunr.Builder.prototype.build = function () {
    var index = build.apply(this, arguments)
    if (typeof Proxy !== "undefined")
      index.invertedIndex = new Proxy(index.invertedIndex, {
        has: function (target, key) {
          return typeof key === "string" && HAN.test(key) ? false : key in target
        }
      })
    return index
  }

  /* synonyms looked up by the folded word: データローダー finds the entry データローダ */
  var table = {}
  Object.keys(synonyms).forEach(function (key) {
    table[fold(key)] = (table[fold(key)] || []).concat(synonyms[key])
  })

  function isStopWord(word) {
    return STOP.has(word) || (typeof lunr.stopWordFilter === "function" && !lunr.stopWordFilter(word))
  }

  /* The words of a piece of the query, as the index cut its text, run by run (a run: the
     text between two separators; its words were written together). */
  function runsOf(text) {
    var runs = []
    text.split(lunr.tokenizer.separator || /\s+/).forEach(function (part) {
      if (!part) return
      var run = []
      ;(JAPANESE.test(part) ? segment(part) : [part]).forEach(function (w) {
        w = w.trim()
        if (w && !/^[\s\p{P}]+$/u.test(w)) run.push(w)
      })
      if (run.length) runs.push(run)
    })
    return runs
  }
  function wordsOf(text) {
    return [].concat.apply([], runsOf(text))
  }

  /* A stem that ICU cut off its endings: one kanji (下 of 下がった, 速 of 速くない), or
     kanji then kana (調べ of 調べたい, 遅い); the hiragana pieces right after it are its endings. */
  function isStem(word, previous) {
    if (!HAN.test(word)) return false
    if (/^[\u3400-\u9fff\uf900-\ufaff\u3005\u3006]$/.test(word)) return !(previous && HAN.test(previous.slice(-1)))
    return /[\u3040-\u309f]$/.test(word) && !/[^\u3040-\u309f\u3400-\u9fff\uf900-\ufaff\u3005\u3006]/.test(word)
  }

  /* A light English stem for the query only: the index keeps the words as written. */
  function stem(word) {
    if (!/^[a-z]{5,}$/.test(word)) return null
    var s = word
    if (/ies$/.test(s)) s = s.slice(0, -3)
    else if (/(ss|us|is)$/.test(s)) return null
    else if (/(sses|xes|ches|shes)$/.test(s)) s = s.slice(0, -2)
    else if (/ing$/.test(s) && s.length > 5) s = s.slice(0, -3)
    else if (/ed$/.test(s)) s = s.slice(0, -2)
    else if (/s$/.test(s)) s = s.slice(0, -1)
    else return null
    if (/([b-df-hj-np-tv-z])\1$/.test(s)) s = s.slice(0, -1)
    return s.length >= 3 && s !== word ? s : null
  }

  function clause(term, boost, wildcard) {
    return (wildcard ? term + "*" : term) + "^" + boost
  }

  /*
   * The reader's words of the current query, each with the index terms searched for it
   * (itself, folded, its stem, its synonyms): read when the worker posts the result.
   */
  var typed = []

  /*
   * The clauses for one whitespace-separated part of the query, as lunr query syntax;
   * the reader's words go to `typed`: { word, parts: [{ terms, alternatives }], extra }.
   * A word is found when all terms of one synonym of the whole part (extra) are, or when
   * every piece is: by itself (folded, or its stem) or by all terms of one of its synonyms.
   * Pieces of one kanji word that ICU cut (量子 化) make one word, as typed.
   */
  function clausesOf(part) {
    var all = []
    var endings = {}   /* the index in all of a stem -> the endings typed after it */
    runsOf(part).forEach(function (run) {
      var stem = -1
      run.forEach(function (w, i) {
        w = w.replace(/^[+\-]+/, "")
        if (!w) return
        if (stem >= 0 && HIRAGANA.test(w)) { endings[stem] += w; return }
        stem = isStem(w, run[i - 1]) ? all.length : -1
        if (stem >= 0) endings[stem] = ""
        all.push(w)
      })
    })
    var kept = all.filter(function (w) { return !ONE_HIRAGANA.test(w) })
    if (!kept.length) kept = all
    var clauses = []
    var whole = part.toLowerCase()
    var groups = []
    var seen = new Set()
    function add(terms, term, boost, wildcard) {
      term = fold(term)
      if (!term) return
      if (terms.indexOf(term) < 0) terms.push(term)
      var c = clause(term, boost, wildcard)
      if (!seen.has(c)) clauses.push(c)
      seen.add(c)
    }
    /* each synonym of key as a list of its terms (it counts when all of them are found) */
    function expand(alternatives, key) {
      key = fold(key)
      if (!Object.prototype.hasOwnProperty.call(table, key)) return
      table[key].forEach(function (s) {
        var terms = []
        wordsOf(s).forEach(function (w) {
          w = w.toLowerCase()
          if (w.length > 1 && !isStopWord(w)) add(terms, w, EXPANSION, w.length > 2)
        })
        if (terms.length) alternatives.push(terms)
      })
    }
    var previous = null
    /* torch.cuda.synchronize: the last name is what the reader asks about */
    var identifier = /^[A-Za-z_]\w*(\.[A-Za-z_]\w*)+(\(\))?$/.test(part)
    var last = all.length - 1
    all.forEach(function (word, n) {
      var lower = word.toLowerCase()
      if (kept.indexOf(word) < 0) {   /* a particle between two words */
        previous = null
        return
      }
      if (isStopWord(lower)) {
        /* a Japanese stop word is no word of the query (it would be highlighted on every
           page); an English one matches only itself */
        if (!JAPANESE.test(lower)) add([], lower, 1, false)
        previous = null
        return
      }
      var terms = []
      var alternatives = []
      /* the word itself weighs more than longer words it begins (torch, torchao) */
      var namespace = identifier && n < last
      add(terms, lower, namespace ? 1 : TYPED, false)
      if (lower.length > 1) add(terms, lower, 1, true)
      /* a module name in a dotted name (the amp of torch.amp) is no term to expand */
      if (!namespace) {
        var stemmed = stem(lower)
        if (stemmed) add(terms, stemmed, EXPANSION, true)
        expand(alternatives, lower)
        lower.split(/_/).forEach(function (k) { if (k && k !== lower) expand(alternatives, k) })
      }
      var kanji = HAN.test(lower) && !/[^\u3400-\u9fff\uf900-\ufaff\u3005\u3006]/.test(lower)
      if (previous && kanji && previous.kanji && (lower.length === 1 || previous.word.length === 1)) {
        previous.word += lower
        previous.parts.push({ terms: terms, alternatives: alternatives })
        return
      }
      previous = { word: lower, parts: [{ terms: terms, alternatives: alternatives }], extra: [], kanji: kanji }
      if (endings[n]) {   /* 下がった: searched as 下, reported as typed */
        previous.word += endings[n]
        previous.kanji = false
      }
      groups.push(previous)
    })
    /* speed-up also searches speedup (the index joins the words of speed-up likewise) */
    var hyphenated = part.match(HYPHENATED)
    if (hyphenated && groups.length) {
      var joined = []
      hyphenated.forEach(function (h) { add(joined, h.replace(/-/g, "").toLowerCase(), EXPANSION, true) })
      groups.forEach(function (g) { g.extra = g.extra.concat([joined]) })
    }
    if (groups.length && whole !== groups[0].word) {
      var extra = []
      expand(extra, whole)   /* 量子化認識学習 as typed, before it is cut */
      groups.forEach(function (g) { g.extra = g.extra.concat(extra) })
    }
    groups.forEach(function (g) { typed.push(g) })
    return clauses
  }

  /*
   * Material lexes each whitespace-separated part of the query, then splits each
   * term with the search separator (which contains U+200B); lunr lexes the result
   * again. A part without query syntax (* ^ ~, a leading - that excludes a word) becomes one term here,
   * the clauses of its words joined with U+200B, each ending in ^boost so that
   * Material appends nothing; a colon (RuntimeError:, aten::add) is no field name, and
   * a leading + is dropped: Material turns the words of a quoted phrase into +word
   * (required), and a pasted error message quotes names ("addmm_impl_cpu_") that the
   * site may not hold, which found nothing at all. A minus before a digit is a number's
   * sign, not lunr's "exclude": "-1e9 half" looks for 1e9 (the index drops the sign).
   */
  var run = lunr.QueryLexer.prototype.run
  lunr.QueryLexer.prototype.run = function () {
    run.call(this)
    if (/[*^~\u200b]|^-(?!\d)/.test(this.str)) return
    var clauses = clausesOf(this.str)
    this.lexemes = clauses.length
      ? [{ type: lunr.QueryLexer.TERM, str: clauses.join("\u200b"), start: 0, end: this.str.length }]
      : []
  }

  /* 5. Score and missing words by the reader's words (see above), on the posted result. */
  function rescore(items) {
    var groups = typed.filter(function (g) { return !isStopWord(g.word) })
    var seen = new Set()
    groups = groups.filter(function (g) { return !seen.has(g.word) && seen.add(g.word) })
    if (!groups.length) return items
    items.forEach(function (group) {
      group.forEach(function (item) {
        var old = item.terms || {}
        var keys = Object.keys(old)
        if (!keys.length) { item.terms = {}; return }
        var before = +!item.parent + keys.filter(function (k) { return old[k] }).length / keys.length
        var terms = {}
        var found = 0
        var matched = function (t) { return old[t] === true }
        var all = function (terms) { return terms.every(matched) }
        groups.forEach(function (g) {
          var hit = g.extra.some(all) || g.parts.every(function (p) {
            return p.terms.some(matched) || p.alternatives.some(all)
          })
          terms[g.word] = hit
          found += hit
        })
        var after = +!item.parent + found / groups.length
        item.score = item.score / (1 + before * before) * (1 + after * after) * Math.pow(2, found)
        item.terms = terms
      })
      group.sort(function (a, b) { return b.score - a.score })
    })
    /* a page about the words mentions them in more than one section: its rank is its best
       section's score and half of the next three's (not all: long pages would win) */
    var rank = new Map(items.map(function (group) {
      return [group, group.slice(0, 4).reduce(function (sum, item, i) { return sum + (i ? SECTIONS : 1) * item.score }, 0)]
    }))
    return items.sort(function (a, b) { return rank.get(b) - rank.get(a) })
  }

  if (typeof self !== "undefined" && typeof self.postMessage === "function") {
    var post = self.postMessage
    self.postMessage = function (message) {
      try {
        if (message && message.data && Array.isArray(message.data.items)) rescore(message.data.items)
      } finally {
        typed = []
      }
      return post.apply(self, arguments)
    }
  }
})(self.lunr, self.__SEARCH_SYNONYMS || {})
