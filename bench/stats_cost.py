"""What the train step's statistics cost a cpu run: the cold cpu verdict of the grug ferry as a
ratio against moe-canary's, both measured in one invocation, alternating.

    python bench/stats_cost.py [--repeat 2] [--root DIR ...]

Each run is ``canary run cpu --cold --no-history`` (process start to exit) of one ferry; the
ratio of the medians is the figure compared before and after a change (docs/gates.md: "The
model's statistics"), so a machine busier in one invocation than in another moves both.
``--root`` (repeatable) runs another checkout's code, e.g. a copy of the tree before the change:
each root's runs alternate with the others'. Prints figures only; nothing is asserted.
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FERRIES = ("moe-canary", "grug-moe-canary")


def cold_verdict(root: Path, ferry: str, out: Path) -> float:
    env = {**os.environ, "PYTHONPATH": str(root), "JAX_PLATFORMS": "cpu"}
    cmd = [sys.executable, "-m", "canary", "run", "cpu", "--cold", "--no-history", "--ferry", ferry, "--out", str(out)]
    t0 = time.perf_counter()
    subprocess.run(cmd, cwd=root, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
    return time.perf_counter() - t0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=2, help="runs of each ferry; medians are printed")
    ap.add_argument("--root", type=Path, action="append", help="a checkout whose code runs [default: this one]")
    args = ap.parse_args()
    roots = [r.resolve() for r in args.root or [ROOT]]
    walls: dict[tuple[Path, str], list[float]] = {(r, f): [] for r in roots for f in FERRIES}
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(args.repeat):
            for root in roots:
                for ferry in FERRIES:
                    walls[root, ferry].append(cold_verdict(root, ferry, Path(tmp)))
    for root in roots:
        med = {f: statistics.median(walls[root, f]) for f in FERRIES}
        print(root)
        for f in FERRIES:
            runs = ", ".join(f"{w:.1f}" for w in walls[root, f])
            print(f"  {f:<16} cold cpu verdict {med[f]:6.1f} s  (runs: {runs})")
        print(f"  grug-moe-canary / moe-canary: {med['grug-moe-canary'] / med['moe-canary']:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
