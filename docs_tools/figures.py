"""Numbers in the prose of the pages: figures to tie to their sources, and what must match across languages.

Two readers use this module:

- ``tests/test_prose_figures.py``: every *figure* (:func:`figures`: a number with a unit or a ratio
  word: ``3.8×``, ``1 %``, ``38 KB``, ``2.1 ms``, ``3.8 分の 1``, ``2 倍``, "twice the", "eight
  times") written in the prose or a table of a page is either found among the outputs its section
  shows (:func:`section_outputs`, :func:`shown`: its ``.out`` includes, its inline expected outputs,
  its benchmark tables and their JSON) or declared in ``docs/data/figures.toml`` with its source
  (:func:`load_declared`, :func:`source_value`);
- ``tests/test_parity_numbers.py``: per section (heading id), the numbers (:func:`numbers`, after
  :func:`normalise`: full-width digits, 万/億, "a million", "half a second", 1024x1024), footnote
  references, link targets and image targets of the two languages are the same.

"Prose" is what a reader reads as text (:func:`sections`): outside code fences, inline code, HTML
comments, include lines and heading ids; tables and admonitions are prose. A paragraph, list or
table is read as one block, so that a code span or a link wrapped over two lines is still one.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass

from docs_tools.docs_model import (
    DOCS,
    HEADING,
    HEADING_ID,
    INCLUDE,
    REPO,
    code_fences,
    fence_lines,
)

FIGURES_FILE = DOCS / "data" / "figures.toml"

_COMMENT = re.compile(r"<!--.*?-->", re.DOTALL)
_INLINE_CODE = re.compile(r"(`+)(?:(?!\1).)+?\1")
_HEADING_ID_ANY = re.compile(r"\{[^}]*#[A-Za-z0-9_.:-]+[^}]*\}")
_MATH = re.compile(r"\$\$.*?\$\$|\\\(.*?\\\)", re.DOTALL)
#: ``[text](target)`` and ``![alt](target "title")``: the target is group 2 (the ``!`` is group 1).
LINK = re.compile(r"(!?)\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^()\s>]+(?:\([^()]*\)[^()\s>]*)?)>?(?:\s+\"[^\"]*\")?\s*\)")
FOOTNOTE = re.compile(r"\[\^([^\]\s]+)\]")
#: Attribute lists after links/images ({: width=...}) and HTML attributes: not figures.
_ATTRS = re.compile(r"\{:[^}]*\}|\{\s*\.[^}]*\}")
_HTML_TAG = re.compile(r"</?[A-Za-z][^<>]*>")

#: A number as the pages write it: "1,320", "0.0176", "64", "1e-5"; not part of a name
#: (H100, TF32, float8_e4m3fn, sm_90, Linear1) nor of a version ("2.13.0" is one token, see VERSION).
NUMBER = re.compile(r"(?<![A-Za-z0-9_.,])(?:\d+(?:,\d{3})+|\d+)(?:\.\d+)?(?:[eE][-+]?\d+)?(?!(?!x\b)[A-Za-z0-9_])")
#: Versions and dotted names are not figures: "2.13.0", "3.11", "v2", "cu130", "PEP 8"...
VERSION = re.compile(r"(?<![\w.])v?\d+(?:\.\d+){2,}(?![\w])")


@dataclass(frozen=True)
class Line:
    section: str  # the id of the nearest heading above (the page's first heading's id before any)
    lineno: int  # 1-based, of the block's first line
    raw: str  # the block without comments, code spans (a placeholder) and heading ids
    prose: str  # ``raw`` without link targets, footnote references, attribute lists and HTML tags


def sections(text: str) -> list[Line]:
    """The prose blocks of a Markdown page, each with the section (heading id) it belongs to: a
    paragraph, list or admonition body (consecutive non-blank lines, joined with their line breaks
    so that a code span or a link that wraps is still one), a heading, or one table row."""
    text = _COMMENT.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    text = _MATH.sub(lambda m: "\n" * m.group(0).count("\n"), text)
    inside = fence_lines(text)
    out: list[Line] = []
    section = ""
    block: list[str] = []
    start = 0

    def flush() -> None:
        if block:
            joined = "\n".join(block)
            raw = _HEADING_ID_ANY.sub("", _INLINE_CODE_WRAPPED.sub(lambda m: "`code`" + "\n" * m.group(0).count("\n"), joined))
            out.append(Line(section, start + 1, raw, _strip_targets(raw)))
            block.clear()

    for i, line in enumerate(text.splitlines()):
        if i in inside or INCLUDE.match(line) or not line.strip():
            flush()
            continue
        h = HEADING.match(line)
        if h:
            flush()
            hid = HEADING_ID.search(h.group("text"))
            if hid:
                section = hid.group("id")
        row = line.lstrip().startswith("|")  # a table row is a block of its own
        if row:
            flush()
        if not block:
            start = i
        block.append(line)
        if h or row:
            flush()
    flush()
    return out


_INLINE_CODE_WRAPPED = re.compile(r"(`+)(?:(?!\1)[^\n]|\n(?![ \t]*\n))+?\1")


def _strip_targets(raw: str) -> str:
    prose = LINK.sub(lambda m: m.group(0)[: m.group(0).index("](") + 1], raw)
    prose = FOOTNOTE.sub("", prose)
    prose = re.sub(r"(?m)^\[\^[^\]]+\]:", "", prose)  # a footnote's definition label
    prose = re.sub(r"(?m)^\s*\[[^\]]+\]:\s*\S+.*$", "", prose)  # a reference-link definition
    prose = _ATTRS.sub("", prose)
    return _HTML_TAG.sub("", prose)


# --- normalising numbers (the languages write some of them differently) ---

#: Japanese/English ways of writing a number that mean the same: applied to the prose before
#: numbers are read. "1 万" is 10,000; full-width digits are digits.
_HALF = re.compile(r"\b[Hh]alf (?:an? )?(?=seconds?\b|milliseconds?\b|minutes?\b|hours?\b)")
_OKU = re.compile(r"(\d+(?:\.\d+)?)\s?億")
_BILLION = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)B(?=-parameter| parameters)")
_MILLION = re.compile(r"\b(?:a|one) million\b")
_MAN = re.compile(r"(\d+(?:\.\d+)?)\s?万")


def normalise(prose: str) -> str:
    prose = unicodedata.normalize("NFKC", prose)  # full-width digits, ％, ×
    prose = _HALF.sub("0.5 ", prose)  # "half a second" is 「0.5 秒」
    prose = _MILLION.sub("1,000,000", prose)  # "a million" is 「100 万」
    prose = re.sub(r"(?<=\d)x(?=\d)", "×", prose)  # "1024x1024" is 「1024×1024」
    prose = _OKU.sub(lambda m: f"{float(m.group(1)) * 1e8:,.0f}", prose)  # 「80 億」 is "8B"
    prose = _BILLION.sub(lambda m: f"{float(m.group(1)) * 1e9:,.0f}", prose)
    prose = _MAN.sub(lambda m: f"{float(m.group(1)) * 10000:,.0f}", prose)
    return prose


def numbers(prose: str) -> list[str]:
    """The numbers of a prose line in order, thousands separators dropped, versions left out."""
    prose = VERSION.sub(" ", normalise(prose)).replace("..", " .. ")  # a range "0..255"
    return [n.replace(",", "") for n in NUMBER.findall(prose)]


# --- figures: numbers with a unit or a ratio word --------------------------------------------------

_UNITS = (
    r"×(?!\s?\d)|x(?=\s+(?:faster|slower|smaller|larger|bigger|more|less|fewer|as|the|speed))"
    r"|%|[KMGT]i?B(?:/s)?|bytes?|ms|µs|us|ns|s|seconds?|minutes?|TFLOP/s|TFLOPS|bits?"
    r"|倍|分の\s?1|秒|ミリ秒|マイクロ秒|ビット|バイト|分(?!の)"
)
FIGURE = re.compile(r"(?<![\w.,\-])(\d+(?:,\d{3})*(?:\.\d+)?)\s?(" + _UNITS + r")(?![A-Za-z0-9])")


@dataclass(frozen=True)
class Figure:
    section: str
    lineno: int
    number: str  # as written, thousands separators dropped
    unit: str
    text: str  # the figure as written ("3.8×", "1 %")

    @property
    def value(self) -> float:
        return float(self.number)

    @property
    def decimals(self) -> int:
        return len(self.number.split(".")[1]) if "." in self.number else 0

    def significant(self) -> int:
        digits = self.number.replace(".", "").lstrip("0")
        return len(digits.rstrip("0")) if "." not in self.number else len(digits)


_WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10}
#: English ratios in words, read as the figures they are (Japanese writes them in digits: 「2 倍」「8 倍」「4 分の 1」).
_RATIO_WORDS = [
    (re.compile(r"\b(?:twice(?=\s+(?:the|as)\b)|doubles|doubled)\b"), "2×"),
    (re.compile(r"\b(" + "|".join(_WORDS) + r") times\b"), lambda m: f"{_WORDS[m.group(1)]}×"),
    (re.compile(r"(?<![\w.,])(\d+(?:\.\d+)?) times\b"), lambda m: f"{m.group(1)}×"),
    (re.compile(r"\ba\s+quarter\b"), "4×"),
    (re.compile(r"\ba\s+third\b"), "3×"),
    (re.compile(r"\ban\s+eighth\b"), "8×"),
]


def ratio_words(prose: str) -> str:
    for pattern, repl in _RATIO_WORDS:
        prose = pattern.sub(repl, prose)
    return prose


_PRODUCT = re.compile(r"\s?(?:HBM|PCIe|SXM)")


def figures(text: str) -> list[Figure]:
    """Every figure of a page's prose and tables, in order (English ratios in words included: "twice",
    "eight times", "a quarter")."""
    out = []
    for line in sections(text):
        prose = ratio_words(VERSION.sub(" ", normalise(line.prose)))
        for m in FIGURE.finditer(prose):
            if _PRODUCT.match(prose, m.end()) or prose[: m.start()].endswith(("H100 ", "A100 ", "H200 ")):
                continue  # a GPU's name ("NVIDIA H100 80GB HBM3"), not a figure
            lineno = line.lineno + prose.count("\n", 0, m.start())
            out.append(Figure(line.section, lineno, m.group(1).replace(",", ""), m.group(2), m.group(0)))
    return out


# --- what a page shows: the numbers of its outputs ---------------------------------------------------

_OUTPUT_INFOS = ("text", "console", "pycon", "")


def shown_outputs(text: str) -> list[tuple[str, str]]:
    """(source, text) of every output a page shows: included ``.out``/``.txt`` files, included
    benchmark tables (and their JSON), and the bodies of its inline output blocks."""
    out: list[tuple[str, str]] = []
    for f in code_fences(text):
        info = f.info.split()[0] if f.info else ""
        for line in f.body.splitlines():
            m = INCLUDE.match(line)
            if m and not m.group("path").endswith(".py"):
                out.append((m.group("path"), _read(m.group("path"))))
        if info in _OUTPUT_INFOS and "--8<--" not in f.body:
            out.append(("inline output", f.body))
    for line in text.splitlines():
        m = INCLUDE.match(line)
        if m and not m.group("path").endswith(".py"):
            path = m.group("path")
            out.append((path, _read(path)))
            json_path = re.sub(r"(\.ja)?\.md$", ".json", path)
            if json_path != path and (REPO / json_path).exists():
                out.append((json_path, _read(json_path)))
    return out


def _read(path: str) -> str:
    p = REPO / path
    return p.read_text(encoding="utf-8") if p.exists() else ""


_ANY_NUMBER = re.compile(r"(?<![\w.])-?\d+(?:,\d{3})*(?:\.\d+)?(?:[eE][-+]?\d+)?")


def output_values(outputs: list[tuple[str, str]]) -> set[float]:
    values = set()
    for _, body in outputs:
        for n in _ANY_NUMBER.findall(body):
            try:
                values.add(abs(float(n.replace(",", ""))))
            except ValueError:
                pass
    return values


#: A figure may restate an output in another unit: a fraction as a percentage, bytes as KB/MB, ...
_SCALES = {
    "ratio": (1,), "%": (1, 100), "bytes": (1,), "bits": (1,),
    "KB": (1, 1e-3), "MB": (1, 1e-6), "GB": (1, 1e-9), "TB": (1, 1e-12),
    "KiB": (1, 2**-10), "MiB": (1, 2**-20), "GiB": (1, 2**-30), "TiB": (1, 2**-40),
    "ms": (1, 1e3), "µs": (1, 1e6, 1e3), "ns": (1, 1e9), "s": (1, 1e-3), "minutes": (1,), "TFLOP/s": (1, 1e-12),
}

#: The unit of a figure, the same in both languages ("×", "x faster", "倍", "分の 1" are all a ratio).
_UNIT_CLASS = {
    "×": "ratio", "x": "ratio", "倍": "ratio", "分の1": "ratio", "分の 1": "ratio", "%": "%",
    "byte": "bytes", "bytes": "bytes", "バイト": "bytes", "bit": "bits", "bits": "bits", "ビット": "bits",
    "ms": "ms", "ミリ秒": "ms", "µs": "µs", "us": "µs", "マイクロ秒": "µs", "ns": "ns",
    "s": "s", "second": "s", "seconds": "s", "秒": "s", "minute": "minutes", "minutes": "minutes", "分": "minutes",
    "TFLOP/s": "TFLOP/s", "TFLOPS": "TFLOP/s",
}


def unit_class(unit: str) -> str:
    if unit in _UNIT_CLASS:
        return _UNIT_CLASS[unit]
    m = re.fullmatch(r"([KMGT])(i?)B(/s)?", unit)
    if m:
        return m.group(1) + m.group(2) + "B" + (m.group(3) or "")
    raise ValueError(f"unknown unit {unit!r}")


def rounds_to(value: float, figure: Figure) -> bool:
    """Whether ``value`` written with the figure's decimals is the figure's number."""
    return f"{value:.{figure.decimals}f}" == f"{figure.value:.{figure.decimals}f}"


def shown(figure: Figure, values: set[float]) -> str | None:
    """How the figure is found among output numbers (None if it is not): the same number, rounded to
    the figure's decimals, in the figure's unit (a fraction may be a percentage, bytes KB...). Only
    figures of two or more significant digits are found this way: a one-digit figure matches anything."""
    if figure.significant() < 2:
        return None
    for v in sorted(values):
        for scale in _SCALES.get(unit_class(figure.unit), (1,)):
            if rounds_to(v * scale, figure):
                return f"{v:g}" + (f" × {scale:g}" if scale != 1 else "")
    return None


def section_outputs(text: str) -> dict[str, list[tuple[str, str]]]:
    """The outputs each section (heading id) shows, and the page's under the key ``""``... see :func:`shown_outputs`."""
    by_section: dict[str, list[str]] = {}
    section = ""
    lines = text.splitlines()
    inside = fence_lines(text)
    for i, line in enumerate(lines):
        if i not in inside:
            h = HEADING.match(line)
            if h and HEADING_ID.search(h.group("text")):
                section = HEADING_ID.search(h.group("text")).group("id")
        by_section.setdefault(section, []).append(line)
    return {s: shown_outputs("\n".join(body)) for s, body in by_section.items()}


