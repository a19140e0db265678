"""Japanese versions of the benchmark tables (``<case>.ja.md`` next to ``<case>.md``).

The benchmark writes its tables in English. The Japanese pages include a
translation made here from that English markdown: headers, cells with words
(verdicts such as ``2.00x faster``), the notes under the table and the stamp.
Numbers, dtype names, module and class names, CPU models, versions and units
are kept as they are.

The translation is strict. Any header, note sentence or cell that still has an
English word after translation raises
[UntranslatedError][benchmarks.i18n.UntranslatedError], so a new case
cannot ship a half-English Japanese table: add its text to the tables below.

A *word* is a run of ASCII letters (with ``-`` between parts) of three or more
letters that is not an identifier. Identifiers are tokens with a digit, ``_`` or
``.`` in them, or a capital letter after the first character (``float32``,
``state_dict``, ``torch.compile``, ``GradScaler``, ``LSTM``), plus the plain
words in ``ALLOWED_WORDS`` (``dtype``, ``Linear``, ``eager``...).
"""

from __future__ import annotations

import re
from pathlib import Path
from reference_impl.errors import ConfigError

__all__ = ["ALLOWED_WORDS", "UntranslatedError", "english_words", "japanese_path", "to_japanese"]

#: Plain words that are names, not English prose: kept as they are in Japanese text.
ALLOWED_WORDS = frozenset(
    {"dtype", "torch", "torchao", "autocast", "eager", "cpu", "cuda", "mkl", "openblas", "Linear",
     "Python", "Release", "Debug", "Intel", "Xeon", "Processor", "inf", "nan", "pickle", "tf"}
)

_HEADERS = {
    "variant": "比べる版",
    "logits dtype": "logits の dtype",
    "compared with": "比較対象",
    "baseline ms": "基準 ms",
    "variant ms": "比べる版 ms",
    "result (median of rounds)": "結果 (ラウンドの中央値)",
    "spread (max/min)": "ばらつき (最大/最小)",
    "loss after steps, diff vs baseline": "数ステップ後の損失 (基準との差)",
    "step peak MiB (CUDA)": "1 ステップのピークメモリ MiB (CUDA)",
    "model and input": "モデルと入力",
    "quantized module": "量子化後のモジュール",
    "state_dict smaller by": "state_dict の縮小率",
    "int8 error (rel. L2 vs float64)": "int8 の誤差 (float64 に対する相対 L2)",
    "batch": "バッチ",
    "weights smaller by": "重みの縮小率",
    "float32 error": "float32 の誤差",
    "error (rel. L2 vs float64)": "誤差 (float64 に対する相対 L2)",
    "what was timed": "測ったもの",
    "direct ms": "直接 ms",
    "profiled ms": "プロファイラ下 ms",
    "PyTorch kernel": "PyTorch のカーネル",
    "bit-exact outputs (NaN = NaN)": "ビット単位で一致した出力 (NaN = NaN とみなす)",
    "reference ms": "参照実装 ms",
    "what": "対象",
    "bytes": "バイト数",
    "bytes per element": "1 要素あたりのバイト数",
    "smaller than float32 by": "float32 に対する縮小率",
    "limit": "上限",
    "share of the limit": "上限に対する割合",
    "torchao config": "torchao の設定",
    "mode": "モード",
    "weight type": "重みの型",
    "field": "項目",
    "value": "値",
}

_NUM = r"(\d[\d.,e+]*)"

