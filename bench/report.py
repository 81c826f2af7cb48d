"""How long `canary report` takes and how big its page is, for a history of N runs per lane:

    python bench/report.py [--runs 30 100 365] [--lanes 2]

Builds records in memory (every tenth run failing, each lane's latest run with a 200-step
metrics.jsonl in a temporary directory), then times `canary.report.render` (in this process:
the first call pays matplotlib's import) and prints seconds and page size per history size.
A plain script, run by hand.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from datetime import date, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from notify_records import failing, passing  # noqa: E402
from report_records import SUMMARY, write_metrics  # noqa: E402


def history(tmp: Path, runs: int, lanes: int) -> list:
    out = []
    start = date(2026, 1, 1)
    for lane in [f"lane{i}" for i in range(lanes)]:
        for n in range(runs):
            day = (start + timedelta(days=n)).isoformat()
            run_id = f"{day.replace('-', '')}T060000Z-{lane}-{n:04d}"
            if n % 10 == 9:
                out.append(failing(run_id, day, lane=lane))
            else:
                run_dir = tmp / run_id
                if n == runs - 1:
                    write_metrics(run_dir, steps=200)
                out.append(
                    passing(
                        run_id,
                        day,
                        lane=lane,
                        run_dir=str(run_dir),
                        summary={**SUMMARY, "throughput/tokens_per_second": 40000.0 + n},
                    )
                )
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, nargs="+", default=[30, 100, 365])
    ap.add_argument("--lanes", type=int, default=2)
    args = ap.parse_args()
    from canary.report import render

    t0 = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        render(history(Path(tmp), 2, 1))
        print(f"first render (matplotlib import and set-up included): {time.perf_counter() - t0:.2f} s")
        for runs in args.runs:
            records = history(Path(tmp), runs, args.lanes)
            t = time.perf_counter()
            html = render(records)
            print(
                f"{args.lanes} lanes x {runs} runs: {time.perf_counter() - t:.2f} s, "
                f"{len(html.encode()) / 1024:.0f} KiB"
            )


if __name__ == "__main__":
    main()
