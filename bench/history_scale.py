"""How `canary report`, `canary history --changes` and `canary history --json` scale with the
history's size:

    python bench/history_scale.py [--rows 2500 10000 100000] [--series 8] [--repeat 3] [--against DIR]

Builds a SQLite history of N rows (``--series`` series, lanes times two ferries, taking turns
ten minutes apart; every tenth run failing with one of five fingerprints, a short run now and
then; a program fingerprint that changes every 50 runs; throughput with 2% noise and a 3% step
at two thirds of each series, compile time, peak memory and final loss noisy), then runs each
command as its own process ``--repeat`` times and prints the median wall and CPU seconds (user
and system: on a shared machine the steadier figure) and the largest peak RSS (the child's
``ru_maxrss``). With ``--against DIR`` (another checkout), each command runs alternately with
that checkout's code and the ratio (its median over this one's) is printed; ``--timeout`` stops
a command that runs longer. A plain script, run by hand.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import signal
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]

from notify_records import signature  # noqa: E402
from perf_records import noisy, run, stepped  # noqa: E402

from canary.history.sqlite import SCHEMA  # noqa: E402

START = datetime(2024, 1, 1, tzinfo=UTC)
FINGERPRINTS = [f"{n:x}" * 12 for n in range(10, 15)]


def build(path: Path, rows: int, n_series: int) -> None:
    """A history of ``rows`` runs over ``n_series`` series, written in one transaction."""
    keys = [(f"lane{i // 2}", ("moe-canary", "grug-moe-canary")[i % 2]) for i in range(n_series)]
    per = -(-rows // n_series)
    figures = {
        k: (
            stepped(per, 2 * per // 3, -0.03, seed=i),
            noisy(per, 6.0, 0.10, seed=100 + i),
            noisy(per, 9e8, 0.005, seed=200 + i),
            noisy(per, 1.9, 0.005, seed=300 + i),
        )
        for i, k in enumerate(keys)
    }
    conn = sqlite3.connect(path)
    conn.executescript(SCHEMA)
    batch = []
    for n in range(rows):
        (lane, ferry), i = keys[n % n_series], n // n_series
        tokens, compile_s, peak, loss = (float(x[i]) for x in figures[(lane, ferry)])
        when = START + timedelta(minutes=10 * n)
        program = {"program/fingerprint": f"{i // 50:016x}", "program/platform": "cpu"}  # a new one every 50 runs
        r = run(i, lane, ferry, tokens=tokens, compile_s=compile_s, peak=peak, loss=loss, **program)
        r = replace(r, run_id=f"{when:%Y%m%dT%H%M%SZ}-{lane}-{ferry}-{i:06d}", started_at=when.isoformat())
        if i % 10 == 9:
            r = replace(
                r,
                verdict="fail",
                classification="deterministic",
                signature=signature(FINGERPRINTS[(i // 10) % len(FINGERPRINTS)]),
            )
        elif i % 97 == 50:
            r = replace(r, steps_requested=10, ferry_steps=200, steps_completed=10)
        fp = r.signature.fingerprint if r.signature else None
        batch.append((r.run_id, r.lane, r.started_at, r.verdict, fp, json.dumps(r.to_dict())))
    conn.executemany("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?)", batch)
    conn.commit()
    conn.close()


def timed(argv: list[str], env: dict[str, str], cwd: Path, timeout: float) -> tuple[float, float, int, bool]:
    """(wall seconds, CPU seconds, peak RSS in bytes, finished) of one child process, run in
    ``cwd`` (``python -m`` puts the working directory first on the path: the checkout's code)."""
    t = time.perf_counter()
    proc = subprocess.Popen(
        argv, env=env, cwd=cwd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True
    )
    deadline, finished = t + timeout, True
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            os.killpg(proc.pid, signal.SIGKILL)
            pid, status, usage = os.wait4(proc.pid, 0)
            finished = False
            break
        time.sleep(0.02)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t
    err = proc.stderr.read().decode(errors="replace")
    proc.stderr.close()
    if finished and proc.returncode != 0:
        raise SystemExit(f"{' '.join(argv)} exited {proc.returncode}:\n{err}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss * 1024, finished


COMMANDS = {
    "report": lambda db, tmp: ["report", "--history", db, "--out", str(tmp / "report.html")],
    "history --changes": lambda db, tmp: ["history", "--history", db, "--changes", "--json"],
    "history --json": lambda db, tmp: ["history", "--history", db, "--json"],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--rows", type=int, nargs="+", default=[2500, 10000, 100000])
    ap.add_argument("--series", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--against", type=Path, default=None, help="another checkout to run alternately")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds before a command is stopped")
    ap.add_argument("--only", choices=sorted(COMMANDS), nargs="+", default=None)
    args = ap.parse_args()
    checkouts = [("this", ROOT)] + ([("against", args.against.resolve())] if args.against else [])
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}, {args.series} series")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for rows in args.rows:
            db = tmp / f"h{rows}.sqlite3"
            t = time.perf_counter()
            # built in a child: a forked child's peak RSS counts the parent's pages before exec
            child = multiprocessing.get_context("fork").Process(target=build, args=(db, rows, args.series))
            child.start()
            child.join()
            print(f"{rows} rows built in {time.perf_counter() - t:.1f} s ({db.stat().st_size / 2**20:.0f} MiB)")
            for name in args.only or COMMANDS:
                walls: dict[str, list[float]] = {label: [] for label, _ in checkouts}
                cpus: dict[str, list[float]] = {label: [] for label, _ in checkouts}
                peaks: dict[str, int] = {label: 0 for label, _ in checkouts}
                cut: dict[str, bool] = {label: False for label, _ in checkouts}
                for _ in range(args.repeat):
                    for label, root in checkouts:
                        if cut[label]:
                            continue
                        env = {**os.environ, "PYTHONPATH": str(root), "CANARY_SPOOL_DIR": str(tmp / "spool")}
                        argv = [sys.executable, "-m", "canary", *COMMANDS[name](str(db), tmp)]
                        wall, cpu, peak, finished = timed(argv, env, root, args.timeout)
                        walls[label].append(wall)
                        cpus[label].append(cpu)
                        peaks[label] = max(peaks[label], peak)
                        cut[label] = not finished
                for label, _ in checkouts:
                    med = statistics.median(walls[label])
                    over = " (stopped at the timeout)" if cut[label] else ""
                    cpu = statistics.median(cpus[label])
                    line = (
                        f"  {name:18} {label:8} median {med:7.2f} s{over} ({cpu:.2f} s CPU), "
                        f"peak RSS {peaks[label] / 2**20:5.0f} MiB"
                    )
                    if label == "against" and walls["this"]:
                        line += f", ratio {med / statistics.median(walls['this']):.1f}x"
                    print(line, flush=True)


if __name__ == "__main__":
    main()