#: Whole-cell patterns (the cell must match all of it); tried in order, first match wins.
_CELLS: list[tuple[str, str]] = [
    (rf"{_NUM}x faster", r"\1 倍速い"),
    (rf"{_NUM}x slower", r"\1 倍遅い"),
    (rf"{_NUM}x slower \(one measurement\)", r"\1 倍遅い (1 回だけの測定)"),
    (rf"no clear difference \({_NUM}x\)", r"明確な差なし (\1 倍)"),
    (r"baseline", "基準"),
    (r"quantize per tensor \(int8\)", "テンソル単位の量子化 (int8)"),
    (r"batch (\d+)", r"バッチ \1"),
    (rf"{_NUM} \(too noisy to publish\)", r"\1 (ばらつきが大きすぎて公表不可)"),
    (r"single pass, no rounds", "1 回だけ (ラウンドなし)"),
    (r"tensor of ([\d,]+) elements", r"要素数 \1 のテンソル"),
    (r"(\d+) batches of (\d+) through a (\S+) MLP, profiler warmed up",
     r"\3 の MLP に \2 件のバッチを \1 回通す (プロファイラはウォームアップ済み)"),
    (r"the same, first profiled pass in a fresh process \(the seed's single pass\)",
     "同上、新しいプロセスで最初にプロファイルした 1 回 (元記事の 1 回だけの計測)"),
    (r"under the profiler", "プロファイラ下"),
    # environment table: field names
    (r"date", "日時"),
    (r"mode", "モード"),
    (r"device", "デバイス"),
    (r"CPU model", "CPU モデル"),
    (r"logical CPUs", "論理 CPU 数"),
    (r"ISA class", "ISA 区分"),
    (r"ISA flags present", "CPU にある ISA フラグ"),
    (r"instruction set limited by", "命令セットの制限"),
    (r"kernels PyTorch dispatches to", "PyTorch が使うカーネル"),
    (r"build type", "ビルド種別"),
    (r"threads while measuring", "計測時のスレッド数"),
    (r"quantized engine", "量子化エンジン"),
    (r"load average at start", "開始時のロードアベレージ"),
    (r"GPU driver", "GPU ドライバ"),
    (r"GPU compute capability", "GPU の計算能力"),
    (r"GPU clocks", "GPU クロック"),
    # environment table: values
    (r"full", "フル"),
    (r"quick", "クイック"),
    (r"none", "なし"),
    (r"none \(CPU build\)", "なし (CPU ビルド)"),
    (r"none of (.+)", r"\1 のいずれもなし"),
    (r"unknown", "不明"),
    (r"not installed", "未インストール"),
    (r"unknown \(nvidia-smi not found\)", "不明 (nvidia-smi が見つからない)"),
    (r"unknown \(nvidia-smi failed: (\w+)\)", r"不明 (nvidia-smi が失敗: \1)"),
    (r"n/a \((\w+) run\)", r"該当なし (\1 での実行)"),
    (r"SM (.+) \(max (.+)\), memory (.+)", r"SM \1 (最大 \2)、メモリ \3"),
    (r"(.+) \(1/5/15 min\)", r"\1 (1/5/15 分)"),
]

#: Patterns for parts of a cell (row labels built from a model and its input), applied in turn.
_PHRASES: list[tuple[str, str]] = [
    (r"(\d+) layers\)", r"\1 層)"),
    (r", (\d+)-step loop", r"、\1 ステップのループ"),
    (r", (\d+) steps", r"、\1 ステップ"),
    (r", one step", "、1 ステップ"),
    (r", batch (\d+)$", r"、バッチ \1"),
    (r", state_dict$", " の state_dict"),
    (r"int8 dynamic \(qint8 weights, float32 bias\)", "int8 動的量子化 (重みは qint8、バイアスは float32)"),
    (r" \(scaler overhead\)$", " (スケーラーのオーバーヘッド)"),
    (r", no scaler$", "、スケーラーなし"),
]

#: Environment rows whose value is a fact to keep as written (a CPU model, an OS string).
_VERBATIM_FIELDS = frozenset(
    {"CPU model", "ISA flags present", "instruction set limited by", "torch", "torch CUDA", "BLAS", "oneDNN",
     "build type", "torchao", "Python", "OS", "GPU", "GPU driver"}
)

_NOISY = re.compile(
    r"Too noisy to publish \(per-round ratios differ by more than the limit\): (.+?)\. Re-run on a quieter machine\."
)

