"""The number explorer (docs/*/storage/explorer.md, docs/overrides/assets/number-explorer.js) stores
what PyTorch stores, bit for bit, and can be used by keyboard, with a screen reader and on a phone.

The explorer's pure functions are on ``window.numberExplorer``; each check calls one of them over a
whole array of values in a single ``page.evaluate`` and compares the codes with:

* ``torch`` casts from a float64 tensor (``torch.tensor(values, dtype=torch.float64).to(dtype)``),
  which PyTorch rounds through float32 exactly as ``torch.tensor(values).to(dtype)`` does (asserted
  here too: the page says the explorer mirrors both);
* ``reference_impl.storage`` (float16, bfloat16, float8 with and without saturation, TF32 with ties
  to even: TF32 and the pre-2.13 e4m3fn have no torch cast to compare with on this CPU);
* torchao's MX emulation (``to_mx``, its default FLOOR scale) for MXFP8 and MXFP4 blocks, torchao's
  ``amax_to_scale`` for the per-tensor float8 scale, and ``reference_impl.quantization`` (bit for
  bit like torchao's ``quantize_affine``) for int8.

NaN is compared bit for bit with ``reference_impl`` and as "NaN" with torch for bfloat16 only:
torch 2.13 writes 0xFFFF for a float32 NaN cast to bfloat16 (0x7FC0 from a single float64), a
difference reference_impl.storage.rounding documents.
"""

from __future__ import annotations

import math
import random
import struct

import pytest
import torch

from reference_impl.quantization import quantize_per_tensor
from reference_impl.storage import (
    float32_to_bfloat16_bits,
    float32_to_float8_bits,
    float32_to_float16_bits,
    float32_to_tf32,
)
from tests.support.site_fixtures import Watched

pytestmark = [pytest.mark.site]

PAGE = "storage/explorer/"
AXE_RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]


def _f32(pattern: int) -> float:
    return struct.unpack(">f", struct.pack(">I", pattern))[0]


def _codes(dtype: torch.dtype, codes: list[int]) -> list[float]:
    """The values of ``codes`` (unsigned patterns) of a float8/16-bit dtype, as Python floats."""
    width = torch.finfo(dtype).bits
    signed = [c - (1 << width) if width == 16 and c >= 1 << 15 else c for c in codes]
    storage = torch.uint8 if width == 8 else torch.int16
    return torch.tensor(signed, dtype=torch.int32).to(storage).view(dtype).double().tolist()


def explorer_values(seed: int = 20261129) -> list[float]:
    """A few thousand values per format: special values, random float32 patterns, log-uniform values,
    every float8 value and tie, sampled float16/bfloat16 values and ties (with values 2**-40 relative
    off each tie: float64 inputs that float32 rounds onto the tie), and TF32 ties."""
    rng = random.Random(seed)
    values = [0.0, -0.0, math.inf, -math.inf, math.nan, 1.0, -1.0, 1 / 3, 65504.0, 65519.0, 65520.0, 448.0, 464.0,
              465.0, 480.0, 57344.0, 61440.0, 61439.0, 3.4028234663852886e38, 3.4e38, 1e39, -1e39, 1e-50, 2.0**-149,
              2.0**-150, 1.5 * 2.0**-149, 2.0**-24, 2.0**-25, 2.0**-10, 2.0**-17, 2.0**-18, 1e6, -1e6, 1.23]
    while len(values) < 1200:
        pattern = rng.getrandbits(32)
        if (pattern >> 23) & 0xFF != 0xFF:
            values.append(_f32(pattern))
    values += [rng.choice([-1, 1]) * 2.0 ** rng.uniform(-30, 20) for _ in range(1200)]
    for dtype, count in [(torch.float8_e4m3fn, 256), (torch.float8_e5m2, 256), (torch.float16, 65536), (torch.bfloat16, 65536)]:
        codes = list(range(count)) if count == 256 else rng.sample(range(count), 400)
        here, after = _codes(dtype, codes), _codes(dtype, [(c + 1) % count for c in codes])
        for a, b in zip(here, after):
            if math.isfinite(a):
                values += [a, math.nextafter(a, math.inf)]
            if math.isfinite(a) and math.isfinite(b) and (a >= 0) == (b >= 0):
                tie = (a + b) / 2
                values += [tie, tie + abs(tie) * 2**-40, tie - abs(tie) * 2**-40]
    for _ in range(300):  # TF32 ties: low 13 bits exactly 0x1000
        pattern = (rng.getrandbits(32) & ~0x1FFF) | 0x1000
        if (pattern >> 23) & 0xFF != 0xFF:
            values.append(_f32(pattern))
    return values


