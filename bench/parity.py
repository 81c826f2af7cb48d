"""Where the tpu lane's parity check (canary.run.parity: megablox in Pallas interpret mode against
XLA's ragged_dot, forward and both gradients) spends its time, and the same check as another
revision of canary has it, in one invocation: before and after, taking turns, so both meet the
same machine load.

Each turn is a fresh process (as `canary lower` is), in the revision's tree, that imports its canary and runs
`parity.check` once; it prints the wall seconds of the check, the process's CPU seconds, how many
programs XLA compiled and their backend compile seconds (JAX's own monitoring events), and the
worst error. The load average (`uptime`) is printed before and after.

    python bench/parity.py                                  # this checkout, 3 turns
    python bench/parity.py --against HEAD~3 --repeat 3      # and another revision, turn about
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TURN = """
import json, resource, sys, time
t0 = time.perf_counter()
import jax
from canary.config import load_ferry, load_lanes
from canary.run import parity
compiles = []
jax.monitoring.register_event_duration_secs_listener(
    lambda e, d, **_: compiles.append(d) if e == "/jax/core/compile/backend_compile_duration" else None)
lanes = load_lanes()[0]
ferry = load_ferry(sys.argv[1])[0]
t1 = time.perf_counter()
out = parity.check(ferry, lanes["cpu"], lanes["tpu"])
wall = time.perf_counter() - t1
cpu = resource.getrusage(resource.RUSAGE_SELF)
worst = max(out["checks"], key=lambda r: r["error"] / r["tolerance"])
print(json.dumps({"import": t1 - t0, "wall": wall, "cpu": cpu.ru_utime + cpu.ru_stime, "compiles": len(compiles),
                  "compile_s": sum(compiles), "ok": out["ok"], "checks": len(out["checks"]),
                  "worst": f"{worst['error']:.2g} ({worst['gradient']}, {worst['dtype']})"}))
"""


def tree_at(rev: str, into: Path) -> Path:
    """canary's package, lanes and ferries as they are at ``rev`` (git archive), under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "canary", "lanes.toml", "ferries"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into


def turn(tree: Path, ferry: str) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "JAX_PLATFORMS": "cpu"}
    r = subprocess.run(
        [sys.executable, "-c", TURN, ferry], cwd=tree, env=env, capture_output=True, text=True, timeout=900
    )
    if r.returncode != 0:
        raise SystemExit(f"parity at {tree} failed:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def uptime() -> str:
    return subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ferry", default="grug-moe-canary")
    ap.add_argument("--against", metavar="REV", help="also time canary as it is at this git revision")
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    print(f"load before: {uptime()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"this checkout": ROOT}
        if a.against:
            trees = {a.against: tree_at(a.against, Path(tmp)), **trees}
        seen: dict[str, list[dict]] = {name: [] for name in trees}
        for i in range(a.repeat):
            for name, tree in trees.items():
                r = turn(tree, a.ferry)
                seen[name].append(r)
                print(
                    f"turn {i + 1} {name:<14} parity {r['wall']:5.1f} s wall, {r['cpu']:5.1f} s cpu; "
                    f"{r['compiles']} compiles {r['compile_s']:.1f} s; {r['checks']} checks ok={r['ok']} "
                    f"worst {r['worst']}; import {r['import']:.1f} s",
                    flush=True,
                )
    print(f"load after: {uptime()}")
    for name, rs in seen.items():
        walls, cpus = [r["wall"] for r in rs], [r["cpu"] for r in rs]
        print(
            f"{a.ferry} parity, {name}: median {statistics.median(walls):.1f} s wall "
            f"(min {min(walls):.1f}), {statistics.median(cpus):.1f} s cpu, {rs[0]['compiles']} compiles"
        )


if __name__ == "__main__":
    main()