#: Note sentences: (pattern, Japanese). The Japanese may use the pattern's groups (\1, \2).
_NOTES: list[tuple[str, str]] = [
    (r"Step = zero_grad, forward, cross-entropy, backward, SGD step; MLP (\S+), batch (\d+)\.",
     r"1 ステップは zero_grad、順伝播、交差エントロピー、逆伝播、SGD の更新です。MLP は \1、バッチは \2 です。"),
    (r"Loss difference after (\d+) steps from the same initial weights\.",
     r"損失の差は、同じ初期重みから \1 ステップ進めた後の値です。"),
    (r"Median of (\d+) alternating rounds\.", r"交互に実行した \1 ラウンドの中央値です。"),
    (r"On CPU, bfloat16 needs no loss scaling; the GradScaler row only measures what the scaler costs\.",
     "CPU の bfloat16 には損失スケーリングが要らないので、GradScaler の行はスケーラーのコストだけを測っています。"),
    (r"Peak memory is measured on CUDA only \(PyTorch keeps no allocator statistics for CPU\)\.",
     "ピークメモリは CUDA でだけ測ります (PyTorch は CPU のアロケータ統計を持たないため)。"),
    (r"float32 step peak: (\d+) MiB\. Step peak = torch\.cuda\.max_memory_allocated during one step minus the memory "
     r"allocated before it \(activations, gradients, autocast's weight copies\)\.",
     r"float32 の 1 ステップのピーク: \1 MiB。ステップのピーク = 1 ステップ中の torch.cuda.max_memory_allocated から、"
     r"その直前に確保済みだったメモリを引いた値です (活性、勾配、autocast による重みのコピー)。"),
    (r"Ratios: float32 time / int8 time, median of (\d+) alternating rounds \((\d+) threads?\); "
     r"spread = largest / smallest per-round ratio\.",
     r"比は float32 の時間 / int8 の時間で、交互に実行した \1 ラウンドの中央値です (\2 スレッド)。"
     r"ばらつきはラウンドごとの比の最大 / 最小です。"),
    (r"Size: torch\.save\(state_dict\) bytes\.", "サイズは torch.save(state_dict) のバイト数です。"),
    (r"Errors against the same model run in float64\.", "誤差は同じモデルを float64 で実行した結果と比べたものです。"),
    (r"Not measured on CUDA: torch\.ao dynamic quantization has CPU kernels only \(see the torchao case\)\.",
     "CUDA では測っていません。torch.ao の動的量子化には CPU のカーネルしかありません (torchao のケースを参照)。"),
    (r"All dtypes alternated in the same (\d+) rounds; ratio = float32 time / dtype time\.",
     r"すべての dtype を同じ \1 ラウンドの中で交互に実行しました。比は float32 の時間 / その dtype の時間です。"),
    (r"TFLOP/s = 2n\^3 / median time \(n = (\d+)\)\.", r"TFLOP/s = 2n^3 / 時間の中央値 (n = \1) です。"),
    (r"float32 ran with TF32 off \(set_float32_matmul_precision\('highest'\)\); tf32 with 'high'\.",
     "float32 は TF32 を無効にして (set_float32_matmul_precision('highest'))、tf32 は 'high' で実行しました。"),
    (r"The first profiled pass in a fresh process could not be measured here\.",
     "新しいプロセスで最初にプロファイルする 1 回は、ここでは測れませんでした。"),
    (r"The profiled time includes recording every operator \(record_shapes=True\) and the profiler's "
     r"post-processing on exit; it measures the profiler, not the model\.",
     "プロファイラ下の時間には、すべての演算子の記録 (record_shapes=True) と、終了時のプロファイラの後処理が"
     "含まれます。測っているのはモデルではなくプロファイラです。"),
    (r"The first profiled pass of a process also pays the profiler's start-up, which the seed's single pass "
     r"included \(measured in a new Python process, after one unprofiled warm-up pass\)\.",
     "プロセスで最初にプロファイルする 1 回はプロファイラの起動コストも払い、元記事の 1 回だけの計測には"
     "これが含まれていました (新しい Python プロセスで、プロファイルなしのウォームアップを 1 回行った後に測定)。"),
    (r"([\d,]+) random float32 bit patterns \(all exponents, subnormals, inf, NaN\)\.",
     r"ランダムな float32 のビットパターン \1 個 (すべての指数、非正規化数、inf、NaN を含む) です。"),
    (r"Rounding rows: ([\d,]+) random float32 bit patterns \(all exponents, subnormals, inf, NaN\)\.",
     r"丸めの行: ランダムな float32 のビットパターン \1 個 (すべての指数、非正規化数、inf、NaN を含む) です。"),
    (r"Quantization rows: ([\d,]+) normal values with standard deviation 4 \(clamping and exact ties included\)\.",
     r"量子化の行: 標準偏差 4 の正規分布の値 \1 個 (クランプされる値とちょうど中間の値を含む) です。"),
    (r"The result column says how the readable reference compares with PyTorch's kernel: "
     r"it is meant to be read, not to be fast\.",
     "結果の列は、読みやすく書いた参照実装が PyTorch のカーネルと比べてどうかを示します。"
     "参照実装は読むためのもので、速さは目的ではありません。"),
    (r"Model sizes are torch\.save\(state_dict\) bytes, pickle overhead included; "
     r"bytes per element there = file bytes / parameter count\.",
     "モデルのサイズは torch.save(state_dict) のバイト数で、pickle のオーバーヘッドを含みます。"
     "モデルの行の 1 要素あたりのバイト数は、ファイルのバイト数 / パラメータ数です。"),
    (r"Sizes are exact \(no timing\)\.", "サイズは正確な値です (時間の計測ではありません)。"),
    (r"Each mode compares against float32 in the same mode \(compiled int8 vs compiled float32\)\.",
     "どのモードも同じモードの float32 と比べています (コンパイルした int8 とコンパイルした float32)。"),
    (r"Not measured: onnxruntime is not installed \((.+?)\)\.",
     r"測っていません。onnxruntime がインストールされていません (\1)。"),
    (r"Not measured: this case runs onnxruntime's CPU execution provider only\.",
     "測っていません。このケースは onnxruntime の CPU 実行プロバイダーでだけ実行します。"),
    (r"Both models run in onnxruntime (\S+) \(CPU execution provider, (\d+) intra-op threads?\); "
     r"ratio = float32 time / int8 time, median of (\d+) alternating rounds\. Weights: bytes of the ONNX initializers\.",
     r"どちらのモデルも onnxruntime \1 で実行しました (CPU 実行プロバイダー、演算内スレッド \2)。比は float32 の時間 / int8 の時間で、"
     r"交互に実行した \3 ラウンドの中央値です。重みは ONNX の初期化子のバイト数です。"),
    (r"Not measured: torchao is not installed \((.+?)\)\.",
     r"測っていません。torchao がインストールされていません (\1)。"),
    (r"Quick run: torch\.compile variants not measured \(compiling takes minutes on a small CPU\)\.",
     "クイック実行なので torch.compile の版は測っていません (小さな CPU ではコンパイルに数分かかります)。"),
]