VALUES = explorer_values()


def _unsigned(t: torch.Tensor, width: int) -> list[int]:
    return [v & ((1 << width) - 1) for v in t.tolist()]


def expected_codes() -> dict[str, dict[str, list[int]]]:
    """format -> {source: codes} for VALUES."""
    x64 = torch.tensor(VALUES, dtype=torch.float64)
    x32 = torch.tensor(VALUES)  # what torch.tensor(x) makes: float32

    def cast(x, dtype, width):
        return _unsigned(x.to(dtype).view({8: torch.uint8, 16: torch.int16}[width]), width)

    return {
        "float32": {"torch": _unsigned(x32.view(torch.int32), 32)},
        "tf32": {"reference_impl": [v >> 13 for v in _unsigned(float32_to_tf32(x32, rounding="nearest_even").view(torch.int32), 32)]},
        "bfloat16": {"torch": cast(x64, torch.bfloat16, 16), "torch from float32": cast(x32, torch.bfloat16, 16),
                     "reference_impl": _unsigned(float32_to_bfloat16_bits(x32), 16)},
        "float16": {"torch": cast(x64, torch.float16, 16), "torch from float32": cast(x32, torch.float16, 16),
                    "reference_impl": _unsigned(float32_to_float16_bits(x32), 16)},
        "float8_e4m3fn": {"torch": cast(x64, torch.float8_e4m3fn, 8), "torch from float32": cast(x32, torch.float8_e4m3fn, 8),
                          "reference_impl": float32_to_float8_bits(x32, torch.float8_e4m3fn, saturate=True).tolist()},
        "float8_e4m3fn (torch 2.12)": {
            "reference_impl": float32_to_float8_bits(x32, torch.float8_e4m3fn, saturate=False).tolist()},
        "float8_e5m2": {"torch": cast(x64, torch.float8_e5m2, 8), "torch from float32": cast(x32, torch.float8_e5m2, 8),
                        "reference_impl": float32_to_float8_bits(x32, torch.float8_e5m2, saturate=False).tolist()},
    }


ENCODE_ALL = """(values) => {
  const nx = window.numberExplorer;
  const out = {};
  for (const name of ["float32", "tf32", "bfloat16", "float16", "float8_e4m3fn", "float8_e5m2"]) {
    out[name] = nx.encodeMany(name, values, {saturate: true});
  }
  out["float8_e4m3fn (torch 2.12)"] = nx.encodeMany("float8_e4m3fn", values, {saturate: false});
  return out;
}"""


@pytest.fixture(scope="module")
def explorer_page(browser, base_url):
    watched = Watched(browser, base_url)
    watched.page.goto(f"{base_url}en/{PAGE}", wait_until="load")
    yield watched.page
    watched.check_clean()
    watched.context.close()


def test_stored_bits_match_torch_and_the_reference(explorer_page):
    assert len(VALUES) > 4000
    ours = explorer_page.evaluate(ENCODE_ALL, VALUES)
    problems = []
    for name, sources in expected_codes().items():
        got = [int(c) & 0xFFFFFFFF for c in ours[name]]
        for source, want in sources.items():
            bad = []
            for i, (g, w) in enumerate(zip(got, want)):
                if g == w:
                    continue
                if name == "bfloat16" and source.startswith("torch") and math.isnan(VALUES[i]) and (w & 0x7FFF) > 0x7F80:
                    continue  # torch's bfloat16 NaN pattern depends on the path (module docstring)
                bad.append(f"{VALUES[i]!r}: explorer {g:#x}, {source} {w:#x}")
            if len(got) != len(want) or bad:
                problems.append(f"{name} vs {source}: {len(bad)} of {len(want)} differ: " + "; ".join(bad[:5]))
    assert not problems, "\n".join(problems)
    # The float64 and float32 paths of torch agree: the double rounding the page describes.
    for name, sources in expected_codes().items():
        if "torch from float32" in sources:
            pairs = zip(sources["torch"], sources["torch from float32"], VALUES)
            assert all(a == b or math.isnan(v) for a, b, v in pairs), name


