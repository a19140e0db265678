/* The number explorer (docs/<lang>/storage/explorer.md): what PyTorch stores for a value in
 * float32, TF32, bfloat16, float16, float8 e4m3fn / e5m2 and int8, and what MX block scaling
 * (MXFP8, MXFP4) stores for a block of values.
 *
 * Loaded only by pages whose front matter says `number_explorer: true` (docs/overrides/main.html).
 * Plain JavaScript, no server and no network: it works from file:// in the offline edition.
 *
 * Rounding mirrors PyTorch 2.13 on the CPU, checked bit for bit by tests/test_site_explorer.py:
 *   - the reader's number (a JavaScript double) is rounded to float32 first (Math.fround), because
 *     PyTorch converts to every narrower float through float32, even from a float64 tensor:
 *     torch.tensor(x, dtype=torch.float64).to(torch.float16) and torch.tensor(x).to(torch.float16)
 *     give the same bits, double rounding included;
 *   - then to the target format, round to nearest, ties to even;
 *   - out of range: float16, bfloat16, TF32 and e5m2 overflow to inf; e4m3fn saturates to 448
 *     from torch 2.13 and gives NaN (for values that do not round to 448) up to 2.12;
 *   - int8 is torchao's quantize_affine (reference_impl.quantization.quantize_per_tensor):
 *     round(x * (1 / scale)) + zero_point in float32, ties to even, clamped to -128..127;
 *   - MX blocks are torchao's to_mx with its default scale (FLOOR): the E8M0 scale is
 *     2^(floor(log2(amax)) - emax of the element format).
 *
 * The pure functions are on window.numberExplorer for the test (encode, decode, quantizeInt8, mx,
 * parseExpression...). The interface's words, in both languages, are in MESSAGES below.
 */