_STAMP = re.compile(
    r"\*CPU: (?P<cpu>.+?) · ISA: (?P<isa>.+?)(?: · GPU: (?P<gpu>.+?))? · torch (?P<torch>\S+) · "
    r"(?P<threads>\d+) threads? · load (?P<load>\S+) · (?P<date>[^·]+?) · (?P<mode>full|quick) run\*"
)
_MODES = {"full": "フル実行", "quick": "クイック実行"}
_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*")


class UntranslatedError(ConfigError):
    """English text in a results table that the Japanese translation does not know."""


def _fail(kind: str, text: str) -> UntranslatedError:
    return UntranslatedError(
        f"untranslated {kind} in a benchmark table: {text!r}; add it to the i18n table "
        "(_HEADERS, _CELLS, _PHRASES or _NOTES) in benchmarks/i18n.py"
    )


def english_words(text: str) -> list[str]:
    """The English words left in ``text`` (identifiers and allowed names do not count).

    Args:
        text: Any cell, header or sentence.

    Returns:
        The word-bearing tokens, in order.

    Examples:
        >>> english_words("3.20x faster")
        ['faster']
        >>> english_words("dynamic.RNNCell · float32 · LSTM(256, 512) · Linear 1024x1024 · 2.00 倍速い")
        []
    """
    words = []
    for token in _TOKEN.findall(text):
        identifier = re.search(r"[\d_.]", token) or any(c.isupper() for c in token[1:])
        if not identifier and sum(c.isalpha() for c in token) >= 3 and token not in ALLOWED_WORDS:
            words.append(token)
    return words


def _cell(text: str, strict: bool = True) -> str:
    for pattern, japanese in _CELLS:
        m = re.fullmatch(pattern, text)
        if m:
            text = m.expand(japanese)
            break
    else:
        for pattern, japanese in _PHRASES:
            text = re.sub(pattern, japanese, text)
    if strict and english_words(text):
        raise _fail("cell", text)
    return text


def _header(text: str) -> str:
    if text in _HEADERS:
        return _HEADERS[text]
    if english_words(text):
        raise _fail("header", text)
    return text


