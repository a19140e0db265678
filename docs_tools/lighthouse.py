"""Lighthouse (npm, ``package.json``) on the built site, mobile, as a phone reader's first visit.

Used by tests/test_site_lighthouse.py on a sample of pages, and as a command that runs it on every
page of both languages and writes the table (``recorded/lighthouse.md``, with its stamp: date,
CPU, cores, load average, Lighthouse's CPU benchmark index)::

    bash .ci/build                                   # or any built site/ (both languages)
    .venv/bin/python -m docs_tools.lighthouse [--directory site] [--out recorded/lighthouse.md] [PAGE ...]

Each page is served by ``.ci/serve_site.py`` (compressed, as a host sends it) and audited with
Lighthouse's default configuration, the mobile one: a Moto G Power sized screen, simulated
throttling (a slow 4G network, the CPU 4 times slower than the machine's), the four categories.
Chromium is Debian's (``CHROME_PATH``, ``/usr/bin/chromium`` unless set), headless.

Which numbers depend on the machine: the performance score comes from the metrics (FCP, LCP, TBT,
CLS, Speed Index) that Lighthouse simulates from what it measured. The network part of that
simulation depends only on the bytes and requests, but the main-thread work it adds (style,
layout, script) is the machine's measured time multiplied by 4, so on a busy machine (other builds
running, a load average of 10 on two cores) the same page scores lower and varies from run to run.
Accessibility, best practices and SEO are checks of the page, not timings; the transfer size and
the number of requests depend only on the page.
"""

from __future__ import annotations

import argparse
import datetime
import importlib.util
import json
import os
import platform
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CLI = REPO / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
METRICS = {  # audit id -> column
    "first-contentful-paint": "FCP",
    "largest-contentful-paint": "LCP",
    "total-blocking-time": "TBT",
    "cumulative-layout-shift": "CLS",
    "speed-index": "SI",
}
CHROME_FLAGS = "--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking " \
    "--disable-component-update --disable-sync"


