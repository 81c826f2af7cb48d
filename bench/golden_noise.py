"""Does the cpu lane's golden cry wolf? Clean runs judged by the lane's default gates:

    python bench/golden_noise.py [--runs 20] [--slow 0.3] [--gates moe-canary] [--hogs 0] [--steps 200]

Runs `canary run cpu` (warm cache, no history) --runs times, then once more with the test-only
zoo's slow step (CANARY_ZOO=slow:F, patched into the workload by tests/zoo, first on its
PYTHONPATH) unless --slow 0, and prints for each run: verdict, the
median step's tokens/s, the fastest step's (the gated figure) with its floor and margin, the
step's CPU time (recorded, not gated), the loss curve's worst window, how busy the machine was
(steps in quiet windows, others' share of the CPUs) and every golden gate's status. Then the
count of clean runs with an alarm (a golden gate FAIL or WARN) and with a FAIL, and the spread
(max/min) of each throughput figure over the clean runs. ``--hogs N`` keeps N other processes
spinning through every run (a machine others hold: the gate must not fail a clean run there).

A plain script, run by hand (20 runs take 10-15 minutes on a 2-core machine); the figures go to
docs/gates.md.
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
ZOO = ROOT / "tests" / "zoo"  # the regression zoo: its sitecustomize.py patches the workload
GOLDEN_GATES = ("loss_curve", "final_loss_golden", "throughput", "compile_seconds", "peak_memory")


def run(out: Path, gates: str, env: dict[str, str], hogs: int = 0, steps: int | None = None) -> dict:
    spinning = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(hogs)]
    try:
        proc = subprocess.run(
            [
                sys.executable,
                "-m",
                "canary",
                "run",
                "cpu",
                "--json",
                "--no-history",
                "--gates",
                gates,
                "--out",
                str(out),
                *(["--steps", str(steps)] if steps else []),
            ],
            cwd=ROOT,
            capture_output=True,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        )
    finally:
        for h in spinning:
            h.kill()
            h.wait()
    try:
        return json.loads(proc.stdout)
    except json.JSONDecodeError:
        return {"verdict": "error", "gates": [], "summary": {}, "error": proc.stderr[-500:]}


def row(n: str, r: dict) -> tuple[str, bool, bool]:
    g = {x["name"]: x for x in r.get("gates", [])}
    s = r.get("summary", {})
    statuses = " ".join(f"{k}={g[k]['status']}" for k in GOLDEN_GATES if k in g)
    alarm = any(g[k]["status"] in ("FAIL", "WARN") for k in GOLDEN_GATES if k in g)
    failed = any(g[k]["status"] == "FAIL" for k in GOLDEN_GATES if k in g)
    t = g.get("throughput", {})
    margin = t.get("margin")
    line = (
        f"{n:>5} {r.get('verdict', '?'):5} median step {s.get('throughput/tokens_per_second', 0):7,.0f} tok/s, "
        f"fastest {s.get('throughput/best_tokens_per_second', 0):7,.0f} (floor {t.get('threshold')}, margin "
        f"{'—' if margin is None else f'{margin * 100:+.1f}%'}); "
        f"step CPU {s.get('throughput/median_step_cpu_seconds', 0) * 1e3:5.1f} ms; "
        f"quiet steps {s.get('throughput/quiet_steps', '?')}, others {s.get('throughput/others_share') or 0:.0%}, "
        f"curve {g.get('loss_curve', {}).get('value')}  {statuses}"
    )
    return line, alarm, failed


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--slow", type=float, default=0.3, help="the slow run's extra fraction per step (0: none)")
    ap.add_argument("--gates", default="moe-canary")
    ap.add_argument("--hogs", type=int, default=0, help="other processes spinning through every run")
    ap.add_argument(
        "--steps", type=int, default=None, help="steps per run [default: the lane's; fewer: the golden gates skip]"
    )
    args = ap.parse_args()
    errors: list[str] = []  # the runs that came back without a verdict
    with tempfile.TemporaryDirectory() as tmp:
        clean = []
        alarms = fails = 0
        for i in range(args.runs):
            r = run(Path(tmp), args.gates, {}, args.hogs, args.steps)
            errors += [r["error"]] if r["verdict"] == "error" else []
            line, alarm, failed = row(str(i + 1), r)
            alarms += alarm
            fails += failed
            clean.append(r)
            print(line, flush=True)
        ok = [r["summary"] for r in clean if "throughput/best_tokens_per_second" in r.get("summary", {})]
        raw = [s["throughput/tokens_per_second"] for s in ok]
        best = [s["throughput/best_tokens_per_second"] for s in ok]
        cpu = [s["throughput/median_step_cpu_seconds"] for s in ok]
        print(f"clean runs with an alarm: {alarms} of {args.runs}; with a FAIL: {fails}")
        if raw:
            print(
                f"spread over clean runs (max/min): median step's tokens/s {max(raw) / min(raw):.3f}, fastest step's "
                f"(gated) {max(best) / min(best):.3f}, step CPU seconds {max(cpu) / min(cpu):.3f}; "
                f"median of the fastest step's tokens/s {statistics.median(best):,.0f}"
            )
        if args.slow:
            r = run(
                Path(tmp),
                args.gates,
                {"CANARY_ZOO": f"slow:{args.slow}", "PYTHONPATH": f"{ZOO}{os.pathsep}{ROOT}"},
                args.hogs,
                args.steps,
            )
            errors += [r["error"]] if r["verdict"] == "error" else []
            print(row("slow", r)[0])
    if errors:
        print(f"{len(errors)} run(s) could not be judged; the first said:\n{errors[0]}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
