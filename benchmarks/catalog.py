"""Every piece of text in the benchmark tables, each defined once in English and Japanese.

A case never writes English prose into a table. It stores *data*: numbers, names, and
[Msg][benchmarks.catalog.Msg] references (a key of `CATALOG` plus its arguments). The
tables are then rendered once per language from that data (``<case>.md`` in English,
``<case>.ja.md`` in Japanese), so a table can never be half translated.

Each [Text][benchmarks.catalog.Text] is checked when this module is imported: both texts
present, the same placeholders in both, and no English word left in the Japanese text.
A missing or broken entry therefore fails the first unit test that imports the benchmark,
never a measurement on a GPU.

Placeholders are ``str.format`` fields (``{ratio:.2f}``). A field whose name starts with
``_`` is English grammar only (``{_s}`` for a plural ``s``) and may be left out of the
Japanese text.
"""

from __future__ import annotations

import re
import string
from dataclasses import dataclass, field
from typing import Any, Mapping

from reference_impl.errors import ConfigError

__all__ = ["ALLOWED_WORDS", "CATALOG", "LANGS", "Msg", "Text", "english", "english_words", "from_json", "render", "to_json"]

#: The languages every text exists in.
LANGS = ("en", "ja")

#: Plain words that are names, not English prose: they may appear in Japanese text.
ALLOWED_WORDS = frozenset(
    {"dtype", "torch", "torchao", "autocast", "eager", "cpu", "cuda", "mkl", "openblas", "Linear",
     "Python", "Release", "Debug", "Intel", "Xeon", "Processor", "inf", "nan", "pickle", "tf", "onnxruntime",
     "logits", "high", "highest", "True", "nvidia-smi", "amax", "Runtime", "Compute", "Capability", "ieee", "scaled_mm", "scaling",
     "dry-run", "Inductor", "quantizer", "freezing", "addmm", "non-strict", "quantize", "dequantize"}
)

_TOKEN = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:[.\-][A-Za-z0-9_]+)*")


