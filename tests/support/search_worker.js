/*
 * Material's search worker, run in Node as the browser runs it, for tests/test_search_normalisation.py.
 *
 * Reads a job (JSON) on stdin:
 *   { "assets": "<material>/templates/assets/javascripts",
 *     "tinyseg": "<tinyseg.js as the site ships it: Material's, then docs/hooks/search_query.js>",
 *     "marker": "<the line between the two (search_query.MARKER)>",
 *     "cases": [ { "index": { "config": {...}, "docs": [...] },
 *                  "ops": [ {"op": "tokens"}, {"op": "lex", "part": "..."}, {"op": "search", "query": "..."} ] } ] }
 * and writes, per case, the answer of each op on stdout (JSON):
 *   tokens: the terms of the index built from the case's docs (what the index holds);
 *   has:    whether each of op.keys is `in` the index's inverted index (what Material's query cut asks);
 *   icu:    the browser's own word cut of op.text (Intl.Segmenter), tiny: Material's TinySegmenter's;
 *   lex:    the clauses one whitespace-separated part of a query becomes (lunr query syntax, split at U+200B);
 *   search: the result as the worker posts it: [{location, score, terms}] per page, best first.
 *
 * Each case runs in a fresh context: Material's worker script (workers/search.*.min.js) with
 * importScripts reading lunr's language files from the assets folder and tinyseg.js from the job,
 * and one SETUP message, as the site's search does. The harness adds one thing of its own: it
 * keeps the index the worker builds (lunr.Builder.prototype.build, wrapped after the scripts
 * loaded) so that "tokens" can list its terms.
 */
"use strict"
const fs = require("fs")
const path = require("path")
const vm = require("vm")

function runCase(job, worker, spec) {
  const posted = []
  let listener = null
  const sandbox = {
    console: { log() {}, warn() {}, error: console.error },
    setTimeout, clearTimeout, Intl, TextEncoder, TextDecoder,
    addEventListener(type, fn) { if (type === "message") listener = fn },
    postMessage(message) { posted.push(message) },
  }
  sandbox.self = sandbox
  const context = vm.createContext(sandbox)
  const loaded = new Set()
  sandbox.importScripts = function (...urls) {
    for (const url of urls) {
      const name = url.replace(/^\.\.\//, "")
      if (loaded.has(name)) continue
      loaded.add(name)
      if (name !== "lunr/tinyseg.js") {
        vm.runInContext(fs.readFileSync(path.join(job.assets, name), "utf8"), context, { filename: name })
        continue
      }
      /* Material's segmenter, then what the hook appended: Material's own cut is kept for "tiny" */
      const at = job.tinyseg.indexOf(job.marker)
      vm.runInContext(job.tinyseg.slice(0, at), context, { filename: name })
      const original = sandbox.lunr.TinySegmenter.prototype.segment
      sandbox.__tiny = text => original.call(new sandbox.lunr.TinySegmenter(), text)
      vm.runInContext(job.tinyseg.slice(at), context, { filename: name + " (appended)" })
    }
    const lunr = sandbox.lunr
    if (lunr && !lunr.Builder.prototype.__kept) {
      const build = lunr.Builder.prototype.build
      lunr.Builder.prototype.build = function () {
        const index = build.apply(this, arguments)
        sandbox.__index = index
        return index
      }
      lunr.Builder.prototype.__kept = true
    }
  }
  vm.runInContext(worker, context, { filename: "search.min.js" })
  const send = async data => {
    posted.length = 0
    await listener({ data })
    for (let i = 0; i < 50 && !posted.length; i++) await new Promise(r => setTimeout(r, 0))
    return posted.pop()
  }
  return (async () => {
    const ready = await send({ type: 0, data: { ...spec.index, options: { suggest: false } } })
    if (!ready || ready.type !== 1) throw new Error("the worker did not answer SETUP with READY")
    const out = []
    for (const op of spec.ops) {
      if (op.op === "tokens") {
        out.push(Object.keys(sandbox.__index.invertedIndex).sort())
      } else if (op.op === "has") {
        out.push(op.keys.map(key => key in sandbox.__index.invertedIndex))
      } else if (op.op === "icu") {
        out.push(Array.from(new Intl.Segmenter("ja", { granularity: "word" }).segment(op.text), s => s.segment))
      } else if (op.op === "tiny") {
        out.push(sandbox.__tiny(op.text))
      } else if (op.op === "lex") {
        const lexer = new sandbox.lunr.QueryLexer(op.part)
        lexer.run()
        out.push(lexer.lexemes.map(l => l.str).join("\u200b").split("\u200b").filter(Boolean))
        sandbox.self.postMessage({})   /* search_query.js forgets the words of a query when the worker posts */
      } else if (op.op === "search") {
        const result = await send({ type: 2, data: op.query })
        out.push(result.data.items.map(group => group.map(item => ({
          location: item.location, score: item.score, terms: item.terms,
        }))))
      } else {
        throw new Error(`unknown op ${op.op}`)
      }
    }
    return out
  })()
}

async function main() {
  const job = JSON.parse(fs.readFileSync(0, "utf8"))
  const workers = path.join(job.assets, "workers")
  const name = fs.readdirSync(workers).find(f => /^search\..*\.min\.js$/.test(f))
  const worker = fs.readFileSync(path.join(workers, name), "utf8")
  const answers = []
  for (const spec of job.cases) answers.push(await runCase(job, worker, spec))
  process.stdout.write(JSON.stringify(answers))
}

main().catch(err => { console.error(err && err.stack || err); process.exit(1) })