# --- the declarations ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class Declared:
    page: str
    figure: str  # as the English page writes it ("3.8×", "16 bits"); it stands for the same number and
    #              unit on the Japanese page ("3.8 分の 1", "16 ビット")
    source: str  # a repository file, "expr" (a Python expression with torch), an https:// link (upstream),
    #              or "quoted" (a claim the page quotes as a common mistake, not a figure of its own)
    why: str  # what the figure is
    pattern: str | None = None  # regex with one group, searched in the source file
    json: str | None = None  # a dotted path into the source JSON ("comparisons.bfloat16.ratio")
    expr: str | None = None  # with source = "expr": evaluated with ``torch`` and ``math`` imported
    scale: float = 1.0  # the source value times this is the figure ("100" for a fraction as a percentage)
    at_most: bool = False  # the figure is a bound ("within 1 %"): the source value is at most the figure
    at_least: bool = False  # the figure is a lower bound ("more than 50 %"): the source value is at least it

    @property
    def key(self) -> tuple[float, str]:
        m = FIGURE.fullmatch(normalise(self.figure).strip())
        if not m:
            raise ValueError(f"docs/data/figures.toml, {self.page}: {self.figure!r} is not a figure (number and unit)")
        return float(m.group(1).replace(",", "")), unit_class(m.group(2))

    @property
    def decimals(self) -> int:
        number = FIGURE.fullmatch(normalise(self.figure).strip()).group(1)
        return len(number.split(".")[1]) if "." in number else 0


