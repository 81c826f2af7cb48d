"""Where the wall time of `canary run cpu --cold` goes, process start to exit:

    python bench/run_breakdown.py [--steps 20] [--repeat 3] [--lane cpu] [--tty] [--against DIR]
                                  [-- extra run args]

Runs `python -m canary run LANE --cold --steps N --no-history --json` (and, with
--no-trace, once more without the tracer to show what tracing costs) and splits each run's wall
into the harness's own stretches and the workload child's, then prints the medians:

  cli start + imports      the harness process starts, imports click/pydantic/rich and canary
  parent before launch     ferry, lane, gates and golden read; spec written; child spawned
  child start + imports    the workload's interpreter and its imports (jax, optax, canary)
  child setup              backend, mesh, parameters, corpus, the first batch
  compile                  the train step's trace, lowering and compile (the workload's figure)
  steps                    the training loop, first step to summary
  child after training     tracker file, W&B, cache facts, atexit handlers
  child exit -> parent     the child's interpreter teardown, and the harness noticing its exit
  parent after training    gates, signature, versions, commit, history, result.json
  parent after result      loss image, sparkline, verdict table, JSON; interpreter exit

How: a `sitecustomize` module on PYTHONPATH (this script's temporary directory, so both the
harness and its child load it) adds an audit hook that notes the time of a few events (the
first open of the ferry file, the child's spawn, spec.json, metrics.jsonl, tracker_metrics.jsonl,
result.json, loss.svg) and writes them at exit. The tracer's own cost is shown by --no-trace.
With --against DIR (another checkout, e.g. `git worktree add /tmp/before <rev>`), runs of
that checkout and this one alternate, and the medians are printed side by side.
A plain script, run by hand; the figures go to docs/benchmarks.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

TRACER = r"""
import atexit, json, os, sys, time
_out = os.environ.get("CANARY_BREAKDOWN_TRACE")
if _out:
    _marks = {"start": time.time()}
    _watch = {"spec.json", "metrics.jsonl", "tracker_metrics.jsonl", "result.json", "loss.svg", "cache.json"}

    def _note(key):
        if key not in _marks:
            _marks[key] = time.time()

    def _hook(event, args):
        if event == "open":
            path, mode = args[0], args[1]
            if isinstance(path, int) or path is None:
                return
            try:
                path = os.fsdecode(path)
            except TypeError:
                return
            name = os.path.basename(path)
            if name.startswith(".") and name.endswith(".tmp"):  # written whole: a sibling renamed over it
                name = name[1:-4]
            if name in _watch:
                _note(f"{name}:{'w' if mode and any(c in mode for c in 'wax') else 'r'}")
            elif name.endswith(".toml") and os.path.basename(os.path.dirname(path)) == "ferries":
                _note("ferry:r")
        elif event == "subprocess.Popen":
            _note("popen")

    sys.addaudithook(_hook)

    def _write():
        _marks["exit"] = time.time()
        cpu = os.times()
        with open(_out, "a") as f:
            f.write(json.dumps({"pid": os.getpid(), "argv": sys.argv, "marks": _marks,
                                "cpu_s": cpu.user + cpu.system}) + "\n")

    atexit.register(_write)
