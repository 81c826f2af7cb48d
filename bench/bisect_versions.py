"""How long `canary bisect --package` takes over a range of published versions, cold and warm.

It runs the bisect as a user would (`python -m canary bisect --package ... --json`), first with
an empty cache directory (the base venv built, every wheel fetched and unpacked: a first bisect
on a new machine), then again with that cache (what a repeat costs: nothing is resolved, fetched
or unpacked again), and prints for each: the wall seconds, the CPU seconds of the bisect and its
children, the versions in the range, the versions tested, how long building the environment took,
the median seconds per version tested (laying it over the base and running the test), and what
it named.

    python bench/bisect_versions.py        # marin-levanter + marin-haliax, the full published range
    python bench/bisect_versions.py --old 0.2.95.dev33250980001 --new 0.2.99.dev33617068238
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def bisect_once(args: argparse.Namespace, cache: Path) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of canary bisect and its children, its --json)."""
    packages = [a for p in args.packages.split(",") for a in ("--package", p)]
    cmd = [
        sys.executable,
        "-m",
        "canary",
        "bisect",
        *packages,
        "--old",
        args.old,
        "--new",
        args.new,
        "--python",
        args.python,
        "--test",
        args.test,
        "--ferry",
        args.ferry,
        "--lane",
        args.lane,
        "--cache",
        str(cache),
        "--json",
    ]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cpu0, t0 = _children_cpu(), time.perf_counter()
    p = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    seconds, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if p.returncode not in (0, 1):
        sys.exit(f"canary bisect failed (exit {p.returncode}): {p.stderr.strip()[-2000:]}")
    return seconds, cpu, json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(prog="python bench/bisect_versions.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--packages", default="marin-levanter,marin-haliax", help="comma-separated [default: %(default)s]")
    ap.add_argument("--old", default="0.2.20.dev202606180959", help="[default: %(default)s]")
    ap.add_argument("--new", default="0.2.227.dev40316220070", help="[default: %(default)s]")
    ap.add_argument("--python", default="3.12", help="[default: %(default)s]")
    ap.add_argument("--test", default="lower", choices=["lower", "run"], help="[default: %(default)s]")
    ap.add_argument("--ferry", default="grug-moe-canary", help="[default: %(default)s]")
    ap.add_argument("--lane", default="tpu", help="[default: %(default)s]")
    ap.add_argument("--cache", default=None, help="keep the cache here (it must not exist) [default: a temporary dir]")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="canary-bench-bisect-") as tmp:
        cache = Path(args.cache) if args.cache else Path(tmp) / "cache"
        if cache.exists():
            sys.exit(f"{cache} exists: a cold run needs an empty cache")
        print(f"load average at the start: {os.getloadavg()[0]:.1f}")
        print("| cache | versions | tested | wall s | CPU s | environment s | median s per version | named |")
        print("|-------|---------:|-------:|-------:|------:|--------------:|---------------------:|-------|")
        for label in ("cold", "warm"):
            seconds, cpu, d = bisect_once(args, cache)
            per = [s["seconds"] for s in d["log"]]
            setup = d["seconds"] - sum(per)
            named = (
                f"first {'bad' if d['first_bad'] else 'fixed'} {d['first']}"
                if d["found"]
                else f"nothing: {d['reason']}"
            )
            print(
                f"| {label} | {len(d['versions'])} | {d['tested']} | {seconds:.1f} | {cpu:.1f} | {setup:.1f} | "
                f"{statistics.median(per) if per else 0:.1f} | {named} |",
                flush=True,
            )
            for s in d["log"]:
                print(
                    f"    {s['sha']:<26} {s['verdict']:<5} {s['seconds']:6.1f} s  {s['role'] or '':<8} "
                    f"{s['subject'][:60]} | {s['detail'][:90]}"
                )
        print(f"Python {d['python_version']}; moved together: {', '.join(d['moved'])}")


if __name__ == "__main__":
    main()