def figure_key(f: Figure) -> tuple[float, str]:
    return f.value, unit_class(f.unit)


def load_declared() -> tuple[list[Declared], dict[str, str]]:
    """The declared figures, and the sections another test checks number by number ("page#id": test)."""
    data = tomllib.loads(FIGURES_FILE.read_text(encoding="utf-8"))
    out = []
    for page, entries in data.get("page", {}).items():
        for e in entries:
            unknown = set(e) - {"figure", "source", "why", "pattern", "json", "expr", "scale", "at_most", "at_least"}
            if unknown:
                raise ValueError(f"docs/data/figures.toml, {page}: unknown keys {sorted(unknown)}")
            out.append(Declared(page=page, figure=e["figure"], source=e["source"], why=e.get("why", ""),
                                pattern=e.get("pattern"), json=e.get("json"), expr=e.get("expr"),
                                scale=float(e.get("scale", 1)), at_most=bool(e.get("at_most", False)),
                                at_least=bool(e.get("at_least", False))))
    for e in data.get("definition", []):
        out.append(Declared(page="*", figure=e["figure"], source="expr", why=e["why"], expr=e["expr"]))
    return out, dict(data.get("checked_sections", {}))


#: How a unit class is written in a declaration (``pending`` lists keys as figures: "6×", "45 %").
UNIT_TEXT = {"ratio": "×", "%": " %", "bytes": " bytes", "bits": " bits", "s": " s", "minutes": " minutes"}