"""

STAGES = (
    "cli start + imports",
    "parent before launch",
    "child start + imports",
    "child setup",
    "compile",
    "steps",
    "child after training",
    "child exit -> parent",
    "parent after training",
    "parent after result",
)


def one_run(
    lane: str, steps: int, extra: list[str], tmp: Path, trace: bool, tty: bool = False, root: Path = ROOT
) -> dict:
    out = tmp / f"runs-{time.time_ns()}"
    trace_file = tmp / "trace.jsonl"
    trace_file.unlink(missing_ok=True)
    env = {
        **os.environ,
        "JAX_PLATFORMS": "cpu",
        "PYTHONPATH": os.pathsep.join(p for p in (str(root), str(tmp) if trace else "") if p),
    }
    if trace:
        env["CANARY_BREAKDOWN_TRACE"] = str(trace_file)
    args = [
        sys.executable,
        "-m",
        "canary",
        "run",
        lane,
        "--cold",
        "--steps",
        str(steps),
        "--no-history",
        *([] if tty else ["--json"]),
        "--out",
        str(out),
        *extra,
    ]
    if tty:  # in a pseudo-terminal, as a person runs it: the progress bar and the table are drawn
        args = ["script", "-qec", shlex.join(args), "/dev/null"]
    t0 = time.time()
    proc = subprocess.run(args, env=env, capture_output=True, text=True, cwd=root)
    t_end = time.time()
    if proc.returncode not in (0, 1):
        sys.exit(f"canary run failed ({proc.returncode}):\n{proc.stderr[-3000:]}{proc.stdout[-3000:]}")
    [run_dir] = out.iterdir()
    result = json.loads((run_dir / "result.json").read_text())
    row = {"wall": t_end - t0, "verdict": result["verdict"]}
    if not trace:
        return row
    procs = [json.loads(line) for line in trace_file.read_text().splitlines()]
    parent_p = next(p for p in procs if "workload/train" not in " ".join(p["argv"]) and "popen" in p["marks"])
    child_p = next(p for p in procs if "workload/train" in " ".join(p["argv"]))
    parent, child = parent_p["marks"], child_p["marks"]
    summary = result.get("summary", {})
    compile_s = summary.get("compile/seconds", 0.0)
    child_ready = child["spec.json:r"]  # the workload's imports are done when it reads its spec
    loop_open = child["metrics.jsonl:w"]  # opened (append) after the compile
    train_done = child["tracker_metrics.jsonl:w"]  # the summary is made just before
    stages = {
        "cli start + imports": parent["ferry:r"] - t0,
        "parent before launch": parent["popen"] - parent["ferry:r"],
        "child start + imports": child_ready - parent["popen"],
        "child setup": loop_open - child_ready - compile_s,
        "compile": compile_s,
        "steps": train_done - loop_open,
        "child after training": child["exit"] - train_done,
        "child exit -> parent": parent["tracker_metrics.jsonl:r"] - child["exit"],
        "parent after training": parent["result.json:w"] - parent["tracker_metrics.jsonl:r"],
        "parent after result": t_end - parent["result.json:w"],
    }
    row.update(stages)
    row["parent cpu"], row["child cpu"] = parent_p["cpu_s"], child_p["cpu_s"]
    row["parent exit"] = t_end - parent["exit"]  # after the last atexit handler: interpreter teardown
    row["median step"] = summary.get("throughput/median_step_seconds")
    return row


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lane", default="cpu")
    ap.add_argument("--steps", type=int, default=20)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-trace", action="store_true", help="also time runs without the tracer, alternating")
    ap.add_argument("--tty", action="store_true", help="run in a pseudo-terminal without --json (progress bar drawn)")
    ap.add_argument("--against", type=Path, metavar="DIR", help="another checkout, run alternately with this one")
    ap.add_argument("extra", nargs="*", help="further `canary run` arguments (after --)")
    opts = ap.parse_args()
    load0 = os.getloadavg()[0]
    traced, plain, other = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        tmp_p = Path(tmp)
        (tmp_p / "sitecustomize.py").write_text(TRACER)
        checkouts = [ROOT] + ([opts.against.resolve()] if opts.against else [])
        for i in range(opts.repeat):
            for root in checkouts if i % 2 == 0 else checkouts[::-1]:  # neither always on a warmer machine
                (traced if root == ROOT else other).append(
                    one_run(opts.lane, opts.steps, opts.extra, tmp_p, trace=True, tty=opts.tty, root=root)
                )
            if opts.no_trace:
                plain.append(one_run(opts.lane, opts.steps, opts.extra, tmp_p, trace=False, tty=opts.tty))
    load1 = os.getloadavg()[0]

    def med(rows, key):
        vals = [r[key] for r in rows if r.get(key) is not None]
        return statistics.median(vals) if vals else float("nan")

    how = "in a pseudo-terminal" if opts.tty else "--json"
    print(
        f"`canary run {opts.lane} --cold --steps {opts.steps} --no-history {how} {' '.join(opts.extra)}`".rstrip()
        + f", {opts.repeat} run(s), medians; load average {load0:.2f} at the start, {load1:.2f} at the end\n"
    )
    if other:
        print(f"  {'':26s}{'--against':>10s}{'this checkout':>16s}")
        for key in (*STAGES, "wall", "parent cpu", "child cpu"):
            print(f"  {key:26s}{med(other, key):10.2f}{med(traced, key):16.2f}")
        return
    total = 0.0
    for stage in STAGES:
        m = med(traced, stage)
        total += m
        print(f"  {stage:26s}{m:8.2f} s   (" + ", ".join(f"{r[stage]:.2f}" for r in traced) + ")")
    print(f"  {'sum of the medians':26s}{total:8.2f} s")
    print(
        f"  {'wall (median)':26s}{med(traced, 'wall'):8.2f} s   (" + ", ".join(f"{r['wall']:.2f}" for r in traced) + ")"
    )
    print(f"  {'of which parent teardown':26s}{med(traced, 'parent exit'):8.2f} s   (after its atexit handlers)")
    print(
        f"  CPU seconds (user + system): harness {med(traced, 'parent cpu'):.2f}, "
        f"workload {med(traced, 'child cpu'):.2f}"
    )
    print(
        f"  median step {med(traced, 'median step') * 1e3:.1f} ms; verdicts {', '.join(r['verdict'] for r in traced)}"
    )
    if plain:
        print(
            f"\n  wall without the tracer    {med(plain, 'wall'):8.2f} s   ("
            + ", ".join(f"{r['wall']:.2f}" for r in plain)
            + ")"
        )


if __name__ == "__main__":
    main()