(function () {
  "use strict";

  // ---------------------------------------------------------------------------------------------
  // Formats: field widths, bias, and what happens past the largest finite value.
  // ---------------------------------------------------------------------------------------------

  /** Each format: exponent and mantissa bits, bias; `overflow` is "inf", "nan" or "saturate". */
  const FORMATS = {
    float32: { label: "float32", exponent: 8, mantissa: 23, bias: 127, overflow: "inf" },
    tf32: { label: "TF32", exponent: 8, mantissa: 10, bias: 127, overflow: "inf" },
    bfloat16: { label: "bfloat16", exponent: 8, mantissa: 7, bias: 127, overflow: "inf" },
    float16: { label: "float16", exponent: 5, mantissa: 10, bias: 15, overflow: "inf" },
    // e4m3fn: no inf; only S.1111.111 is NaN, so the top binade holds 256..448.
    float8_e4m3fn: { label: "float8 e4m3fn", exponent: 4, mantissa: 3, bias: 7, max: 448, overflow: "saturate", nanCode: 0x7f },
    float8_e5m2: { label: "float8 e5m2", exponent: 5, mantissa: 2, bias: 15, overflow: "inf", nanCode: 0x7f },
    // MXFP4's element: no inf, no NaN; casts saturate to 6 (torchao's f32_to_f4_unpacked).
    float4_e2m1fn: { label: "float4 e2m1fn", exponent: 2, mantissa: 1, bias: 1, max: 6, overflow: "saturate" },
  };

  /** Formats the value explorer offers, in the order of the site's bit-layout figure. */
  const VALUE_FORMATS = ["float32", "tf32", "bfloat16", "float16", "float8_e4m3fn", "float8_e5m2"];

  /** Width in bits of a format's code. */
  function widthOf(name) {
    const f = FORMATS[name];
    return 1 + f.exponent + f.mantissa;
  }

  /** Largest finite magnitude of a format. */
  function maxFinite(name) {
    const f = FORMATS[name];
    if (f.max !== undefined) return f.max;
    const emax = (1 << f.exponent) - 2 - f.bias; // the all-ones exponent is inf/NaN
    return (2 - Math.pow(2, -f.mantissa)) * Math.pow(2, emax);
  }

  // ---------------------------------------------------------------------------------------------
  // float32 bits
  // ---------------------------------------------------------------------------------------------

  const scratch = new DataView(new ArrayBuffer(4));

  /** The float32 bit pattern (unsigned) of a number, after rounding it to float32. */
  function float32Bits(x) {
    scratch.setFloat32(0, x);
    return scratch.getUint32(0);
  }

  /** The number whose float32 bit pattern is `bits`. */
  function float32FromBits(bits) {
    scratch.setUint32(0, bits >>> 0);
    return scratch.getFloat32(0);
  }

  /** Round half to even (the rounding of torch.round and of every cast here). */
  function roundHalfEven(x) {
    const down = Math.floor(x);
    const diff = x - down;
    if (diff > 0.5) return down + 1;
    if (diff < 0.5) return down;
    return down % 2 === 0 ? down : down + 1;
  }

  // ---------------------------------------------------------------------------------------------
  // Encoding a value: float32 first, then the target format, round to nearest even.
  // ---------------------------------------------------------------------------------------------

  /**
   * The code PyTorch stores for `value` in format `name` (an unsigned integer of widthOf(name)
   * bits; TF32's 19 bits are float32's top 19). `options.saturate` (e4m3fn only) chooses the
   * out-of-range behaviour: true as torch 2.13 casts, false as torch 2.12 and older.
   */
  function encode(name, value, options) {
    const f = FORMATS[name];
    if (!f) throw new Error("unknown format: " + name);
    const saturate = f.overflow === "saturate" && !(options && options.saturate === false);
    const width = widthOf(name);
    const signBit = Math.pow(2, width - 1);
    const bits32 = float32Bits(value);
    if (name === "float32") return Number.isNaN(value) ? 0x7fc00000 : bits32;
    const negative = bits32 >>> 31 === 1;
    const sign = negative ? signBit : 0;
    const magnitude = Math.abs(float32FromBits(bits32)); // exactly the float32 value
    const allOnesExponent = ((1 << f.exponent) - 1) << f.mantissa;

    if (Number.isNaN(value)) return nanCode(name);
    let rounded = Infinity;
    if (magnitude !== Infinity) {
      // The quantum (unit in the last place) of the binade the value falls in; below the smallest
      // normal number the quantum stays that of the subnormals.
      const emin = 1 - f.bias;
      const exponent = Math.max(binadeOf(magnitude), emin);
      const quantum = Math.pow(2, exponent - f.mantissa);
      rounded = roundHalfEven(magnitude / quantum) * quantum; // exact in a double
    }
    if (rounded > maxFinite(name)) {
      if (saturate) return sign | codeOfMagnitude(name, maxFinite(name));
      if (f.overflow === "inf") return sign | allOnesExponent;
      return sign | f.nanCode; // e4m3fn as torch 2.12 and older cast: NaN
    }
    return sign | codeOfMagnitude(name, rounded);
  }

  /** The NaN code PyTorch writes for a float32 NaN (the canonical, positive one). */
  function nanCode(name) {
    switch (name) {
      case "tf32": return 0x7fc00000 >>> 13; // float32's quiet NaN, low 13 bits dropped
      case "bfloat16": return 0x7fc0;
      case "float16": return 0x7e00;
      case "float8_e4m3fn":
      case "float8_e5m2": return 0x7f; // S.1111.111 in both (PyTorch's choice for e5m2 too)
      default: return 0;
    }
  }

  /** floor(log2(x)) for a positive finite double, exactly (Math.log2 can be off by one). */
  function binadeOf(x) {
    let e = Math.floor(Math.log2(x));
    if (Math.pow(2, e) > x) e -= 1;
    else if (Math.pow(2, e + 1) <= x) e += 1;
    return e;
  }

  /** The code of a representable, finite magnitude (no sign). */
  function codeOfMagnitude(name, magnitude) {
    const f = FORMATS[name];
    if (magnitude === 0) return 0;
    const emin = 1 - f.bias;
    const e = binadeOf(magnitude);
    if (e < emin) return magnitude / Math.pow(2, emin - f.mantissa); // subnormal: the count of quanta
    const fraction = magnitude / Math.pow(2, e) - 1; // in [0, 1)
    return ((e + f.bias) * Math.pow(2, f.mantissa)) + fraction * Math.pow(2, f.mantissa);
  }

  /** The value of a code of format `name` (NaN, ±inf included). */
  function decode(name, code) {
    const f = FORMATS[name];
    if (name === "float32") return float32FromBits(code);
    if (name === "tf32") return float32FromBits(code * 8192);
    const width = widthOf(name);
    const signBit = Math.pow(2, width - 1);
    const negative = code >= signBit;
    const magnitudeCode = negative ? code - signBit : code;
    const field = Math.floor(magnitudeCode / Math.pow(2, f.mantissa));
    const mantissa = magnitudeCode % Math.pow(2, f.mantissa);
    let value;
    const allOnes = (1 << f.exponent) - 1;
    if (f.nanCode !== undefined && f.overflow === "saturate" && magnitudeCode === f.nanCode) value = NaN;
    else if (f.overflow === "inf" && field === allOnes) value = mantissa === 0 ? Infinity : NaN;
    else if (field === 0) value = mantissa * Math.pow(2, 1 - f.bias - f.mantissa);
    else value = (1 + mantissa / Math.pow(2, f.mantissa)) * Math.pow(2, field - f.bias);
    return negative ? -value : value;
  }

  /** Whether a code holds a subnormal number (exponent field 0, mantissa not 0). */
  function isSubnormal(name, code) {
    const f = FORMATS[name];
    const magnitudeCode = code % Math.pow(2, widthOf(name) - 1);
    return magnitudeCode !== 0 && magnitudeCode < Math.pow(2, f.mantissa);
  }

  /** The representable values just below and just above a stored code (null past the ends). */
  function neighbours(name, code) {
    const width = widthOf(name);
    const signBit = Math.pow(2, width - 1);
    const value = decode(name, code);
    if (Number.isNaN(value)) return { below: null, above: null };
    const magnitudeCode = code % signBit;
    const negative = code >= signBit;
    const finite = (c) => {
      const v = decode(name, c);
      return Number.isFinite(v) ? v : null;
    };
    if (magnitudeCode === 0) return { below: -decode(name, 1), above: decode(name, 1) }; // ±0
    // Along the magnitude: one code up is larger (null past the largest finite value), one down smaller.
    const larger = Math.abs(value) === Infinity ? null : finite(magnitudeCode + 1);
    const smaller = Math.abs(value) === Infinity ? maxFinite(name) : decode(name, magnitudeCode - 1);
    return negative
      ? { below: larger === null ? null : -larger, above: -smaller }
      : { below: smaller, above: larger };
  }

  // ---------------------------------------------------------------------------------------------
  // int8 affine quantization (torchao's quantize_affine, in float32 arithmetic)
  // ---------------------------------------------------------------------------------------------

  /** The int8 code of `value` for `scale` and `zeroPoint`: clamp(round(x * (1/scale)) + zp). */
  function quantizeInt8(value, scale, zeroPoint) {
    const x = Math.fround(value);
    const inverse = Math.fround(1 / Math.fround(scale)); // float32 division, as torch computes 1/scale
    const code = roundHalfEven(Math.fround(x * inverse)) + zeroPoint;
    return Math.min(127, Math.max(-128, code));
  }

  /** The float32 value of an int8 code: scale * (q - zero_point). */
  function dequantizeInt8(code, scale, zeroPoint) {
    return Math.fround((code - zeroPoint) * Math.fround(scale));
  }

  // ---------------------------------------------------------------------------------------------
  // Block scaling: per tensor, per row (float8 e4m3fn, amax / 448) and MX per 32 values.
  // ---------------------------------------------------------------------------------------------

  /** emax of the MX element formats: floor(log2(largest value)) (torchao's *_MAX_POW2). */
  const MX_ELEMENTS = { mxfp8: { format: "float8_e4m3fn", emax: 8 }, mxfp4: { format: "float4_e2m1fn", emax: 2 } };

  /**
   * MX quantization of one block (torchao's to_mx, scale FLOOR): returns the biased E8M0 scale
   * code, the scale, each element's code in the element format and each stored value.
   */
  function mxBlock(kind, values) {
    const element = MX_ELEMENTS[kind];
    const xs = values.map((v) => Math.fround(v));
    const amax = xs.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    const amaxExponent = ((float32Bits(amax) >>> 23) & 0xff) - 127; // float32 exponent field, unbiased
    const unbiased = Math.min(128, Math.max(-127, amaxExponent - element.emax));
    const scaleCode = unbiased + 127;
    // torchao clamps the scale to float32's smallest normal number (2^-126) for scale code 0.
    const scale = Math.max(Math.pow(2, scaleCode - 127), Math.pow(2, -126));
    const max = maxFinite(element.format);
    const codes = xs.map((x) => {
      const scaled = Math.fround(x / scale); // float32 division by a power of two
      return encode(element.format, Math.min(max, Math.max(-max, scaled)), { saturate: true });
    });
    const stored = codes.map((c) => decode(element.format, c) * scale);
    return { scaleCode, scale, elementFormat: element.format, codes, stored };
  }

  /** MX over a whole list, in blocks of `blockSize` (the last one may be shorter). */
  function mx(kind, values, blockSize) {
    const size = blockSize || 32;
    const blocks = [];
    for (let i = 0; i < values.length; i += size) blocks.push(mxBlock(kind, values.slice(i, i + size)));
    return blocks;
  }

  /** float8 e4m3fn with one float32 scale = amax / 448 for the values given (a tensor or a row). */
  function float8Scaled(values) {
    const xs = values.map((v) => Math.fround(v));
    const amax = xs.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
    // torchao's amax_to_scale: scale = 448 / amax in float32 (amax clamped away from 0); x * scale
    const scale = Math.fround(448 / Math.max(amax, 1e-12));
    const codes = xs.map((x) => encode("float8_e4m3fn", Math.min(448, Math.max(-448, Math.fround(x * scale)))));
    const stored = codes.map((c) => Math.fround(decode("float8_e4m3fn", c) / scale));
    return { scale: Math.fround(1 / scale), multiplier: scale, codes, stored };
  }

  /** Error of stored values against the float32 inputs: largest absolute and relative RMS error. */
  function blockError(values, stored) {
    let maxAbs = 0, sq = 0, ref = 0;
    values.forEach((v, i) => {
      const x = Math.fround(v), d = stored[i] - x;
      maxAbs = Math.max(maxAbs, Math.abs(d));
      sq += d * d;
      ref += x * x;
    });
    return { maxAbs, relativeRms: ref === 0 ? 0 : Math.sqrt(sq / ref) };
  }

  // ---------------------------------------------------------------------------------------------
  // A safe arithmetic parser (never eval): numbers, + - * / ^ **, parentheses, inf, nan.
  // ---------------------------------------------------------------------------------------------

  /** Evaluate an arithmetic expression such as `1/3`, `2^-24`, `-(65504 + 16)`; throws on anything else. */
  function parseExpression(text) {
    const tokens = text.match(/\s*(\d+\.?\d*(?:e[+-]?\d+)?|\.\d+(?:e[+-]?\d+)?|\*\*|[-+*/^()]|inf(?:inity)?|nan|\S)/gi) || [];
    let i = 0;
    const peek = () => (i < tokens.length ? tokens[i].trim().toLowerCase() : null);
    const next = () => tokens[i++].trim().toLowerCase();
    const fail = (what) => { const e = new Error(what); e.syntax = true; throw e; };

    function sum() {
      let v = product();
      while (peek() === "+" || peek() === "-") v = next() === "+" ? v + product() : v - product();
      return v;
    }
    function product() {
      let v = unary();
      while (peek() === "*" || peek() === "/") v = next() === "*" ? v * unary() : v / unary();
      return v;
    }
    function unary() {
      if (peek() === "-") { next(); return -unary(); }
      if (peek() === "+") { next(); return unary(); }
      return power();
    }
    function power() {
      const base = atom();
      if (peek() === "^" || peek() === "**") { next(); return Math.pow(base, unary()); }
      return base;
    }
    function atom() {
      const t = peek();
      if (t === null) fail("end");
      next();
      if (t === "(") {
        const v = sum();
        if (peek() !== ")") fail(")");
        next();
        return v;
      }
      if (t === "inf" || t === "infinity") return Infinity;
      if (t === "nan") return NaN;
      if (/^(\d|\.\d)/.test(t)) return Number(t);
      return fail(t);
    }
    if (tokens.length === 0 || text.trim() === "") fail("empty");
    const value = sum();
    if (i !== tokens.length) fail(peek());
    return value;
  }

  /** Several expressions separated by commas, semicolons or new lines (at most `limit`). */
  function parseList(text, limit) {
    const parts = text.split(/[,;\n]+/).map((s) => s.trim()).filter((s) => s !== "");
    if (limit && parts.length > limit) {
      const e = new Error("too many");
      e.tooMany = true;
      throw e;
    }
    return parts.map((p) => ({ text: p, value: parseExpression(p) }));
  }

  const api = {
    FORMATS, VALUE_FORMATS, widthOf, maxFinite, float32Bits, encode, decode, isSubnormal, neighbours,
    quantizeInt8, dequantizeInt8, mxBlock, mx, float8Scaled, blockError, parseExpression, parseList,
    /** encode over an array in one call (the test's page.evaluate). */
    encodeMany: (name, values, options) => values.map((v) => encode(name, v, options)),
  };
  window.numberExplorer = api;

  // ---------------------------------------------------------------------------------------------
  // The interface's words, both languages in one place.
  // ---------------------------------------------------------------------------------------------

  const MESSAGES = {
    en: {
      valueLabel: "Values or expressions (comma or new line between them; + − × / ^ and parentheses)",
      formatsLegend: "Formats",
      int8: "int8 (affine)",
      scale: "int8 scale",
      zeroPoint: "int8 zero point",
      torchLegend: "float8 e4m3fn out of range, as cast by",
      torch213: "torch 2.13 and later (saturates to ±448)",
      torch212: "torch 2.12 and earlier (NaN)",
      show: "Show",
      caption: (text, v) => `${text} = ${fmt(v)} (float32: ${fmt(Math.fround(v))})`,
      headers: ["Format", "Bits (sign, exponent, mantissa)", "Stored value", "Absolute error", "Relative error", "Neighbours (below, above)", "Notes"],
      subnormal: "subnormal",
      overflowInf: "out of range: inf",
      overflowNan: "out of range: NaN (torch 2.12 and earlier)",
      saturated: "out of range: saturated to the largest finite value (torch 2.13 and later)",
      clamped: "out of range: clamped to the int8 range",
      sign: "sign", exponent: "exponent", mantissa: "mantissa", integer: "two's complement",
      none: "none",
      errorSyntax: (t) => `Could not read “${t}”: use numbers, + - * / ^, parentheses, inf or nan.`,
      errorTooMany: (n) => `At most ${n} values at once.`,
      errorScale: "The scale must be a positive finite number and the zero point an integer from −128 to 127.",
      errorBlock: "Enter finite numbers only (a block cannot hold NaN or inf).",
      summary: (n) => `Showing ${n} value(s).`,
      blockLabel: "Block values (rows on separate lines; commas or spaces between values)",
      blockPreset: "Fill with",
      presetNormal: "32 values from a normal distribution",
      presetOutlier: "the same, with one outlier (×100)",
      blockShow: "Quantize",
      blockHeaders: ["#", "float32", "Per tensor (e4m3fn)", "Per row (e4m3fn)", "MXFP8 (e4m3fn)", "MXFP4 (e2m1)"],
      schemeHeaders: ["Scheme", "Scale chosen", "Largest absolute error", "Relative RMS error"],
      perTensor: "per tensor, float32 scale = amax / 448",
      perRow: (r) => `per row ${r + 1}, float32 scale = amax / 448`,
      perBlock: (k, b) => `${k} block ${b + 1}, E8M0 scale`,
      blockSummary: (n, r) => `Quantized ${n} value(s) in ${r} row(s).`,
      errorsCaption: "Scales and the error against float32",
      elementsCaption: "Each element as stored (dequantized)",
    },
    ja: {
      valueLabel: "値または式(複数ならカンマか改行で区切る。+ − × / ^ と括弧が使える)",
      formatsLegend: "形式",
      int8: "int8(アフィン)",
      scale: "int8 のスケール",
      zeroPoint: "int8 のゼロ点",
      torchLegend: "float8 e4m3fn で範囲外の値のキャスト",
      torch213: "torch 2.13 以降(±448 に飽和)",
      torch212: "torch 2.12 以前(NaN)",
      show: "表示",
      caption: (text, v) => `${text} = ${fmt(v)}(float32 では ${fmt(Math.fround(v))})`,
      headers: ["形式", "ビット(符号、指数、仮数)", "格納される値", "絶対誤差", "相対誤差", "隣の値(下、上)", "備考"],
      subnormal: "非正規化数",
      overflowInf: "範囲外: inf",
      overflowNan: "範囲外: NaN(torch 2.12 以前)",
      saturated: "範囲外: 最大の有限値に飽和(torch 2.13 以降)",
      clamped: "範囲外: int8 の範囲にクランプ",
      sign: "符号", exponent: "指数", mantissa: "仮数", integer: "2 の補数",
      none: "なし",
      errorSyntax: (t) => `「${t}」を読めません。数、+ - * / ^、括弧、inf、nan を使ってください。`,
      errorTooMany: (n) => `一度に入力できる値は ${n} 個までです。`,
      errorScale: "スケールは正の有限の数、ゼロ点は −128 から 127 の整数にしてください。",
      errorBlock: "有限の数だけを入力してください(ブロックに NaN や inf は入れられません)。",
      summary: (n) => `${n} 個の値を表示しています。`,
      blockLabel: "ブロックの値(行は改行で、値はカンマか空白で区切る)",
      blockPreset: "値の例",
      presetNormal: "正規分布の 32 個の値",
      presetOutlier: "同じ値に外れ値を 1 個(100 倍)",
      blockShow: "量子化",
      blockHeaders: ["#", "float32", "テンソル単位(e4m3fn)", "行単位(e4m3fn)", "MXFP8(e4m3fn)", "MXFP4(e2m1)"],
      schemeHeaders: ["方式", "選ばれたスケール", "最大の絶対誤差", "相対 RMS 誤差"],
      perTensor: "テンソル単位、float32 のスケール = amax / 448",
      perRow: (r) => `${r + 1} 行目、float32 のスケール = amax / 448`,
      perBlock: (k, b) => `${k} の ${b + 1} 番目のブロック、E8M0 のスケール`,
      blockSummary: (n, r) => `${r} 行 ${n} 個の値を量子化しました。`,
      errorsCaption: "スケールと、float32 に対する誤差",
      elementsCaption: "各要素の格納される値(逆量子化した値)",
    },
  };

  const MAX_VALUES = 16;
  const MAX_BLOCK_VALUES = 256;

  /** A number as a reader reads it: up to 9 significant digits, exact small integers. */
  function fmt(v) {
    if (v === null || v === undefined) return "—";
    if (Number.isNaN(v)) return "NaN";
    if (v === Infinity) return "inf";
    if (v === -Infinity) return "-inf";
    if (v === 0) return Object.is(v, -0) ? "-0" : "0";
    if (Number.isInteger(v) && Math.abs(v) < 1e9) return String(v);
    return Number(v.toPrecision(9)).toString();
  }

  // ---------------------------------------------------------------------------------------------
  // The page: forms built into each div.number-explorer / div.block-explorer.
  // ---------------------------------------------------------------------------------------------

  function el(tag, attrs, children) {
    const node = document.createElement(tag);
    Object.entries(attrs || {}).forEach(([k, v]) => {
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    });
    (children || []).forEach((c) => node.append(c));
    return node;
  }

  /** The bits of a code as coloured spans: sign, exponent, mantissa (int8: one group). */
  function bitsCell(name, code, t) {
    const wrap = el("span", { class: "nx-bits" });
    if (name === "int8") {
      const bits = ((code + 256) % 256).toString(2).padStart(8, "0");
      wrap.append(el("span", { class: "nx-int", title: t.integer, text: bits }));
      return wrap;
    }
    const f = FORMATS[name];
    const bits = code.toString(2).padStart(widthOf(name), "0");
    const parts = [["nx-sign", t.sign, bits.slice(0, 1)], ["nx-exp", t.exponent, bits.slice(1, 1 + f.exponent)],
      ["nx-man", t.mantissa, bits.slice(1 + f.exponent)]];
    parts.forEach(([cls, title, text]) => wrap.append(el("span", { class: cls, title, text })));
    return wrap;
  }

  /** An error, to 3 significant digits (the stored values keep 9). */
  function fmtError(v) {
    return v === 0 ? "0" : Number(v.toPrecision(3)).toString();
  }

  function errors(x, stored) {
    if (!Number.isFinite(stored) || !Number.isFinite(x)) return ["—", "—"];
    const abs = Math.abs(stored - x);
    return [fmtError(abs), x === 0 ? (abs === 0 ? "0" : "—") : fmtError(abs / Math.abs(x))];
  }

  /** One table row per format for one value. */
  function valueRows(value, selected, settings, t) {
    const rows = [];
    selected.forEach((name) => {
      if (name === "int8") {
        const q = quantizeInt8(value, settings.scale, settings.zeroPoint);
        const stored = dequantizeInt8(q, settings.scale, settings.zeroPoint);
        const exact = Math.fround(value) * (1 / Math.fround(settings.scale)) + settings.zeroPoint;
        const notes = exact > 127.5 || exact < -128.5 ? t.clamped : "";
        const below = q > -128 ? dequantizeInt8(q - 1, settings.scale, settings.zeroPoint) : null;
        const above = q < 127 ? dequantizeInt8(q + 1, settings.scale, settings.zeroPoint) : null;
        rows.push([t.int8, bitsCell("int8", q, t), fmt(stored), ...errors(Math.fround(value), stored),
          `${fmt(below)}, ${fmt(above)}`, notes || "—"]);
        return;
      }
      const options = { saturate: settings.saturate };
      const code = encode(name, value, options);
      const stored = decode(name, code);
      const x = Math.fround(value);
      const n = neighbours(name, code);
      const notes = [];
      if (isSubnormal(name, code)) notes.push(t.subnormal);
      if (Number.isFinite(x) && Math.abs(x) > maxFinite(name) && !Number.isFinite(stored)) {
        notes.push(Number.isNaN(stored) ? t.overflowNan : t.overflowInf);
      } else if (Number.isFinite(x) && Number.isFinite(stored) && Math.abs(stored) === maxFinite(name)
        && Math.abs(x) > maxFinite(name) && FORMATS[name].overflow === "saturate") {
        notes.push(t.saturated);
      } else if (!Number.isFinite(x) && !Number.isNaN(x) && Number.isFinite(stored)) {
        notes.push(t.saturated);
      }
      // float32 is the reference: its error is the one against the reader's double.
      const [absErr, relErr] = errors(name === "float32" ? value : x, stored);
      rows.push([FORMATS[name].label, bitsCell(name, code, t), fmt(stored), absErr, relErr,
        `${fmt(n.below)}, ${fmt(n.above)}`, notes.join("; ") || "—"]);
    });
    return rows;
  }

  function table(caption, headers, rows) {
    const head = el("tr", {}, headers.map((h) => el("th", { scope: "col", text: h })));
    const body = rows.map((r) => el("tr", {}, r.map((c, i) => {
      const cell = el(i === 0 ? "th" : "td", i === 0 ? { scope: "row", "data-label": headers[i] } : { "data-label": headers[i] });
      cell.append(c);
      return cell;
    })));
    // A wide table scrolls inside this region, which keyboard users can focus and scroll (axe:
    // scrollable-region-focusable); its name is the table's caption.
    return el("div", { class: "nx-scroll", tabindex: "0", role: "region", "aria-label": caption }, [el("table", { class: "nx-table" },
      [el("caption", { text: caption }), el("thead", {}, [head]), el("tbody", {}, body)])]);
  }

  function messagesFor(root) {
    const lang = (root.closest("[lang]") || document.documentElement).getAttribute("lang") || "en";
    return MESSAGES[lang.slice(0, 2)] || MESSAGES.en;
  }

  let uid = 0;

  /** The value explorer: an expression field, format checkboxes, settings, a live result. */
  function buildValueExplorer(root) {
    const t = messagesFor(root);
    const n = uid++; // this explorer's number, fixed now: ids and the radio group's name use it
    const id = (s) => `nx${n}-${s}`;
    const input = el("input", { id: id("value"), type: "text", value: root.dataset.value || "1/3, 65519", autocomplete: "off", spellcheck: "false" });
    const boxes = [...VALUE_FORMATS, "int8"].map((name) => {
      const box = el("input", { type: "checkbox", id: id(name), value: name });
      box.checked = true;
      return el("label", { class: "nx-check", for: id(name) }, [box, " ", name === "int8" ? t.int8 : FORMATS[name].label]);
    });
    const scale = el("input", { id: id("scale"), type: "text", value: "0.05", inputmode: "decimal" });
    const zero = el("input", { id: id("zp"), type: "number", value: "0", min: "-128", max: "127", step: "1" });
    const radio = (value, text, checked) => {
      const r = el("input", { type: "radio", name: id("torch"), id: id("torch" + value), value });
      r.checked = checked;
      return el("label", { class: "nx-check", for: id("torch" + value) }, [r, " ", text]);
    };
    const status = el("p", { class: "nx-status", role: "status", "aria-live": "polite" });
    const output = el("div", { class: "nx-output" });
    const form = el("form", { class: "nx-form" }, [
      el("label", { for: id("value"), text: t.valueLabel }), input,
      el("fieldset", {}, [el("legend", { text: t.formatsLegend }), ...boxes]),
      el("div", { class: "nx-row" }, [
        el("span", {}, [el("label", { for: id("scale"), text: t.scale }), scale]),
        el("span", {}, [el("label", { for: id("zp"), text: t.zeroPoint }), zero])]),
      el("fieldset", {}, [el("legend", { text: t.torchLegend }), radio("2.13", t.torch213, true), radio("2.12", t.torch212, false)]),
      el("button", { type: "submit", class: "md-button md-button--primary", text: t.show }),
    ]);

    function render() {
      output.replaceChildren();
      const selected = boxes.map((l) => l.querySelector("input")).filter((b) => b.checked).map((b) => b.value);
      const settings = {
        scale: Number(scale.value), zeroPoint: Number(zero.value),
        saturate: form.querySelector(`input[name="${id("torch")}"]:checked`).value === "2.13",
      };
      let values;
      try {
        values = parseList(input.value, MAX_VALUES);
      } catch (e) {
        status.textContent = e.tooMany ? t.errorTooMany(MAX_VALUES) : t.errorSyntax(input.value.trim());
        input.setAttribute("aria-invalid", "true");
        return;
      }
      input.removeAttribute("aria-invalid");
      if (selected.includes("int8") && (!(settings.scale > 0) || !Number.isFinite(settings.scale)
        || !Number.isInteger(settings.zeroPoint) || settings.zeroPoint < -128 || settings.zeroPoint > 127)) {
        status.textContent = t.errorScale;
        return;
      }
      values.forEach(({ text, value }) => {
        output.append(table(t.caption(text, value), t.headers, valueRows(value, selected, settings, t)));
      });
      status.textContent = t.summary(values.length);
    }
    form.addEventListener("submit", (e) => { e.preventDefault(); render(); });
    form.addEventListener("change", render);
    root.replaceChildren(form, status, output);
    render();
  }

  /** 32 values from a seeded normal distribution (the same every time), optionally one outlier. */
  function presetBlock(outlier) {
    let seed = 12345;
    const uniform = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return (seed + 0.5) / 2147483648; };
    const values = [];
    for (let i = 0; i < 32; i++) {
      const g = Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
      values.push(Number(g.toFixed(4)));
    }
    if (outlier) values[7] = Number((values[7] * 100).toFixed(2));
    return values.join(", ");
  }

  /** The block explorer: rows of values; per-tensor, per-row and MX scales; each element stored. */
  function buildBlockExplorer(root) {
    const t = messagesFor(root);
    const n = uid++; // this explorer's number, fixed now: ids and the radio group's name use it
    const id = (s) => `nx${n}-${s}`;
    const area = el("textarea", { id: id("block"), rows: "4", spellcheck: "false" });
    area.value = presetBlock(true);
    const preset = el("select", { id: id("preset") }, [
      el("option", { value: "outlier", text: t.presetOutlier }), el("option", { value: "normal", text: t.presetNormal })]);
    const status = el("p", { class: "nx-status", role: "status", "aria-live": "polite" });
    const output = el("div", { class: "nx-output" });
    const form = el("form", { class: "nx-form" }, [
      el("label", { for: id("block"), text: t.blockLabel }), area,
      el("div", { class: "nx-row" }, [el("span", {}, [el("label", { for: id("preset"), text: t.blockPreset }), preset])]),
      el("button", { type: "submit", class: "md-button md-button--primary", text: t.blockShow }),
    ]);

    function render() {
      output.replaceChildren();
      let rows;
      try {
        rows = area.value.split("\n").map((line) => line.split(/[,;\s]+/).filter((s) => s !== "").map(parseExpression))
          .filter((r) => r.length > 0);
      } catch (e) {
        status.textContent = t.errorSyntax(area.value.trim().slice(0, 40));
        area.setAttribute("aria-invalid", "true");
        return;
      }
      const flat = rows.flat();
      if (flat.length === 0 || flat.some((v) => !Number.isFinite(v))) {
        status.textContent = t.errorBlock;
        area.setAttribute("aria-invalid", "true");
        return;
      }
      if (flat.length > MAX_BLOCK_VALUES) {
        status.textContent = t.errorTooMany(MAX_BLOCK_VALUES);
        return;
      }
      area.removeAttribute("aria-invalid");
      const tensor = float8Scaled(flat);
      const perRow = rows.map((r) => float8Scaled(r));
      const rowStored = perRow.flatMap((r) => r.stored);
      const mxRows = { mxfp8: rows.map((r) => mx("mxfp8", r)), mxfp4: rows.map((r) => mx("mxfp4", r)) };
      const mxStored = (k) => mxRows[k].flatMap((blocks) => blocks.flatMap((b) => b.stored));
      const summaryRows = [
        [t.perTensor, fmt(tensor.scale), flat, tensor.stored],
        ...perRow.map((r, i) => [t.perRow(i), fmt(r.scale), rows[i], r.stored]),
      ];
      ["mxfp8", "mxfp4"].forEach((k) => {
        let n = 0;
        mxRows[k].forEach((blocks, ri) => {
          let offset = 0;
          blocks.forEach((b) => {
            const part = rows[ri].slice(offset, offset + b.stored.length);
            offset += b.stored.length;
            summaryRows.push([t.perBlock(k.toUpperCase(), n), `2^${b.scaleCode - 127} (E8M0 ${b.scaleCode})`, part, b.stored]);
            n += 1;
          });
        });
      });
      const errorRows = summaryRows.map(([name, s, xs, st]) => {
        const e = blockError(xs, st);
        return [name, s, fmtError(e.maxAbs), fmtError(e.relativeRms)];
      });
      output.append(table(t.errorsCaption, t.schemeHeaders, errorRows));
      const m8 = mxStored("mxfp8"), m4 = mxStored("mxfp4");
      const elementRows = flat.map((v, i) => [String(i + 1), fmt(Math.fround(v)), fmt(tensor.stored[i]),
        fmt(rowStored[i]), fmt(m8[i]), fmt(m4[i])]);
      output.append(table(t.elementsCaption, t.blockHeaders, elementRows));
      status.textContent = t.blockSummary(flat.length, rows.length);
    }
    preset.addEventListener("change", () => { area.value = presetBlock(preset.value === "outlier"); render(); });
    form.addEventListener("submit", (e) => { e.preventDefault(); render(); });
    root.replaceChildren(form, status, output);
    render();
  }

  function start() {
    document.querySelectorAll("div.number-explorer").forEach(buildValueExplorer);
    document.querySelectorAll("div.block-explorer").forEach(buildBlockExplorer);
  }
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
