"""How long `canary bisect --test lower` takes to name the first bad commit of a regression window.

For each window size it builds a git repository of this project's tree (tests/bisect_repo.py)
whose window holds that many commits: harmless ones and, at about two thirds of the way, the one
that switches the tpu lane to the static megablox tiling (the incident's lowering bug). Then it runs
`canary bisect --lane tpu --test lower --json` on it, as a user would, and prints the seconds, the
revisions tested, the CPU seconds they used (steadier than the wall clock on a busy machine), the
median seconds per revision (one `canary lower` child each: importing JAX and lowering the tpu
lane's train step) and what the harness adds (git, worktree), and checks the named commit.

    python bench/bisect_window.py                      # windows of 5 and 64 commits
    python bench/bisect_window.py --sizes 5,16,64 --repeat 3
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
sys.path.insert(0, str(ROOT / "tests"))  # tests/ by path: an installed `tests` package (draccus's) would shadow it
from bisect_repo import build  # noqa: E402


def history(size: int) -> list[str]:
    """``size`` commits: harmless ones, the static tiling at about two thirds of the way."""
    at = max(0, (2 * size) // 3 - 1)
    return ["static-tiling" if i == at else "harmless" for i in range(size)]


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def bisect_once(repo: Path, good: str) -> tuple[float, float, dict]:
    """(wall seconds, CPU seconds of canary bisect and its children, its --json)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    cpu0, t0 = _children_cpu(), time.perf_counter()
    p = subprocess.run(
        [
            sys.executable,
            "-m",
            "canary",
            "bisect",
            "--lane",
            "tpu",
            "--test",
            "lower",
            "--good",
            good,
            "--bad",
            "HEAD",
            "-C",
            str(repo),
            "--json",
        ],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )
    seconds, cpu = time.perf_counter() - t0, _children_cpu() - cpu0
    if p.returncode not in (0, 1):
        sys.exit(f"canary bisect failed (exit {p.returncode}): {p.stderr.strip()}")
    return seconds, cpu, json.loads(p.stdout)


def main() -> None:
    ap = argparse.ArgumentParser(prog="python bench/bisect_window.py", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sizes", default="5,64", help="window sizes in commits, comma-separated [default: 5,64]")
    ap.add_argument("--repeat", type=int, default=1, help="bisects per size; the median is printed [default: 1]")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    print(f"machine: {os.cpu_count()} cpus, load average {load[0]:.1f} at start" if load else "")
    print(
        f"{'window':>7} {'tests':>6} {'skipped':>8} {'seconds':>8} {'cpu s':>7} {'s/revision':>11} "
        f"{'harness s':>10}  first bad"
    )
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="canary-bench-bisect-") as tmp:
            kinds = history(size)
            shas = build(Path(tmp) / "repo", kinds)
            expected = shas[1 + kinds.index("static-tiling")]
            runs = [bisect_once(Path(tmp) / "repo", shas[0]) for _ in range(args.repeat)]
        wall, cpu, out = sorted(runs, key=lambda r: r[0])[len(runs) // 2]
        per = statistics.median(s["seconds"] for s in out["log"])
        children = sum(s["seconds"] for s in out["log"])
        verdict = "right" if out["first_bad"] == expected else f"WRONG (expected {expected[:12]})"
        print(
            f"{size:>7} {out['tested']:>6} {len(out['skipped']):>8} {wall:>8.1f} {cpu:>7.1f} {per:>11.1f} "
            f"{wall - children:>10.1f}  {(out['first_bad'] or 'none')[:12]} {verdict}"
        )


if __name__ == "__main__":
    main()
