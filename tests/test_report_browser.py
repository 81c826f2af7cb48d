"""The report in a real browser: headless Chromium, driven over the DevTools protocol, loads the
page from a loopback HTTP server. No console errors, every run shown, the charts drawn, nothing
fetched from anywhere else, a screenshot that is not blank. (.ci/run installs Debian's chromium.)"""

import asyncio
import base64
import io
import json
import shutil
import subprocess
import threading
import time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from report_records import history

from canary.report import render

pytestmark = pytest.mark.slow

BROWSERS = ("chromium", "chromium-browser", "google-chrome")


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


def devtools_port(profile: Path, proc: subprocess.Popen, timeout: float = 60) -> int:
    """Chromium writes the port it chose for --remote-debugging-port=0 to DevToolsActivePort."""
    deadline = time.monotonic() + timeout
    path = profile / "DevToolsActivePort"
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(
                f"chromium exited {proc.returncode}: {(profile.parent / 'chromium.log').read_text()[-2000:]}"
            )
        if path.is_file() and path.read_text().strip():
            return int(path.read_text().splitlines()[0])
        time.sleep(0.1)
    raise AssertionError("chromium did not open its DevTools port")


class DevTools:
    """A minimal DevTools protocol client over one page's websocket (aiohttp)."""

    def __init__(self, ws):
        self.ws, self.n, self.events, self.waiting = ws, 0, [], {}

    async def pump(self):
        async for msg in self.ws:
            data = json.loads(msg.data)
            if "id" in data and data["id"] in self.waiting:
                self.waiting.pop(data["id"]).set_result(data)
            elif "method" in data:
                self.events.append(data)

    async def send(self, method: str, **params):
        self.n += 1
        fut = asyncio.get_running_loop().create_future()
        self.waiting[self.n] = fut
        await self.ws.send_str(json.dumps({"id": self.n, "method": method, "params": params}))
        reply = await asyncio.wait_for(fut, 60)
        assert "error" not in reply, (method, reply["error"])
        return reply["result"]

    async def value(self, expression: str):
        r = await self.send("Runtime.evaluate", expression=expression, returnByValue=True, awaitPromise=True)
        assert "exceptionDetails" not in r, r["exceptionDetails"]
        return r["result"].get("value")

    async def until(self, method: str, timeout: float = 60):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if any(e["method"] == method for e in self.events):
                return
            await asyncio.sleep(0.05)
        raise AssertionError(f"no {method} within {timeout}s")


async def visit(port: int, url: str, run_id: str) -> dict:
    import aiohttp

    async with aiohttp.ClientSession() as http:
        async with http.get(f"http://127.0.0.1:{port}/json/list") as resp:
            targets = await resp.json(content_type=None)
        page = next(t for t in targets if t["type"] == "page")
        async with http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0) as ws:
            dt = DevTools(ws)
            pump = asyncio.create_task(dt.pump())
            for domain in ("Page", "Runtime", "Log", "Network"):
                await dt.send(f"{domain}.enable")
            await dt.send(
                "Emulation.setDeviceMetricsOverride", width=1200, height=900, deviceScaleFactor=1, mobile=False
            )
            await dt.send("Page.navigate", url=url)
            await dt.until("Page.loadEventFired")
            seen = {
                "cells": await dt.value("[...document.querySelectorAll('a.cell')].map(a => a.dataset.run)"),
                "details": await dt.value("[...document.querySelectorAll('details.run')].map(d => d.id)"),
                "charts": await dt.value("[...document.querySelectorAll('.chart svg')].map(s => s.getBBox().width)"),
                "chart_paths": await dt.value("document.querySelectorAll('.chart svg path').length"),
            }
            # a timeline cell opens its run's details
            await dt.value(f"document.querySelector('a.cell[data-run=\"{run_id}\"]').click()")
            await asyncio.sleep(0.3)
            seen["opened"] = await dt.value(f"document.getElementById('run-{run_id}').open")
            seen["opened_text"] = await dt.value(f"document.getElementById('run-{run_id}').innerText")
            await dt.value("window.scrollTo(0, 0)")
            shot = await dt.send(
                "Page.captureScreenshot",
                format="png",
                captureBeyondViewport=True,
                clip={"x": 0, "y": 0, "width": 1200, "height": 2400, "scale": 1},
            )
            seen["png"] = base64.b64decode(shot["data"])
            pump.cancel()
            seen["events"] = dt.events
            return seen


def problems(events: list[dict]) -> list[str]:
    out = []
    for e in events:
        m, p = e["method"], e.get("params", {})
        if m == "Runtime.exceptionThrown":
            out.append(json.dumps(p["exceptionDetails"])[:500])
        elif m == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert", "warning"):
            out.append(f"console.{p['type']}: {json.dumps(p.get('args'))[:500]}")
        elif m == "Log.entryAdded" and p["entry"].get("level") in ("error", "warning"):
            out.append(f"log {p['entry']['level']}: {p['entry'].get('text')} {p['entry'].get('url', '')}")
    return out


def test_report_in_headless_chromium(tmp_path):
    exe = browser()
    records = history(tmp_path)
    site_dir = tmp_path / "site"
    site_dir.mkdir()
    (site_dir / "report.html").write_text(render(records, "test-history"), encoding="utf-8")
    site = Site(site_dir)
    profile = tmp_path / "profile"
    log = open(tmp_path / "chromium.log", "w")
    proc = subprocess.Popen(
        [
            exe,
            "--headless",
            "--disable-gpu",
            "--no-sandbox",
            "--remote-debugging-port=0",
            "--remote-allow-origins=*",
            f"--user-data-dir={profile}",
            "--no-first-run",
            "--no-default-browser-check",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--disable-dev-shm-usage",
            "about:blank",
        ],
        stdout=subprocess.DEVNULL,
        stderr=log,
    )
    try:
        port = devtools_port(profile, proc)
        clicked = "20260828T060000Z-tpu-0003"
        seen = asyncio.run(visit(port, f"{site.origin}/report.html", clicked))
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()
        site.close()

    assert problems(seen["events"]) == []
    ids = sorted(r.run_id for r in records)
    assert sorted(seen["cells"]) == ids  # one timeline cell per run of the history
    assert sorted(seen["details"]) == sorted(f"run-{i}" for i in ids)
    assert seen["opened"] is True and "3f9a1c2b7d4e" in seen["opened_text"] and "margin" in seen["opened_text"]
    assert len(seen["charts"]) == 2 and all(w > 100 for w in seen["charts"]) and seen["chart_paths"] > 20
    # nothing fetched but the page itself
    urls = [e["params"]["request"]["url"] for e in seen["events"] if e["method"] == "Network.requestWillBeSent"]
    assert urls and all(u.startswith(site.origin + "/") for u in urls), urls
    assert site.requests == ["/report.html"], site.requests
    # the screenshot is a picture, not one colour
    from matplotlib.image import imread

    Path(tmp_path / "report.png").write_bytes(seen["png"])
    pixels = imread(io.BytesIO(seen["png"]), format="png")
    assert pixels.shape[0] >= 900 and pixels.shape[1] >= 1000
    flat = pixels.reshape(-1, pixels.shape[-1])
    distinct = len({tuple(p) for p in flat[:: max(1, len(flat) // 200000)].round(3).tolist()})
    assert distinct > 20, f"the screenshot is nearly blank ({distinct} colours)"