def test_decode_and_neighbours_are_the_format_values(explorer_page):
    """decode() gives torch's value for every float8 code and sampled 16-bit codes; neighbours are one code apart."""
    checks = [("float8_e4m3fn", torch.float8_e4m3fn, list(range(256))), ("float8_e5m2", torch.float8_e5m2, list(range(256))),
              ("float16", torch.float16, list(range(0, 65536, 7))), ("bfloat16", torch.bfloat16, list(range(0, 65536, 7)))]
    for name, dtype, codes in checks:
        got = explorer_page.evaluate("([name, codes]) => codes.map(c => window.numberExplorer.decode(name, c))", [name, codes])
        want = _codes(dtype, codes)
        # float(g): Playwright hands a large integral JavaScript number over as an int written in 17 digits
        bad = [(c, g, w) for c, g, w in zip(codes, got, want)
               if not (math.isnan(w) and g is not None and math.isnan(g)) and float(g) != w]
        assert not bad, f"{name}: {bad[:5]}"
    below_above = explorer_page.evaluate("() => window.numberExplorer.neighbours('float16', 0x3C00)")
    assert below_above == {"below": 1 - 2**-11, "above": 1 + 2**-10}


def test_int8_matches_the_reference_quantization(explorer_page):
    rng = random.Random(5)
    cases = []
    for _ in range(3000):
        scale = rng.choice([0.05, 0.1, 1 / 127, 0.003, 2.0, rng.uniform(1e-3, 1)])
        zero = rng.randint(-128, 127)
        k = rng.randint(-200, 200)
        cases.append([rng.choice([(k + 0.5) * scale, k * scale, rng.uniform(-10, 10), (k + 0.5 - zero) * scale]), scale, zero])
    got = explorer_page.evaluate("(cases) => cases.map(([x, s, z]) => window.numberExplorer.quantizeInt8(x, s, z))", cases)
    want = [quantize_per_tensor(torch.tensor([x]), s, z, torch.int8).item() for x, s, z in cases]
    bad = [(c, g, w) for c, g, w in zip(cases, got, want) if g != w]
    assert not bad, f"{len(bad)} of {len(cases)} differ: {bad[:5]}"


def _blocks() -> list[list[float]]:
    rng = random.Random(7)
    blocks = []
    for i in range(240):
        block = [rng.gauss(0, 1) * 2.0 ** rng.randint(-20, 20) for _ in range(32)]
        if i % 3 == 0:
            block[rng.randrange(32)] *= 100  # an outlier
        if i % 7 == 0:
            block = [v * 2.0**-130 for v in block]  # float32 subnormals after scaling
        if i % 11 == 0:
            block = [0.0] * 32
        if i % 13 == 0:  # ties of the element grid: multiples of half a step
            block = [rng.randint(-24, 24) * 0.25 for _ in range(32)]
        blocks.append([_f32(struct.unpack(">I", struct.pack(">f", v))[0]) for v in block])
    return blocks


def test_mx_blocks_match_torchao(explorer_page):
    mx_tensor = pytest.importorskip("torchao.prototype.mx_formats.mx_tensor")
    blocks = _blocks()
    t = torch.tensor(blocks, dtype=torch.float32)
    got = explorer_page.evaluate(
        "(blocks) => ['mxfp8', 'mxfp4'].map(k => blocks.map(b => { const r = window.numberExplorer.mxBlock(k, b);"
        " return [r.scaleCode, r.codes]; }))", blocks)
    for (kind, dtype), ours in zip([("mxfp8", torch.float8_e4m3fn), ("mxfp4", torch.float4_e2m1fn_x2)], got):
        scale, data = mx_tensor.to_mx(t, dtype, 32)
        scales = scale.view(torch.uint8).flatten().tolist()
        if dtype == torch.float4_e2m1fn_x2:
            packed = data.view(torch.uint8)
            codes = torch.stack([packed & 0xF, packed >> 4], -1).reshape(t.shape).tolist()
        else:
            codes = data.view(torch.uint8).tolist()
        bad = [i for i, (s, c) in enumerate(ours) if s != scales[i] or c != codes[i]]
        assert not bad, f"{kind}: {len(bad)} of {len(blocks)} blocks differ, first {bad[0]}: " \
            f"explorer {ours[bad[0]]}, torchao {scales[bad[0]]} {codes[bad[0]]}"


def test_per_tensor_float8_scale_matches_torchao(explorer_page):
    float8_utils = pytest.importorskip("torchao.float8.float8_utils")
    got = explorer_page.evaluate(
        "(blocks) => blocks.map(b => { const r = window.numberExplorer.float8Scaled(b); return [r.multiplier, r.codes]; })",
        _blocks())
    for block, (multiplier, codes) in zip(_blocks(), got):
        x = torch.tensor(block)
        scale = float8_utils.amax_to_scale(x.abs().max(), torch.float8_e4m3fn)
        want = float8_utils.to_fp8_saturated(x * scale, torch.float8_e4m3fn).view(torch.uint8).tolist()
        assert (multiplier, codes) == (scale.item(), want)


