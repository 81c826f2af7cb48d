"""How long the change-point search takes over a year of daily runs, and what the program
fingerprint adds to `canary lower` and to a cpu run:

    python bench/change_points.py [--runs 365] [--repeat 3] [--no-fingerprint]

Change points: a lane's history of N passing daily runs built in memory (throughput with 2%
noise and a 3% step at two thirds, compile time with 10% noise, peak memory and final loss with
0.5%), then the best of ``--repeat`` timings of `canary.history.changes.changes` (all four
metrics, as `canary history --changes` and `canary report` run it) and of `new_steps` on the
latest run (what the notifier runs after each run: three analyses per gated metric), over the
whole history and over the notifier's 120 days.

Fingerprint: in this process, the cpu lane's train step exported for cpu and tpu (as `canary lower`
does; its module printed, stripped and hashed: the part `canary lower` adds) and
`run_fingerprint` (the second lowering a cpu run makes while XLA compiles its step). A plain script, run by hand.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from perf_records import noisy, run, stepped  # noqa: E402


def year(n: int) -> list:
    tokens = stepped(n, 2 * n // 3, -0.03, seed=1)
    compile_s = noisy(n, 6.0, 0.10, seed=2)
    peak = noisy(n, 9e8, 0.005, seed=3)
    loss = noisy(n, 1.9, 0.005, seed=4)
    return [
        run(i, tokens=float(tokens[i]), compile_s=float(compile_s[i]), peak=float(peak[i]), loss=float(loss[i]))
        for i in range(n)
    ]


def best(fn, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t)
    return min(times), out


def change_points(runs: int, repeat: int) -> None:
    from canary.history.changes import changes, new_steps

    records = year(runs)
    for label, rs in ((f"{runs} runs", records), ("the notifier's 120 days", records[-120:])):
        t, found = best(lambda rs=rs: changes(rs), repeat)
        print(
            f"changes() over {label}, 4 metrics: {t:.2f} s, {len(found)} step(s): "
            + ", ".join(f"{s.metric} at run {s.index} ({s.change:+.1%}, p {s.pvalue:.3f})" for s in found)
        )
        t, _ = best(lambda rs=rs: new_steps(rs, rs[-1]), repeat)
        print(f"new_steps() after the latest of {label}: {t:.2f} s")


def fingerprint(repeat: int) -> None:
    import os

    from canary.config import load_ferry, load_lanes
    from canary.formats.spec import build_spec
    from canary.workload.program import export_train_step, per_device_spec, program_fingerprint, run_fingerprint
    from canary.workload.train import make_train_step

    ferry = load_ferry("moe-canary")[0]
    lanes, _ = load_lanes()
    for lane_name, platform in (("cpu", "cpu"), ("tpu", "tpu")):
        lane = lanes[lane_name]
        spec = per_device_spec(build_spec(ferry, lane, run_id="bench", out_dir=os.devnull), lane.devices)
        spec = spec.model_copy(update={"platform": platform})
        t_export, exported = best(lambda spec=spec: export_train_step(spec, make_train_step), repeat)
        t_hash, fp = best(lambda e=exported: program_fingerprint(e.mlir_module()), repeat)
        print(
            f"{lane_name} lane for {platform}: export {t_export:.2f} s; print, strip and hash {t_hash:.3f} s "
            f"({fp[:12]})"
        )
    spec = build_spec(ferry, lanes["cpu"], run_id="bench", out_dir=os.devnull)
    t, out = best(lambda: run_fingerprint(spec, make_train_step), repeat)
    print(f"run_fingerprint (a cpu run's second lowering, alone): {t:.2f} s ({out['program/fingerprint'][:12]})")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=365)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-fingerprint", action="store_true", help="Time the change points only (no JAX).")
    args = ap.parse_args()
    change_points(args.runs, args.repeat)
    if not args.no_fingerprint:
        fingerprint(args.repeat)


if __name__ == "__main__":
    main()