def figure_text(key: tuple[float, str]) -> str:
    number, unit = key
    return f"{number:g}{UNIT_TEXT.get(unit, ' ' + unit)}"


def load_pending() -> dict[str, list[str]]:
    """Figures found before this check existed and not yet declared with a source, per page: known
    debt, listed one by one (a new figure is not in it, and a listed figure must still be on the page)."""
    data = tomllib.loads(FIGURES_FILE.read_text(encoding="utf-8"))
    return {page: list(figs) for page, figs in data.get("pending", {}).items()}


def source_value(d: Declared) -> float | None:
    """The value the declaration's source gives (None for an upstream link, whose figure a reader checks
    there, and for a quoted claim, which the page quotes in order to refute it)."""
    if d.source.startswith("https://") or d.source == "quoted":
        return None
    if d.source == "expr":
        import math

        import torch

        raw = eval(d.expr, {"torch": torch, "math": math, **_format_helpers(torch)})
    else:
        text = (REPO / d.source).read_text(encoding="utf-8")
        if d.json is not None:
            import json

            node = json.loads(text)
            for key in _json_keys(d.json):
                node = node[int(key)] if isinstance(node, list) else node[key]
            raw = node
        else:
            m = re.search(d.pattern, text, re.MULTILINE)
            if not m:
                raise LookupError(f"{d.source}: the pattern {d.pattern!r} finds nothing")
            raw = m.group(1)
    if isinstance(raw, str):
        raw = float(re.sub(r"[,\s%x×]", "", raw))
    return float(raw) * d.scale