STORED = """(i) => Object.fromEntries([...document.querySelectorAll("div.number-explorer table")[i].querySelectorAll("tbody tr")]
  .map(tr => [tr.querySelector("th").textContent, tr.querySelectorAll("td")[1].textContent]))"""


def _explorer_texts(page) -> str:
    return page.locator("div.number-explorer").inner_text()


def _tab_to(page, target, presses: int) -> bool:
    """Press Tab until ``target`` has the focus, at most ``presses`` times; whether it has it."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if target.evaluate("e => e === document.activeElement"):
            return True
    return False


@pytest.mark.parametrize("lang", ["ja", "en"])
def test_keyboard_only_use(browser, base_url, lang):
    """Tab to the value field, type, press Enter; Space toggles a format; arrows choose the torch version.
    The live region says what was shown, in the page's language."""
    watched = Watched(browser, base_url)
    page = watched.page
    try:
        page.goto(f"{base_url}{lang}/{PAGE}", wait_until="load")
        field = page.locator("div.number-explorer input[type=text]").first
        # As a keyboard user does: the first Tab reaches Material's "skip to content" link, Enter follows it.
        page.keyboard.press("Tab")
        assert page.evaluate("document.activeElement.classList.contains('md-skip')")
        page.keyboard.press("Enter")
        if not _tab_to(page, field, 30):
            pytest.fail("the value field is not reachable with Tab after skipping to the content")
        page.keyboard.press("Control+A")
        page.keyboard.type("65520, 1000")
        page.keyboard.press("Enter")
        status = page.locator("div.number-explorer [role=status]")
        assert status.inner_text() == {"ja": "2 個の値を表示しています。", "en": "Showing 2 value(s)."}[lang]
        assert page.evaluate(STORED, 0)["float16"] == "inf"  # 65520, the tie above 65504, rounds to even: inf
        assert page.evaluate(STORED, 1)["float8 e4m3fn"] == "448"  # 1000 saturates (torch 2.13)
        # Tab to the first format checkbox (float32) and switch it off with Space.
        assert _tab_to(page, page.locator("div.number-explorer input[type=checkbox]").first, 10)
        page.keyboard.press("Space")
        assert "float32" not in page.evaluate(STORED, 0) and len(page.evaluate(STORED, 0)) == 6
        # Tab on to the torch version radios; ArrowDown picks torch 2.12: 1000 no longer rounds to 448.
        assert _tab_to(page, page.locator("div.number-explorer input[type=radio]").first, 20)
        page.keyboard.press("ArrowDown")
        assert page.evaluate(STORED, 1)["float8 e4m3fn"] == "NaN"
        # A syntax error is announced, and never evaluated as code.
        field.focus()
        page.keyboard.press("Control+A")
        page.keyboard.type("alert(1)")
        page.keyboard.press("Enter")
        assert "alert(1)" in status.inner_text() and field.get_attribute("aria-invalid") == "true"
        labels = page.locator("div.number-explorer label").all_inner_texts()
        if lang == "ja":
            assert "int8 のスケール" in labels and "Formats" not in _explorer_texts(page)
        watched.check_clean()
    finally:
        watched.context.close()


@pytest.mark.parametrize("lang", ["ja", "en"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_no_violation_and_fits_a_phone(browser, base_url, lang, scheme):
    from tests.test_site_a11y import AXE, NO_SIDEWAYS_SCROLL, RUN_AXE

    for viewport in ({"width": 1280, "height": 900}, {"width": 375, "height": 740}):
        context = browser.new_context(color_scheme=scheme, viewport=viewport)
        page = context.new_page()
        try:
            page.goto(f"{base_url}{lang}/{PAGE}", wait_until="load")
            assert page.locator("div.block-explorer table").count() == 2
            page.add_script_tag(path=str(AXE))
            violations = page.evaluate(RUN_AXE, {"type": "tag", "values": AXE_RULES})
            assert not violations, violations
            assert not page.evaluate(NO_SIDEWAYS_SCROLL), viewport
        finally:
            context.close()


def test_script_is_loaded_only_where_it_is_used(built_site):
    for lang in ("ja", "en"):
        assert "number-explorer.js" in (built_site / lang / PAGE / "index.html").read_text(encoding="utf-8")
        for other in ("storage/dtypes", "gpu/float8", ""):
            assert "number-explorer" not in (built_site / lang / other / "index.html").read_text(encoding="utf-8")