def _notes(text: str) -> str:
    out, pos = [], 0
    while pos < len(text):
        m = _NOISY.match(text, pos)
        if m:
            labels = "; ".join(_cell(label) for label in m.group(1).split("; "))
            out.append(f"ばらつきが大きすぎて公表できない行 (ラウンドごとの比の差が上限を超えています): {labels}。"
                       "空いているマシンで測り直してください。")
        else:
            for pattern, japanese in _NOTES:
                m = re.compile(pattern).match(text, pos)
                if m:
                    out.append(m.expand(japanese))
                    break
            else:
                raise _fail("note sentence", re.split(r"(?<=\.) ", text[pos:], maxsplit=1)[0])
        pos = m.end()
        while pos < len(text) and text[pos] == " ":
            pos += 1
    return "".join(out)


def _stamp(line: str) -> str:
    m = _STAMP.fullmatch(line)
    if m is None:
        raise _fail("stamp line", line)
    isa = re.sub(r"^(\S+) limited by (.+)$", r"\1 (\2 で制限)", m["isa"])
    parts = [f"CPU: {m['cpu']}", f"ISA: {isa}"] + ([f"GPU: {m['gpu']}"] if m["gpu"] else [])
    parts += [f"torch {m['torch']}", f"{m['threads']} スレッド", f"負荷 {m['load']}", m["date"], _MODES[m["mode"]]]
    return "*" + " · ".join(parts) + "*"


def _split_row(line: str) -> list[str]:
    return [c.strip() for c in re.split(r"(?<!\\)\|", line.strip())[1:-1]]


def to_japanese(markdown: str) -> str:
    """Translate the English markdown of one benchmark case into Japanese.

    Args:
        markdown: What ``render_markdown`` wrote: a table, optional notes, the stamp line.

    Returns:
        The same table, notes and stamp in Japanese, with every number unchanged.

    Raises:
        UntranslatedError: A header, cell, note sentence or stamp the tables here do not know
            (the message names the text to add to this module).

    Examples:
        >>> md = ("| dtype | result (median of rounds) |\\n| --- | --- |\\n| bfloat16 | 6.08x faster |\\n\\n"
        ...       "*CPU: Xeon · ISA: AMX · torch 2.13.0 · 1 thread · load 1.18 · 2026-11-21 23:12 UTC · full run*\\n")
        >>> print(to_japanese(md))
        | dtype | 結果 (ラウンドの中央値) |
        | --- | --- |
        | bfloat16 | 6.08 倍速い |
        <BLANKLINE>
        *CPU: Xeon · ISA: AMX · torch 2.13.0 · 1 スレッド · 負荷 1.18 · 2026-11-21 23:12 UTC · フル実行*
        <BLANKLINE>
        >>> to_japanese(md.replace("6.08x faster", "6.08x quicker"))
        Traceback (most recent call last):
        ...
        benchmarks.i18n.UntranslatedError: untranslated cell in a benchmark table: '6.08x quicker'; ...
    """
    lines = markdown.rstrip("\n").split("\n")
    if len(lines) < 3 or not lines[0].startswith("|") or not lines[-1].startswith("*"):
        raise UntranslatedError("not a benchmark results table (a table, notes, then the stamp line)")
    headers = _split_row(lines[0])
    out = ["| " + " | ".join(_header(h) for h in headers) + " |", lines[1]]
    i = 2
    while i < len(lines) and lines[i].startswith("|"):
        cells = _split_row(lines[i])
        verbatim = headers == ["field", "value"] and cells[0] in _VERBATIM_FIELDS
        translated = [_cell(c) for c in cells[:-1]] + [_cell(cells[-1], strict=not verbatim)]
        out.append("| " + " | ".join(translated) + " |")
        i += 1
    for line in lines[i:-1]:
        out.append(_notes(line) if line.strip() else "")
    out.append(_stamp(lines[-1]))
    return "\n".join(out) + "\n"


def japanese_path(md_path: Path) -> Path:
    """Where the Japanese version of a case's markdown goes.

    Args:
        md_path: ``<case>.md``.

    Returns:
        ``<case>.ja.md`` in the same folder.

    Examples:
        >>> japanese_path(Path("benchmarks/results/cpu/matmul.md")).as_posix()
        'benchmarks/results/cpu/matmul.ja.md'
    """
    return md_path.with_name(md_path.stem + ".ja.md")