def _format_helpers(torch) -> dict:
    """bits(dt), mantissa(dt), exponent(dt), size(dt): a dtype's widths as torch itself gives them;
    read(path, regex[, group]): a number in a repository file; peak(gpu name, format): a data-sheet peak."""
    def read(path: str, pattern: str, group: int = 1) -> float:
        """The number a regex finds in a repository file (an output, a script's constant)."""
        m = re.search(pattern, (REPO / path).read_text(encoding="utf-8"), re.MULTILINE)
        if not m:
            raise LookupError(f"{path}: the pattern {pattern!r} finds nothing")
        return float(re.sub(r"[,\s%x×]", "", m.group(group)))

    def mantissa(dt):
        return round(-__import__("math").log2(torch.finfo(dt).eps))

    def bits(dt):
        return torch.finfo(dt).bits if dt.is_floating_point else torch.iinfo(dt).bits

    def peak(device_name: str, fmt: str) -> float:
        """A GPU's data-sheet dense peak (TFLOP/s) from benchmarks/gpu_peaks.toml, which names its source."""
        from benchmarks.peaks import find_gpu

        return find_gpu(device_name).peaks[fmt]

    return {"read": read, "peak": peak, "bits": bits, "mantissa": mantissa, "exponent": lambda dt: bits(dt) - mantissa(dt) - 1,
            "size": lambda dt: torch.empty(0, dtype=dt).element_size()}


def _json_keys(path: str) -> list[str]:
    """``a.b."c.d".0`` -> ['a', 'b', 'c.d', '0']."""
    return [m.group(1) if m.group(1) is not None else m.group(2) for m in re.finditer(r'"([^"]*)"|([^.]+)', path)]