def english_words(text: str) -> list[str]:
    """The English words in ``text`` (identifiers and the names in `ALLOWED_WORDS` do not count).

    A word is a run of three or more ASCII letters that is not an identifier; identifiers have a
    digit, ``_`` or ``.`` in them, or a capital letter after the first character (``float32``,
    ``state_dict``, ``torch.compile``, ``GradScaler``, ``LSTM``).

    Args:
        text: Any text.

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


def _fields(template: str) -> set[str]:
    return {name.split(".")[0].split("[")[0] for _, name, _, _ in string.Formatter().parse(template) if name}


@dataclass(frozen=True)
class Text:
    """One label, column header, note sentence or cell phrase, in both languages.

    Attributes:
        en: The English text (a ``str.format`` template).
        ja: The Japanese text, with the same placeholders (``_``-prefixed ones may be left out).

    Raises:
        ConfigError: A text is empty, the placeholders differ, or the Japanese text still has an
            English word (see `english_words`).

    Examples:
        >>> Text("{n} steps", "{n} ステップ").ja
        '{n} ステップ'
        >>> Text("{n} steps", "")
        Traceback (most recent call last):
        ...
        reference_impl.errors.ConfigError: catalog text '{n} steps' has no Japanese text; write both texts
    """

    en: str
    ja: str

    def __post_init__(self) -> None:
        if not self.en.strip():
            raise ConfigError(f"catalog text {self.ja!r} has no English text; write both texts")
        if not self.ja.strip():
            raise ConfigError(f"catalog text {self.en!r} has no Japanese text; write both texts")
        en_fields, ja_fields = _fields(self.en), _fields(self.ja)
        if {f for f in en_fields if not f.startswith("_")} != ja_fields:
            raise ConfigError(
                f"catalog text {self.en!r}: placeholders {sorted(en_fields)} in English but {sorted(ja_fields)} "
                f"in Japanese ({self.ja!r}); use the same names"
            )
        literal = "".join(part for part, *_ in string.Formatter().parse(self.ja))
        leftover = english_words(literal)
        if leftover:
            raise ConfigError(
                f"catalog text {self.en!r}: the Japanese text {self.ja!r} still has English words {leftover}; "
                "translate them (or add a name to ALLOWED_WORDS)"
            )

    def text(self, lang: str) -> str:
        """The template in ``lang`` (``"en"`` or ``"ja"``)."""
        if lang not in LANGS:
            raise ConfigError(f"unknown language {lang!r}; choose from {LANGS}")
        return self.en if lang == "en" else self.ja


def _same(text: str) -> Text:
    """A text that reads the same in both languages (names, units, identifiers)."""
    return Text(text, text)


_VERDICTS = {
    "verdict.faster": Text("{ratio:.2f}x faster", "{ratio:.2f} 倍速い"),
    "verdict.slower": Text("{ratio:.2f}x slower", "{ratio:.2f} 倍遅い"),
    "verdict.unclear": Text("no clear difference ({ratio:.2f}x)", "明確な差なし({ratio:.2f} 倍)"),
    "verdict.one_measurement": Text("{ratio:.0f}x slower (one measurement)", "{ratio:.0f} 倍遅い(1 回だけの計測)"),
    "verdict.baseline": Text("baseline", "基準"),
    "spread.too_noisy": Text("{spread:.2f} (too noisy to publish)", "{spread:.2f}(ばらつきが大きく、比は参考になりません)"),
    "spread.single_pass": Text("single pass, no rounds", "1 回だけ(ラウンドなし)"),
    "value.times": Text("{ratio:.2f}x", "{ratio:.2f} 倍"),
    # a size ratio (report.FRACTION_HEADERS): Japanese says how small, 「3.98 分の 1」, as the pages' prose does
    "value.fraction": Text("{ratio:.2f}x", "{ratio:.2f} 分の 1"),
    # the same ratio when it is 1.00 (the float32 rows): 「1.00 分の 1」 reads as a calque of 1.00x
    "value.fraction_none": Text("{ratio:.2f}x", "縮小なし({ratio:.2f} 倍)"),
    "mode.compile_freezing_off": Text("torch.compile, freezing off", "torch.compile(freezing なし)"),
    "mode.compile_freezing_on": Text("torch.compile, freezing on", "torch.compile(freezing あり)"),
    "value.pt2e_addmm": Text("float32 addmm (quantize/dequantize kept)", "float32 の addmm(quantize/dequantize の演算は残る)"),
    "value.reference_decomposed": Text(
        "float32 linear between quantize/dequantize ops", "quantize/dequantize の演算に挟まれた float32 の線形層"
    ),
    "details.full_table": Text("Full table ({n} columns)", "全 {n} 列の詳しい表"),
    "summary.versus": Text("{variant} vs {baseline}", "{baseline} と比べた {variant}"),
    "summary.versus_header": Text("{variant} vs baseline", "基準と比べた {variant}"),
}

_COLUMNS = {
    "col.dtype": _same("dtype"),
    "col.tflops": _same("TFLOP/s"),
    "col.float32_ms": _same("float32 ms"),
    "col.dtype_ms": _same("dtype ms"),
    "col.int8_ms": _same("int8 ms"),
    "col.pytorch_ms": _same("PyTorch ms"),
    "col.reference_ms": Text("reference ms", "参照実装 ms"),
    "col.baseline_ms": Text("baseline ms", "基準 ms"),
    "col.variant_ms": Text("variant ms", "構成 ms"),
    "col.direct_ms": Text("direct ms", "プロファイラなし ms"),
    "col.profiled_ms": Text("profiled ms", "プロファイラあり ms"),
    "col.verdict": Text("result (median of rounds)", "結果(ラウンドの中央値)"),
    "col.spread": Text("spread (max/min)", "ばらつき(最大/最小)"),
    "col.error": Text("error (rel. L2 vs float64)", "誤差(float64 に対する相対 L2)"),
    "col.int8_error": Text("int8 error (rel. L2 vs float64)", "int8 の誤差(float64 に対する相対 L2)"),
    "col.float32_error": Text("float32 error", "float32 の誤差"),
    "col.variant": Text("variant", "構成"),
    "col.logits": Text("logits dtype", "ロジットの dtype"),
    "col.compared_with": Text("compared with", "比較対象"),
    "col.loss_diff": Text("loss after steps, diff vs baseline", "数ステップ後の損失(基準との差)"),
    "col.peak_mib": Text("step peak MiB (CUDA)", "1 ステップのピークメモリ MiB(CUDA)"),
    "col.model": Text("model and input", "モデルと入力"),
    "col.module": Text("quantized module", "量子化後のモジュール"),
    "col.state_dict_smaller": Text("state_dict smaller by", "state_dict の大きさ(float32 比)"),
    "col.weights_smaller": Text("weights smaller by", "重みの大きさ(float32 比)"),
    "col.batch": Text("batch", "バッチサイズ"),
    "col.what_timed": Text("what was timed", "計測対象"),
    "col.reference": _same("reference_impl"),
    "col.kernel": Text("PyTorch kernel", "PyTorch のカーネル"),
    "col.agree": Text("bit-exact outputs (NaN = NaN)", "ビット単位で一致した出力(NaN どうしは一致とみなす)"),
    "col.what": Text("what", "対象"),
    "col.bytes": Text("bytes", "バイト数"),
    "col.per_element": Text("bytes per element", "1 要素あたりのバイト数"),
    "col.smaller_than_float32": Text("smaller than float32 by", "float32 と比べた大きさ"),
    "col.limit": Text("limit", "縮小の上限"),
    "col.share_of_limit": Text("share of the limit", "上限に対する割合"),
    "col.torchao_config": Text("torchao config", "torchao の設定"),
    "col.mode": Text("mode", "モード"),
    "col.int8_kernel": Text("int8 model's matmul", "int8 モデルの行列積"),
    "col.weight_type": Text("weight type", "重みの型"),
    "col.size": Text("size n (n x n @ n x n)", "サイズ n(n×n @ n×n)"),
    "col.events_ms": Text("CUDA events ms", "CUDA イベント ms"),
    "col.loop_ms": Text("timed loop ms", "ループ計測 ms"),
    "col.timers_agree": Text("events / loop", "イベント/ループ"),
    "col.pct_peak": Text("% of data-sheet peak", "データシート上のピーク性能に対する割合"),
    "col.step_tflops": Text("variant TFLOP/s (model FLOPs / time)", "構成ごとの TFLOP/s(モデルの FLOP 数/時間)"),
    "col.steps_per_round": Text("steps per round (float32 / variant)", "1 ラウンドのステップ数(float32/各構成)"),
    "col.peak_gib": Text("peak GiB allocated (CUDA)", "ピークメモリ GiB(CUDA、確保量)"),
    "col.field": Text("field", "項目"),
    "col.value": Text("value", "値"),
}

_LABELS = {
    "label.tensor_elements": Text("tensor of {n:,} elements", "要素数 {n:,} のテンソル"),
    "label.state_dict": Text("{model}, state_dict", "{model} の state_dict"),
    "label.lstm": Text("LSTM({d_in}, {hidden}, {layers} layers)", "LSTM({d_in}, {hidden}, {layers} 層)"),
    "label.linear_batch": Text("Linear {n}x{n}, batch {batch}", "Linear {n}×{n}、バッチ {batch}"),
    "label.steps_batch": Text("{model}, {steps} steps, batch {batch}", "{model}、{steps} ステップ、バッチ {batch}"),
    "label.one_step_batch": Text("{model}, one step, batch {batch}", "{model}、1 ステップ、バッチ {batch}"),
    "label.loop_batch": Text(
        "{model}, {steps}-step loop, batch {batch}", "{model}、{steps} ステップのループ、バッチ {batch}"
    ),
    "label.int8_dynamic_weights": Text(
        "int8 dynamic (qint8 weights, float32 bias)", "int8 動的量子化(重みは qint8、バイアスは float32)"
    ),
    # Japanese puts the dtype first, as the pages' prose does (「bfloat16 の autocast」)
    "label.autocast": Text("autocast {dtype}", "{dtype} の autocast"),
    "label.autocast_scaler": Text("autocast {dtype} + GradScaler", "{dtype} の autocast + GradScaler"),
    "label.autocast_no_scaler": Text("autocast {dtype}, no scaler", "{dtype} の autocast(スケーラなし)"),
    # Japanese: 「X(スケーラのオーバーヘッド)と比べた X + GradScaler」 read as if the baseline were the
    # overhead, and the bare 「X と比べた X + GradScaler」 lost what the row isolates (an editor counted it);
    # 「X(スケーラなし)」 says it, in the words of label.autocast_no_scaler.
    "label.scaler_overhead": Text("{variant} (scaler overhead)", "{variant}(スケーラなし)"),
    "label.batch": Text("batch {batch}", "バッチ {batch}"),
    "label.quantize_per_tensor": Text("quantize per tensor (int8)", "テンソル単位の量子化(int8)"),
    "label.profiled_loop": Text(
        "{batches} batches of {batch} through a {mlp} MLP, profiler warmed up",
        "{mlp} の MLP に {batch} 件ずつのバッチを {batches} 回通す(プロファイラはウォームアップ済み)",
    ),
    "label.first_profiled_pass": Text(
        "the same, first profiled pass in a fresh process (a single-pass benchmark)",
        "同上、新しいプロセスでの最初のプロファイル実行(1 回だけ測るベンチマークに相当)",
    ),
    "label.under_profiler": Text("under the profiler", "プロファイラあり"),
    # gpu_matmul's row that times the quantization of both operands; its JSON holds it as the plain
    # text "float8 scaling" (see PLAIN_LABELS)
    "label.float8_scaling": Text("float8 scaling", "float8 のスケーリング"),
    # gpu_transformer_step's rows, plain text in its JSON too (see PLAIN_LABELS)
    "label.autocast_float16_scaler": Text("autocast float16 + GradScaler", "float16 の autocast + GradScaler"),
    "label.autocast_bfloat16": Text("autocast bfloat16", "bfloat16 の autocast"),
}

_NOTES = {
    "note.too_noisy": Text(
        "The rows marked too noisy to publish in the spread column have per-round ratios that differ by more than "
        "the limit: re-run them on a quieter machine.",
        "ばらつきの列で「ばらつきが大きく、比は参考になりません」とした行は、ラウンドごとの比の開きが上限を超えています。"
        "負荷の少ないマシンで計測し直してください。",
    ),
    "note.amp_step": Text(
        "Step = zero_grad, forward, cross-entropy, backward, SGD step; MLP {mlp}, batch {batch}.",
        "1 ステップは zero_grad、順伝播、交差エントロピー、逆伝播、SGD のステップです。MLP は {mlp}、バッチは {batch} です。",
    ),
    "note.loss_after_steps": Text(
        "Loss difference after {steps} steps from the same initial weights.",
        "損失の差は、同じ初期重みから {steps} ステップ進めた後の値です。",
    ),
    "note.median_rounds": Text("Median of {rounds} alternating rounds.", "値は、交互に実行した {rounds} ラウンドの中央値です。"),
    "note.cpu_bfloat16_no_scaling": Text(
        "On CPU, bfloat16 needs no loss scaling; the GradScaler row only measures what the scaler costs.",
        "CPU の bfloat16 には損失スケーリングが要らないので、GradScaler の行はスケーラのコストだけを測っています。",
    ),
    "note.peak_cuda_only": Text(
        "Peak memory is measured on CUDA only (PyTorch keeps no allocator statistics for CPU).",
        "ピークメモリは CUDA でだけ計測します。PyTorch は CPU のアロケータの統計を取らないためです。",
    ),
    "note.step_peak": Text(
        "float32 step peak: {peak:.0f} MiB. Step peak = torch.cuda.max_memory_allocated during one step minus the "
        "memory allocated before it (activations, gradients, autocast's weight copies).",
        "float32 の 1 ステップのピークメモリは {peak:.0f} MiB です。ステップのピークメモリは、1 ステップ中の "
        "torch.cuda.max_memory_allocated から、その直前に確保済みだったメモリを引いた値です"
        "(活性値、勾配、autocast が作る重みのコピーの分)。",
    ),
    "note.int8_ratios": Text(
        "Ratios: float32 time / int8 time, median of {rounds} alternating rounds ({threads} thread{_s}); "
        "spread = largest / smallest per-round ratio.",
        "比は float32 の時間/int8 の時間で、交互に実行した {rounds} ラウンドの中央値です({threads} スレッド)。"
        "ばらつきはラウンドごとの比の最大/最小です。",
    ),
    "note.size_state_dict": Text("Size: torch.save(state_dict) bytes.", "state_dict の大きさは、torch.save(state_dict) で書き出したバイト数です。"),
    "note.errors_float64": Text(
        "Errors against the same model run in float64.", "誤差は同じモデルを float64 で実行した結果と比べたものです。"
    ),
    "note.ao_cpu_only": Text(
        "Not measured on CUDA: torch.ao dynamic quantization has CPU kernels only (see the torchao case).",
        "CUDA では計測していません。torch.ao の動的量子化には CPU のカーネルしかないためです(torchao のケースを参照)。",
    ),
    "note.matmul_rounds": Text(
        "All dtypes alternated in the same {rounds} rounds; ratio = float32 time / dtype time.",
        "すべての dtype を同じ {rounds} ラウンドの中で交互に実行しました。比は float32 の時間/その dtype の時間です。",
    ),
    "note.tflops": Text("TFLOP/s = 2n^3 / median time (n = {n}).", "TFLOP/s は 2n³ を時間の中央値で割った値です(n = {n})。"),
    "note.tf32": Text(
        "float32 ran with TF32 off (torch.backends.cuda.matmul.fp32_precision = 'ieee'); tf32 with 'tf32', checked "
        "to have engaged (its error well above float32's).",
        "float32 は TF32 を無効にして(torch.backends.cuda.matmul.fp32_precision = 'ieee')、tf32 は 'tf32' で実行しました。"
        "tf32 では TF32 が実際に使われたこと(誤差が float32 より十分に大きいこと)を確かめています。",
    ),
    "note.gpu_matmul_timing": Text(
        "Each dtype ran {iters} times after {warmup} warm-up calls; TFLOP/s = 2n^3 / time per call between CUDA "
        "events, cross-checked against a synchronized perf_counter loop (events / loop near 1.00x).",
        "どの dtype も {warmup} 回のウォームアップの後に {iters} 回実行しました。TFLOP/s は 2n³ を 1 回あたりの時間で割った値です。"
        "時間は CUDA イベントで計測し、同期を取った perf_counter のループと照合しています(イベント/ループが 1.00 倍に近いこと)。",
    ),
    # the first design of gpu_transformer_step: kept so that the committed H100 table of 2026-11-26 still renders
    "note.transformer_step": Text(
        "Step = zero_grad, forward, cross-entropy, backward, AdamW step of one TransformerEncoderLayer "
        "(d_model {d_model}, {heads} heads, feed-forward {ff}) with a {classes}-class head; batch {batch} x {seq} tokens.",
        "1 ステップは zero_grad、順伝播、交差エントロピー、逆伝播、AdamW のステップです。"
        "モデルは、TransformerEncoderLayer 1 層(d_model {d_model}、ヘッド数 {heads}、フィードフォワード層の次元 {ff})に "
        "{classes} クラスの出力層を付けたものです。バッチは {batch}×{seq} トークンです。",
    ),
    "note.float8_scaled": Text(
        "float8_e4m3fn: scaled_mm with one scale per tensor (amax / 448), output in bfloat16, on operands quantized "
        "before timing; the row float8 scaling is the cost of quantizing both operands, which a model pays per call "
        "for its activations.",
        "float8_e4m3fn は、テンソル単位のスケール(amax/448)を使う scaled_mm で計算し、出力は bfloat16 です。"
        "オペランドは計測の前に量子化しました。「float8 のスケーリング」の行は二つのオペランドを量子化する時間です。"
        "モデルの中では、活性値を量子化するために、呼び出しのたびにこの時間がかかります。",
    ),
    "note.stand_in": Text(
        "Dry run on a CPU stand-in (--dry-run): tiny sizes, a CPU timer in place of CUDA events, no TF32; these "
        "figures say nothing about a GPU, only that the case runs end to end.",
        "GPU の代わりに CPU で実行したドライラン(--dry-run)です。サイズはごく小さく、CUDA イベントの代わりに CPU のタイマを使い、"
        "TF32 も使いません。この数値から GPU の性能は分かりません。ケースが最後まで動くことを確かめるためのものです。",
    ),
    "note.transformer_steps": Text(
        "Step = zero_grad, forward, cross-entropy, backward, AdamW step of {layers} TransformerEncoderLayers "
        "(d_model {d_model}, {heads} heads, feed-forward {ff}) with a {classes}-class head; batch {batch} x {seq} = "
        "{tokens:,} tokens, {tflop:.3g} TFLOP per step (matmuls and attention, the backward counted as twice the "
        "forward).",
        "1 ステップは zero_grad、順伝播、交差エントロピー、逆伝播、AdamW のステップです。"
        "モデルは、TransformerEncoderLayer {layers} 層(d_model {d_model}、ヘッド数 {heads}、フィードフォワード層の次元 {ff})に "
        "{classes} クラスの出力層を付けたものです。バッチは {batch}×{seq} = {tokens:,} トークンです。"
        "1 ステップの計算量は {tflop:.3g} TFLOP です(行列積とアテンションの分で、逆伝播は順伝播の 2 倍として数えます)。",
    ),
    "note.step_rounds": Text(
        "Each round times every variant once, in a rotated order, over consecutive steps between two CUDA events "
        "(at least {round_ms:.0f} ms of device time; events / loop compares them with the host clock around the same "
        "steps), after {passes} warm-up passes of every variant (until a pass changed neither the caching "
        "allocator's reserve nor the GradScaler's scale). While timed, the variants share one model and one AdamW "
        "optimizer. Median of {rounds} rounds; a spread above {limit:.2f} is flagged as too noisy to publish.",
        "各ラウンドでは、すべての構成を 1 回ずつ計測し、その順番はラウンドごとに入れ替えます。1 回の計測では、連続した数ステップを"
        "二つの CUDA イベントで挟んで測り、デバイス上の時間で {round_ms:.0f} ms 以上とします。表のイベント/ループは、"
        "同じステップをホストの時計で測った値との比です。"
        "計測の前に、すべての構成を順に実行するウォームアップを {passes} 回行いました"
        "(キャッシュアロケータの予約量も GradScaler のスケールも変わらなくなるまで)。"
        "計測中は、すべての構成が一つのモデルと一つの AdamW オプティマイザを共有します。"
        "値は {rounds} ラウンドの中央値です。ばらつきが {limit:.2f} を超える行には、比が参考にならないことを示す印を付けます。",
    ),
    "note.step_peak_total": Text(
        "float32 peak: {peak:.3g} GiB. Peak = torch.cuda.max_memory_allocated over one step after "
        "torch.cuda.reset_peak_memory_stats (the shared float32 parameters, gradients and AdamW state included).",
        "float32 のピークメモリは {peak:.3g} GiB です。ピークメモリは、torch.cuda.reset_peak_memory_stats の後の "
        "1 ステップでの torch.cuda.max_memory_allocated です。共有する float32 のパラメータ、勾配、AdamW の状態も含みます。",
    ),
    "note.warmup_unsettled": Text(
        "The warm-up did not settle in {passes} passes (the allocator's reserve or the GradScaler's scale still "
        "changed): the times may include allocations or skipped steps.",
        "{passes} 回のウォームアップでも状態が落ち着きませんでした(アロケータの予約量か GradScaler のスケールが"
        "まだ変わっていました)。計測時間には、メモリの確保やスキップされたステップが含まれているかもしれません。",
    ),
    "note.allocator_grew": Text(
        "The caching allocator reserved {mib:.0f} MiB more while timed: some rounds include allocations.",
        "計測中にキャッシュアロケータの予約量が {mib:.0f} MiB 増えました。メモリの確保を含むラウンドがあります。",
    ),
    "note.scaler_skipped": Text(
        "The GradScaler skipped {skipped} optimizer step{_s} while timed (float16 gradients overflowed): the "
        "float16 row leaves those updates out.",
        "計測中に GradScaler がオプティマイザのステップを {skipped} 回スキップしました(float16 の勾配がオーバーフローしたため)。"
        "float16 の行の時間には、スキップしたステップのパラメータ更新が含まれていません。",
    ),
    "note.float8_no_cpu_kernel": Text(
        "float8 rows left out of this CPU stand-in: torch {torch} has no CPU kernel for scaled_mm ({op}); "
        "torch 2.13 has one, and a GPU runs them.",
        "GPU の代わりに CPU で実行したので、float8 の行を省きました。torch {torch} には scaled_mm({op})の CPU カーネルがありません。"
        "torch 2.13 にはあり、GPU ではこれらの行も実行します。",
    ),
    "note.float8_unsupported": Text(
        "float8 not measured: torch._scaled_mm needs compute capability 8.9 or newer (this GPU: {capability}).",
        "float8 は計測していません。torch._scaled_mm には Compute Capability 8.9 以上の GPU が必要です(この GPU は {capability})。",
    ),
    "note.no_fresh_pass": Text(
        "The first profiled pass in a fresh process could not be measured here.",
        "新しいプロセスでの最初のプロファイル実行は、ここでは計測できませんでした。",
    ),
    "note.profiler_measures_profiler": Text(
        "The profiled time includes recording every operator (record_shapes=True) and the profiler's "
        "post-processing on exit; most of it is the profiler's own work, not the model's.",
        "プロファイラありの時間には、すべての演算子の記録(record_shapes=True)と、終了時のプロファイラの後処理が"
        "含まれます。この時間の大半は、モデルではなくプロファイラ自身の処理です。",
    ),
    "note.profiler_first_pass": Text(
        "The first profiled pass of a process also pays the profiler's start-up, which a single-pass benchmark "
        "includes (measured in a new Python process, after one unprofiled warm-up pass).",
        "プロセスで最初にプロファイルを取るときはプロファイラの起動時間も加わり、1 回だけ測るベンチマークの時間にはこれが含まれます"
        "(この値は、新しい Python プロセスで、プロファイルなしのウォームアップを 1 回行った後に計測しました)。",
    ),
    "note.rounding_rows": Text(
        "Rounding rows: {n:,} random float32 bit patterns (all exponents, subnormals, inf, NaN).",
        "丸めの行の入力は、ランダムな float32 のビットパターン {n:,} 個です(すべての指数、非正規化数、inf、NaN を含む)。",
    ),
    "note.quantization_rows": Text(
        "Quantization rows: {n:,} normal values with standard deviation 4 (clamping and exact ties included).",
        "量子化の行の入力は、標準偏差 4 の正規分布に従う値 {n:,} 個です(クランプされる値と、隣り合う二つの整数のちょうど中間にある値を含む)。",
    ),
    "note.reference_readable": Text(
        "The result column says how the readable reference compares with PyTorch's kernel: "
        "it is meant to be read, not to be fast.",
        "結果の列は、読みやすさを優先して書いた参照実装を、PyTorch のカーネルと比べたものです。"
        "参照実装は読むためのもので、速さは目的ではありません。",
    ),
    "note.model_sizes": Text(
        "Model sizes are torch.save(state_dict) bytes, pickle overhead included; "
        "bytes per element there = file bytes / parameter count.",
        "モデルの大きさは torch.save(state_dict) で書き出したバイト数で、pickle のオーバーヘッドを含みます。"
        "モデルの行の 1 要素あたりのバイト数は、ファイルのバイト数/パラメータ数です。",
    ),
    "note.sizes_exact": Text("Sizes are exact (no timing).", "大きさはバイト数を数えた正確な値で、時間は計測していません。"),
    "note.same_mode": Text(
        "Each mode compares against float32 in the same mode (compiled int8 vs compiled float32).",
        "どのモードも、同じモードの float32 と比べています(コンパイルした int8 はコンパイルした float32 と比べます)。",
    ),
    "note.onnxruntime_missing": Text(
        "Not measured: onnxruntime is not installed ({error}).",
        "計測していません。onnxruntime がインストールされていません({error})。",
    ),
    "note.onnxruntime_cpu_only": Text(
        "Not measured: this case runs onnxruntime's CPU execution provider only.",
        "計測していません。このケースは onnxruntime の CPU 実行プロバイダでだけ実行します。",
    ),
    "note.onnxruntime_reduce_range": Text(
        "This CPU has no VNNI: the weights were quantized with reduce_range=True (7 bits), as ONNX Runtime "
        "advises, because its U8S8 kernels add pairs of uint8 x int8 products into a saturating int16 there.",
        "この CPU には VNNI がないので、ONNX Runtime の推奨どおり reduce_range=True(7 ビット)で重みを量子化しました。"
        "VNNI のない CPU では、U8S8 のカーネルが uint8 × int8 の積を二つずつ、飽和する int16 に足し込むためです。",
    ),
    "note.onnxruntime_method": Text(
        "Both models run in onnxruntime {version} (CPU execution provider, {threads} intra-op thread{_s}); "
        "ratio = float32 time / int8 time, median of {rounds} alternating rounds. "
        "Weights: bytes of the ONNX initializers.",
        "どちらのモデルも onnxruntime {version} で実行しました(CPU 実行プロバイダ、演算内スレッド数 {threads})。"
        "比は float32 の時間/int8 の時間で、交互に実行した {rounds} ラウンドの中央値です。"
        "重みは ONNX の初期化子のバイト数です。",
    ),
    "note.torchao_missing": Text(
        "Not measured: torchao is not installed ({error}).",
        "計測していません。torchao がインストールされていません({error})。",
    ),
    "note.pt2e_cpu_only": Text(
        "Not measured: PT2E's x86 quantizer and its Inductor lowering are for CPUs.",
        "計測していません。PT2E の x86 向けの量子化器と、Inductor によるローワリングは、CPU を対象としたものです。",
    ),
    "note.pt2e_no_source_partitions": Text(
        "Not measured on torch {torch}: its torch.export (non-strict, the default) records no source_fn_stack "
        "and its get_source_partitions does not read nn_module_stack instead, so torchao's X86InductorQuantizer "
        "finds no Linear layer and convert_pt2e quantizes nothing. torch 2.13's get_source_partitions reads "
        "nn_module_stack (PyTorch PR 175788).",
        "torch {torch} では計測していません。このバージョンの torch.export(既定の non-strict モード)は source_fn_stack を記録せず、"
        "get_source_partitions もその代わりに nn_module_stack を読まないため、torchao の X86InductorQuantizer は "
        "Linear 層を見つけられず、convert_pt2e は何も量子化しません。torch 2.13 の get_source_partitions は "
        "nn_module_stack を読みます(PyTorch PR 175788)。",
    ),
    "note.pt2e_same_mode": Text(
        "Each row compares against float32 run the same way (eager, or compiled with the same freezing setting); "
        "the kernel column is read from Inductor's generated code.",
        "どの行も、同じ方法で実行した float32 と比べています(eager 実行どうし、または freezing の設定を同じにしたコンパイルどうし)。"
        "行列積の列は、Inductor が生成したコードから読み取りました。",
    ),
    "note.quick_no_compile": Text(
        "Quick run: torch.compile variants not measured (compiling takes minutes on a small CPU).",
        "クイック実行なので、torch.compile を使う構成は計測していません(コア数の少ない CPU ではコンパイルに数分かかります)。",
    ),
}

_ENVIRONMENT = {
    "env.date": Text("date", "日時"),
    "env.mode": Text("mode", "モード"),
    "env.device": Text("device", "デバイス"),
    "env.cpu_model": Text("CPU model", "CPU モデル"),
    "env.logical_cpus": Text("logical CPUs", "論理 CPU 数"),
    "env.isa_class": Text("ISA class", "命令セットの区分"),
    "env.isa_flags": Text("ISA flags present", "CPU が持つ命令セットのフラグ"),
    "env.isa_limit": Text("instruction set limited by", "命令セットの制限"),
    "env.torch_cpu_capability": Text("kernels PyTorch dispatches to", "PyTorch のディスパッチ先のカーネル"),
    "env.torch_version": _same("torch"),
    "env.torch_cuda": _same("torch CUDA"),
    "env.torch_blas": _same("BLAS"),
    "env.torch_onednn": _same("oneDNN"),
    "env.torch_build_type": Text("build type", "ビルド種別"),
    "env.torchao_version": _same("torchao"),
    "env.python": _same("Python"),
    "env.os": _same("OS"),
    "env.threads": Text("threads while measuring", "計測時のスレッド数"),
    "env.quantized_engine": Text("quantized engine", "量子化エンジン"),
    "env.load_average": Text("load average at start", "開始時の負荷(ロードアベレージ)"),
    "env.gpu_name": _same("GPU"),
    "env.gpu_capability": Text("GPU compute capability", "GPU の Compute Capability"),
    "env.gpu_driver": Text("GPU driver", "GPU ドライバ"),
    "env.gpu_clocks": Text("GPU clocks", "GPU クロック"),
    "env.gpu_uuid": _same("GPU UUID"),
    # values
    "value.full": Text("full", "フル"),
    "value.quick": Text("quick", "クイック"),
    "value.none": Text("none", "なし"),
    "value.none_cpu_build": Text("none (CPU build)", "なし(CPU ビルド)"),
    "value.none_of": Text("none of {flags}", "{flags} のいずれもなし"),
    "value.unknown": Text("unknown", "不明"),
    "value.not_installed": Text("not installed", "未インストール"),
    "value.no_nvidia_smi": Text("unknown (nvidia-smi not found)", "不明(nvidia-smi が見つからない)"),
    "value.no_nvml_match": Text(
        "unknown (no NVML device has torch's UUID)", "不明(torch のデバイスと UUID が一致する NVML デバイスがない)"
    ),
    "value.nvidia_smi_failed": Text("unknown (nvidia-smi failed: {error})", "不明(nvidia-smi の実行に失敗: {error})"),
    "value.not_applicable": Text("n/a ({device} run)", "該当なし(デバイス {device} で計測)"),
    "value.gpu_clocks": Text("SM {sm} (max {sm_max}), memory {memory}", "SM {sm}(最大 {sm_max})、メモリ {memory}"),
    "value.load_average": Text("{loads} (1/5/15 min)", "{loads}(1/5/15 分)"),
    # the stamp line under every table
    "stamp.isa_limited": Text("{isa} limited by {limit}", "{isa}({limit} で制限)"),
    "stamp.threads": Text("{threads} thread{_s}", "{threads} スレッド"),
    "stamp.load": Text("load {load}", "負荷 {load}"),
    "stamp.full": Text("full run", "フル実行"),
    "stamp.quick": Text("quick run", "クイック実行"),
}

#: Every text of the benchmark tables, by key.
CATALOG: Mapping[str, Text] = {**_VERDICTS, **_COLUMNS, **_LABELS, **_NOTES, **_ENVIRONMENT}

#: Row labels that a case writes into its JSON as plain text rather than as a message, with the
#: message each one renders as. A committed result keeps its data as it was measured (its provenance
#: digest covers it), so the words are translated where the table is rendered: the English stays the
#: same text, the Japanese table says 「float8 のスケーリング」 (Japanese review of 2026-11-29, BE2) and
#: 「bfloat16 の autocast」 (review 2026-11-29b, C-2). `render` applies it too (the noisy rows' note).
PLAIN_LABELS: Mapping[str, str] = {
    "float8 scaling": "label.float8_scaling",
    "autocast float16 + GradScaler": "label.autocast_float16_scaler",
    "autocast bfloat16": "label.autocast_bfloat16",
}


#: 「…(X)(X)」: the same parenthetical twice in a row (Msg.render prints it once in Japanese).
_REPEATED_PARENTHETICAL = re.compile(r"(\([^()]+\))\1")


@dataclass(frozen=True)
class Msg:
    """A reference to a catalog text with its arguments: what a table cell or note stores.

    Arguments may be numbers, strings or other messages (rendered in the same language).

    Attributes:
        key: A key of `CATALOG`.
        args: The template's arguments.

    Raises:
        ConfigError: An unknown key, or arguments that do not match the template's placeholders.

    Examples:
        >>> m = Msg("verdict.faster", ratio=3.0)
        >>> m.render("en"), m.render("ja")
        ('3.00x faster', '3.00 倍速い')
        >>> Msg("verdict.fastr", ratio=3.0)
        Traceback (most recent call last):
        ...
        reference_impl.errors.ConfigError: no catalog text 'verdict.fastr'; add it to benchmarks/catalog.py (English and Japanese)
    """

    key: str
    args: Mapping[str, Any] = field(default_factory=dict)

    def __init__(self, key: str, **args: Any) -> None:
        if key not in CATALOG:
            raise ConfigError(f"no catalog text {key!r}; add it to benchmarks/catalog.py (English and Japanese)")
        expected = _fields(CATALOG[key].en)
        if set(args) != expected:
            raise ConfigError(f"catalog text {key!r} takes {sorted(expected)}, got {sorted(args)}")
        object.__setattr__(self, "key", key)
        object.__setattr__(self, "args", dict(args))

    def __hash__(self) -> int:
        return hash((self.key, tuple(sorted((k, repr(v)) for k, v in self.args.items()))))

    def render(self, lang: str) -> str:
        """The text in ``lang``, arguments filled in (messages among them rendered in ``lang`` too).

        A Japanese parenthetical that a template adds to an argument already ending in the same one
        is printed once (「float16 の autocast(スケーラなし)」 as the baseline of the scaler's row).

        Examples:
            >>> inner = Msg("label.autocast_no_scaler", dtype="float16")
            >>> Msg("label.scaler_overhead", variant=inner).render("ja")
            'float16 の autocast(スケーラなし)'
            >>> Msg("label.scaler_overhead", variant=Msg("label.autocast", dtype="bfloat16")).render("ja")
            'bfloat16 の autocast(スケーラなし)'
        """
        args = {name: render(value, lang) if isinstance(value, (Msg, list)) else value
                for name, value in self.args.items()}
        text = CATALOG[self.key].text(lang).format(**args)
        return _REPEATED_PARENTHETICAL.sub(r"\1", text) if lang == "ja" else text

    def to_json(self) -> dict[str, Any]:
        """``{"msg": key, "args": {...}}`` (nested messages likewise)."""
        return {"msg": self.key, "args": {k: to_json(v) for k, v in self.args.items()}}


def to_json(value: Any) -> Any:
    """The JSON form of a message, a list of them, or a plain value (kept as it is)."""
    if isinstance(value, Msg):
        return value.to_json()
    if isinstance(value, (list, tuple)):
        return [to_json(v) for v in value]
    return value


def from_json(value: Any) -> Any:
    """Turn the JSON form of a message back into a [Msg][benchmarks.catalog.Msg]; anything else as it is.

    Examples:
        >>> from_json({"msg": "label.batch", "args": {"batch": 1}}).render("ja")
        'バッチ 1'
        >>> from_json(3.5)
        3.5
    """
    if isinstance(value, dict) and set(value) == {"msg", "args"}:
        return Msg(value["msg"], **{k: from_json(v) for k, v in value["args"].items()})
    if isinstance(value, list):
        return [from_json(v) for v in value]
    return value


def render(value: Any, lang: str) -> str:
    """A message in ``lang``; a list of values joined with ``"; "`` (Japanese: 「、」); a plain row
    label of `PLAIN_LABELS` as its message; any other value as ``str``.

    Examples:
        >>> render(Msg("label.batch", batch=64), "en"), render("float32", "ja")
        ('batch 64', 'float32')
        >>> render([Msg("label.batch", batch=1), "float16"], "en")
        'batch 1; float16'
        >>> render(["tf32", "autocast bfloat16"], "ja")
        'tf32、bfloat16 の autocast'
    """
    value = from_json(value)
    if isinstance(value, list):
        return ("、" if lang == "ja" else "; ").join(render(v, lang) for v in value)
    if isinstance(value, str) and value in PLAIN_LABELS:
        value = Msg(PLAIN_LABELS[value])
    return value.render(lang) if isinstance(value, Msg) else str(value)


def english(value: Any) -> str:
    """``render(value, "en")``: the English text of a message (for logs, JSON keys and tests)."""
    return render(value, "en")
