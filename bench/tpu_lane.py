"""Where `canary lower --lane tpu`'s time goes on a CPU host: the lowering on the lane's topology
(libtpu's compile-only devices), the megablox parity check in interpret mode, and libtpu's compile.

It runs `python -m canary lower --lane tpu --json` as a user would, for each case, and prints the
wall seconds with the parts the result reports (the topology's device query, its lowering, the
parity check, the compile). libtpu must be importable (the `tpu` extra) for the topology cases.

    python bench/tpu_lane.py                    # moe-canary and grug-moe-canary, no compile
    python bench/tpu_lane.py --compile-small    # also a reduced-shape (8 x 256) compile of moe-canary
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lower(*args: str) -> tuple[float, dict]:
    t0 = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "canary", "lower", "--lane", "tpu", "--no-history", "--json", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0
    return wall, json.loads(r.stdout)["platforms"][0]


def figures(name: str, wall: float, p: dict) -> str:
    t, q = p.get("topology") or {}, p.get("parity") or {}
    c = t.get("compile") or {}
    parts = [
        f"{name:<34} wall {wall:6.1f} s",
        f"one chip {p['seconds']:.1f} s",
        f"topology {t.get('name')} query {t.get('topology_seconds', '-')} s lower {t.get('lower_seconds', '-')} s",
    ]
    if q:
        parts.append(f"parity {q['seconds']:.1f} s ({len(q['checks'])} comparisons)")
    if c:
        parts.append(f"compile {c.get('seconds')} s ok={c.get('ok')}")
        if c.get("memory"):
            parts.append(f"total {c['memory']['total'] / 2**30:.2f} GiB/chip")
    return "; ".join(parts)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compile-small", action="store_true")
    a = ap.parse_args()
    for ferry in ("moe-canary", "grug-moe-canary"):
        print(figures(f"{ferry} (lower + parity)", *lower("--ferry", ferry)), flush=True)
    print(figures("moe-canary --compile (lane shape)", *lower("--no-parity", "--compile")), flush=True)
    if a.compile_small:
        text = (ROOT / "ferries" / "moe-canary.toml").read_text()
        head, sep, tail = text.partition("[lanes.tpu]")
        tail = tail.replace("batch_size = 128", "batch_size = 8", 1).replace("seq_len = 8192", "seq_len = 256", 1)
        with tempfile.TemporaryDirectory() as tmp:
            small = Path(tmp) / "moe-small.toml"
            small.write_text(head + sep + tail)
            args = ("--ferry", str(small), "--no-parity", "--compile")
            print(figures("moe-canary 8 x 256 --compile", *lower(*args)), flush=True)


if __name__ == "__main__":
    main()