def serve_site_module():
    """``.ci/serve_site.py`` as a module (it is a script in a folder that is not a package)."""
    spec = importlib.util.spec_from_file_location("serve_site", REPO / ".ci" / "serve_site.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def chrome_path() -> str:
    found = os.environ.get("CHROME_PATH") or shutil.which("chromium") or "/usr/bin/chromium"
    return found


@dataclass
class Result:
    """One page's Lighthouse run, the numbers of the table."""

    url: str
    scores: dict[str, int]  # category -> 0..100
    metrics: dict[str, float]  # FCP/LCP/SI/TBT in ms, CLS unitless
    transfer: int  # bytes over the network (compressed where the server compressed)
    requests: int
    benchmark_index: float  # Lighthouse's measure of this machine's CPU speed during the run
    failed: dict[str, list[str]] = field(default_factory=dict)  # category -> audits that lost points
    seconds: float = 0.0

    def line(self) -> str:
        s = self.scores
        return (f"{self.url}: performance {s['performance']}, accessibility {s['accessibility']}, best practices "
                f"{s['best-practices']}, SEO {s['seo']}, LCP {self.metrics['LCP'] / 1000:.1f} s, TBT "
                f"{self.metrics['TBT']:.0f} ms, {self.transfer / 1024:,.0f} KiB in {self.requests} requests, "
                f"benchmark index {self.benchmark_index:.0f}" + (f", losing: {self.failed}" if self.failed else ""))


def summarize(report: dict, seconds: float = 0.0) -> Result:
    """The table's numbers from a Lighthouse JSON report."""
    if report.get("runtimeError"):
        raise RuntimeError(f"Lighthouse: {report['runtimeError']}")
    audits = report["audits"]
    scores = {}
    failed = {}
    for name in CATEGORIES:
        category = report["categories"][name]
        if category["score"] is None:
            raise RuntimeError(f"Lighthouse gave {name} no score for {report['finalDisplayedUrl']}")
        scores[name] = round(category["score"] * 100)
        lost = [ref["id"] for ref in category["auditRefs"]
                if ref["weight"] > 0 and audits[ref["id"]]["score"] is not None and audits[ref["id"]]["score"] < 1
                and audits[ref["id"]]["scoreDisplayMode"] in ("binary", "numeric", "metricSavings")]
        if name != "performance" and lost:
            failed[name] = lost
    metrics = {column: audits[audit]["numericValue"] for audit, column in METRICS.items()}
    return Result(
        url=report["finalDisplayedUrl"],
        scores=scores,
        metrics=metrics,
        transfer=int(audits["total-byte-weight"]["numericValue"]),
        requests=len(audits["network-requests"]["details"]["items"]),
        benchmark_index=float(report["environment"]["benchmarkIndex"]),
        failed=failed,
        seconds=seconds,
    )


def run(url: str, timeout: float = 600, attempts: int = 2) -> tuple[Result, dict]:
    """Lighthouse's mobile audit of ``url``: the summary and the whole report.

    A run that fails is tried once more: on a loaded machine Lighthouse gives up on a page whose
    DevTools answers take over its 30 s ("Waiting for DevTools protocol response has exceeded the
    allotted time", seen on the support matrix at a load average of 20); the second error is raised.
    """
    for attempt in range(attempts):
        try:
            return _run_once(url, timeout)
        except RuntimeError:
            if attempt == attempts - 1:
                raise
    raise AssertionError("unreachable")


def _run_once(url: str, timeout: float) -> tuple[Result, dict]:
    if not CLI.is_file():
        raise FileNotFoundError(f"{CLI} is missing: run `bash .ci/setup browser` (npm ci)")
    with tempfile.TemporaryDirectory(prefix="lighthouse-") as tmp:
        out = Path(tmp) / "report.json"
        env = {**os.environ, "CHROME_PATH": chrome_path(), "TMPDIR": tmp}
        start = time.monotonic()
        try:
            proc = subprocess.run(
                ["node", str(CLI), url, "--output=json", f"--output-path={out}", "--quiet",
                 f"--only-categories={','.join(CATEGORIES)}", f"--chrome-flags={CHROME_FLAGS}"],
                env=env, capture_output=True, text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            # node is killed; the Chromium it started runs detached: end it, found by its profile
            # folder, which chrome-launcher makes in TMPDIR (this run's folder)
            stop_processes_using(tmp)
            raise
        seconds = time.monotonic() - start
        if proc.returncode != 0 or not out.is_file():
            raise RuntimeError(f"lighthouse {url} failed ({proc.returncode}):\n{proc.stderr[-4000:]}")
        report = json.loads(out.read_text(encoding="utf-8"))
    return summarize(report, seconds), report


def stop_processes_using(folder: str) -> None:
    """SIGKILL the processes whose command line names ``folder`` (this run's Chromium, by pid)."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            if folder.encode() in (entry / "cmdline").read_bytes():
                os.kill(int(entry.name), signal.SIGKILL)
        except (OSError, ProcessLookupError):
            pass


class Served:
    """A built site served by ``.ci/serve_site.py`` (compressed) on a free port, in this process."""

    def __init__(self, directory: Path):
        self.server = serve_site_module().make_server(directory, quiet=True)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def pages(site: Path) -> list[str]:
    """Every page of both languages as an address below the site's root (``ja/``, ``en/amp/``...),
    each Japanese page followed by its English one (a run cut short has covered both alike)."""
    found = []
    for lang in ("ja", "en"):
        for index in sorted((site / lang).rglob("index.html")):
            rel = index.parent.relative_to(site).as_posix() + "/"
            if rel != f"{lang}/404/":
                found.append(rel)
    return sorted(found, key=lambda rel: (rel.split("/", 1)[1], rel.split("/", 1)[0] != "ja"))


def cpu_name() -> str:
    with open("/proc/cpuinfo", encoding="utf-8") as info:
        for line in info:
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or platform.machine()


def stamp() -> str:
    load = os.getloadavg()
    return (f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, {cpu_name()}, "
            f"{os.cpu_count()} cores, load average {load[0]:.1f} / {load[1]:.1f} / {load[2]:.1f}")


def table(results: list[Result], started: str, ended: str, version: str, wanted: int | None = None,
          jobs: int = 1) -> str:
    perf = sorted(r.scores["performance"] for r in results)
    wanted = len(results) if wanted is None else wanted
    lines = [
        "# Lighthouse, every page (mobile)",
        "",
        "Written by `python -m docs_tools.lighthouse` (README \"Lighthouse\"), not by hand. Lighthouse "
        f"{version}, default (mobile) configuration, simulated throttling, Debian's Chromium headless, the "
        f"site served by `.ci/serve_site.py` (gzip) from a local build; {jobs} run(s) at once.",
        "",
        f"- started: {started}",
        f"- ended: {ended}",
        f"- pages: {len(results)} of {wanted}; performance {perf[0]}–{perf[-1]} (median {perf[len(perf) // 2]}); "
        f"accessibility 100 on {sum(r.scores['accessibility'] == 100 for r in results)}, best practices 100 on "
        f"{sum(r.scores['best-practices'] == 100 for r in results)}, SEO 100 on "
        f"{sum(r.scores['seo'] == 100 for r in results)}",
        "- The benchmark index is Lighthouse's measure of the CPU during the run (higher is faster); the "
        "performance score and TBT follow it, since simulated throttling multiplies the measured "
        "main-thread time by 4. Transfer and requests depend on the page only.",
        "",
        "| page | performance | accessibility | best practices | SEO | FCP | LCP | TBT | CLS | transfer | requests | benchmark index | lost points |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in results:
        s, m = r.scores, r.metrics
        lost = "; ".join(f"{k}: {', '.join(v)}" for k, v in r.failed.items())
        lines.append(
            f"| `{r.url}` | {s['performance']} | {s['accessibility']} | {s['best-practices']} | {s['seo']} | "
            f"{m['FCP'] / 1000:.1f} s | {m['LCP'] / 1000:.1f} s | {m['TBT']:.0f} ms | {m['CLS']:.3f} | "
            f"{r.transfer / 1024:,.0f} KiB | {r.requests} | {r.benchmark_index:.0f} | {lost} |")
    return "\n".join(lines) + "\n"


def version() -> str:
    return json.loads((CLI.parents[1] / "package.json").read_text(encoding="utf-8"))["version"]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Lighthouse (mobile) on every page of a built site; writes a table.")
    parser.add_argument("--directory", default="site", type=Path, help="the built site (both languages), default site/")
    parser.add_argument("--out", default=REPO / "recorded" / "lighthouse.md", type=Path)
    parser.add_argument("--jobs", type=int, default=1,
                        help="Lighthouse runs at once (default 1; more finish sooner on a busy machine, each slower)")
    parser.add_argument("pages", nargs="*", help="addresses below the root (ja/, en/amp/); default every page")
    args = parser.parse_args(argv)
    site = args.directory.resolve()
    wanted = args.pages or pages(site)
    if not wanted:
        parser.error(f"no pages below {site}/ja and {site}/en: build the site first (bash .ci/build)")
    started = stamp()
    results = []
    args.out.parent.mkdir(parents=True, exist_ok=True)
    order = {page: n for n, page in enumerate(wanted)}
    lock = threading.Lock()

    def one(page: str) -> None:
        try:
            result, _ = run(served.url + page)
        except (RuntimeError, subprocess.TimeoutExpired) as error:  # reported, the others still run
            print(f"/{page}: {error}", flush=True)
            return
        result.url = "/" + page
        with lock:
            results.append(result)
            results.sort(key=lambda r: order[r.url[1:]])
            print(f"[{len(results)}/{len(wanted)}] {result.line()} ({result.seconds:.0f} s)", flush=True)
            # written after every page: a run cut short still leaves the table of the pages it did
            args.out.write_text(table(results, started, stamp(), version(), len(wanted), args.jobs), encoding="utf-8")

    with Served(site) as served, ThreadPoolExecutor(max(1, args.jobs)) as pool:
        list(pool.map(one, wanted))
    print(f"wrote {args.out}")
    return 0 if len(results) == len(wanted) else 1


if __name__ == "__main__":
    sys.exit(main())
