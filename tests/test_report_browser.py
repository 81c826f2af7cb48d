"""The report in a real browser: Playwright for Python drives Debian's headless Chromium (the system
binary, never a downloaded one) through a page served by a loopback HTTP server. No console errors,
every run shown, the charts drawn, nothing fetched from anywhere else (any other request is aborted
and named), a cell opens its run, and the screenshot is not blank. (.ci/run installs chromium.)"""

import io
import os
import shutil
import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from report_records import history

from canary.report import render

pytestmark = pytest.mark.slow

BROWSERS = ("chromium", "chromium-browser", "google-chrome")
WIDTH = 1280  # a laptop's window: the page should use it, not a column down its middle


def browser() -> str:
    found = next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)
    if not found:
        pytest.fail("headless Chromium is needed for this test: apt-get install chromium (.ci/run installs it)")
    return found


class Site:
    """A loopback HTTP server over a directory that remembers every path asked of it."""

    def __init__(self, root: Path):
        self.requests: list[str] = []
        site = self

        class Handler(SimpleHTTPRequestHandler):
            def log_message(self, *args):
                site.requests.append(self.path)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), partial(Handler, directory=str(root)))
        self.origin = f"http://127.0.0.1:{self.server.server_address[1]}"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def visit(exe: str, origin: str, run_id: str) -> dict:
    """Load the report, read what it shows, open one run from its cell, and take a screenshot."""
    # Playwright never fetches a browser here: it launches the system binary, and a stray
    # `playwright install` skips the download.
    os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright for Python is needed for this test: pip install -e '.[test]'")
    seen: dict = {"problems": [], "requests": [], "blocked": []}

    def route(r):
        # only the loopback site may answer; anything else is refused and named
        if r.request.url.startswith(origin + "/"):
            seen["requests"].append(r.request.url)
            r.continue_()
        else:
            seen["blocked"].append(r.request.url)
            r.abort()

    def console(msg):
        if msg.type in ("error", "assert", "warning"):
            seen["problems"].append(f"console.{msg.type}: {msg.text} {msg.location}")

    with sync_playwright() as pw:
        chromium = pw.chromium.launch(executable_path=exe, headless=True, args=["--disable-dev-shm-usage"])
        try:
            page = chromium.new_page(viewport={"width": WIDTH, "height": 900}, device_scale_factor=1)
            page.set_default_timeout(60_000)
            page.route("**/*", route)
            page.on("console", console)
            page.on("pageerror", lambda e: seen["problems"].append(f"page error: {e}"))
            page.on("requestfailed", lambda r: seen["problems"].append(f"request failed: {r.url} {r.failure}"))
            page.goto(f"{origin}/report.html", wait_until="load")
            seen["cells"] = page.eval_on_selector_all("a.cell", "cs => cs.map(a => a.dataset.run)")
            seen["details"] = page.eval_on_selector_all("details.run", "ds => ds.map(d => d.id)")
            seen["charts"] = page.eval_on_selector_all(".chart svg", "ss => ss.map(s => s.getBBox().width)")
            seen["chart_paths"] = page.locator(".chart svg path").count()
            seen["main_width"] = page.eval_on_selector("main", "m => m.getBoundingClientRect().width")
            seen["perf_width"] = page.eval_on_selector(".perf-chart svg", "s => s.getBoundingClientRect().width")
            seen["loss_widths"] = page.eval_on_selector_all(
                ".loss-chart svg", "ss => ss.map(s => s.getBoundingClientRect().width)"
            )
            seen["scroll_width"] = page.evaluate("document.documentElement.scrollWidth")
            # a timeline cell opens its run's details: a real click, then wait for the block to open
            page.click(f'a.cell[data-run="{run_id}"]')
            page.wait_for_function("id => document.getElementById('run-' + id).open", arg=run_id)
            seen["opened_text"] = page.inner_text(f"#run-{run_id}")
            page.evaluate("window.scrollTo(0, 0)")
            seen["png"] = page.screenshot(full_page=True, type="png")
        finally:
            chromium.close()
    return seen


def test_report_in_headless_chromium(tmp_path):
    exe = browser()
    records = history(tmp_path)
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    (site_dir / "report.html").write_text(render(records, "test-history"), encoding="utf-8")
    site = Site(site_dir)
    clicked = "20260828T060000Z-tpu-0003"
    try:
        seen = visit(exe, site.origin, clicked)
    finally:
        site.close()

    assert seen["problems"] == []
    ids = sorted(r.run_id for r in records)
    assert sorted(seen["cells"]) == ids  # one timeline cell per run of the history
    assert sorted(seen["details"]) == sorted(f"run-{i}" for i in ids)
    assert "3f9a1c2b7d4e" in seen["opened_text"] and "margin" in seen["opened_text"]
    assert len(seen["charts"]) == 2 and all(w > 100 for w in seen["charts"]) and seen["chart_paths"] > 20
    # the page fills the window: the content and the figures span it, nothing scrolls sideways
    assert seen["main_width"] >= 0.9 * WIDTH, seen["main_width"]
    assert seen["perf_width"] >= 0.9 * WIDTH - 48, seen["perf_width"]
    assert all(w >= 0.4 * WIDTH for w in seen["loss_widths"]), seen["loss_widths"]
    assert seen["scroll_width"] <= WIDTH, seen["scroll_width"]
    # nothing fetched but the page itself
    assert seen["blocked"] == [], seen["blocked"]
    assert seen["requests"] == [f"{site.origin}/report.html"], seen["requests"]
    assert site.requests == ["/report.html"], site.requests
    # the screenshot is a picture, not one colour
    from matplotlib.image import imread

    Path(tmp_path / "report.png").write_bytes(seen["png"])  # to look at: pytest --basetemp
    pixels = imread(io.BytesIO(seen["png"]), format="png")
    assert pixels.shape[0] >= 900 and pixels.shape[1] == WIDTH
    flat = pixels.reshape(-1, pixels.shape[-1])
    distinct = len({tuple(p) for p in flat[:: max(1, len(flat) // 200000)].round(3).tolist()})
    assert distinct > 20, f"the screenshot is nearly blank ({distinct} colours)"
