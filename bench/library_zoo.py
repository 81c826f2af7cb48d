"""How far each library regression, and each clean variant, goes out of the grug ferry's bands.

    python bench/library_zoo.py train OUT [--only NAME ...]    # train the zoo and the clean runs
    python bench/library_zoo.py judge RUN_DIR ... [--golden G] # judge run directories
    python bench/library_zoo.py loo RECORDING_DIR [--ferry F]   # each recording run against the others

``train``: each regression of tests/library_zoo.py patched into a copy of the installed
marin-levanter or marin-haliax (an overlay first on PYTHONPATH; the installed packages are hashed
before and after)
and two clean variants the golden was not recorded with (2 devices, a nudge of seed 9), each one
``canary run cpu --ferry grug-moe-canary --cold``, then judged as ``judge`` does.
``judge``: each run against the committed golden (or ``--golden``): per curve, how many times its
band the furthest window went (``x``: over 1.0 is outside), the gates' verdict and the placement.
``loo``: leave-one-out over a golden recording's runs: each run judged against the golden built
from all the others, the false alarms a variant the golden had not seen would raise (``--ferry``:
another ferry's recording, judged with its gates and ``stats_curve`` on).
Prints figures only; nothing is asserted (docs/gates.md, "The model's statistics").
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from canary.config import load_gates  # noqa: E402
from canary.formats.metrics import load_run_metrics  # noqa: E402
from canary.golden import curve, store  # noqa: E402
from canary.golden.curve import window_means  # noqa: E402
from canary.judge import gates as judge_gates  # noqa: E402

FERRY = "grug-moe-canary"
CLEAN = {"clean_devices2": {"XLA_FLAGS": "--xla_force_host_platform_device_count=2"}, "clean_nudged9": {}}
CLEAN["clean_nudged9"]["CANARY_NUDGE_SEED"] = "9"


def worst(golden, metrics) -> tuple[float, float, str]:
    """How many times its band the furthest window of the loss, and of any statistic, went."""

    def times(windows, got) -> float:
        out = 0.0
        for g, w in zip(windows, got, strict=False):
            tol = g.rtol if g.rtol is not None else golden.tolerance["loss_curve"].rtol
            dev = abs(w.mean - g.mean) / abs(g.mean) if g.mean else abs(w.mean)
            out = max(out, dev / tol if tol else float("inf"))
        return out

    loss = times(golden.windows, window_means(metrics.losses or [], golden.window, golden.steps))
    stats = {
        name: times(ws, window_means(metrics.series.get(name, []), golden.window, golden.steps))
        for name, ws in golden.stats.items()
    }
    name = max(stats, key=stats.get) if stats else ""
    return loss, stats.get(name, 0.0), name


def judge(name: str, golden, metrics) -> dict:
    gates_file, _ = load_gates(golden.ferry)
    curves_only = {"throughput": "off", "compile_seconds": "off", "peak_memory": "off", "stats_curve": "FAIL"}
    lane = gates_file.lane("cpu").model_copy(update=curves_only)
    results = {r.name: r for r in judge_gates.evaluate(lane, metrics, golden=golden)}
    loss, stats, stat = worst(golden, metrics)
    stats_gate = results.get("stats_curve")
    placed = stats_gate.detail.split(";")[0] if stats_gate and stats_gate.status == "FAIL" else ""
    row = {
        "run": name,
        "loss_x": round(loss, 2),
        "stats_x": round(stats, 2),
        "worst_stat": stat,
        "failed": sorted(n for n, r in results.items() if r.status == "FAIL"),
        "placed": placed,
    }
    print(
        f"{name:<18} loss {loss:7.2f}x  stats {stats:7.2f}x ({stat or '-'})  "
        f"failed: {', '.join(row['failed']) or '-'}  {placed}",
        flush=True,
    )
    return row


def train(out: Path, only: list[str]) -> list[Path]:
    import library_zoo

    before = library_zoo.installed_digest()
    runs = []
    todo = [(p.name, p) for p in library_zoo.ALL] + [(n, None) for n in CLEAN]
    for name, patch in todo:
        if only and name not in only:
            continue
        env = {**os.environ, "JAX_PLATFORMS": "cpu", "PYTHONPATH": str(ROOT)}
        if patch is not None:
            env["PYTHONPATH"] = f"{library_zoo.overlay(patch, out / 'overlays')}{os.pathsep}{ROOT}"
        env.update(CLEAN.get(name, {}))
        where = out / "runs" / name
        cmd = [sys.executable, "-m", "canary", "run", "cpu", "--ferry", FERRY, "--cold", "--no-history", "--json"]
        r = subprocess.run([*cmd, "--out", str(where)], cwd=ROOT, env=env, capture_output=True, text=True, check=False)
        runs.append(Path(json.loads(r.stdout)["run_dir"]) if r.stdout.strip() else where)
    assert library_zoo.installed_digest() == before, "the installed package changed"
    return runs


def leave_one_out(recording: Path, golden) -> None:
    from canary.run.recording import _read_runs, _run_facts

    facts = _run_facts(_read_runs(recording), golden.metric)
    for i, run in enumerate(facts):
        others = facts[:i] + facts[i + 1 :]
        version, steps, window = golden.ferry_version, golden.steps, golden.window
        g = curve.build(others, ferry=golden.ferry, ferry_version=version, lane="cpu", steps=steps, window=window)
        m = load_run_metrics(Path(_read_runs(recording)[i]["run_dir"]), golden.metric)
        judge(f"{i + 1:02d} {run.variant}", g, m)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("mode", choices=("train", "judge", "loo"))
    ap.add_argument("paths", nargs="+", type=Path)
    ap.add_argument("--ferry", default=FERRY, help="whose committed golden is the default --golden")
    ap.add_argument("--golden", type=Path)
    ap.add_argument("--only", action="append", default=[])
    args = ap.parse_args()
    golden = store.read(args.golden or ROOT / "gates" / f"{args.ferry}.cpu.golden.json")
    if args.mode == "loo":
        leave_one_out(args.paths[0], golden)
        return 0
    runs = train(args.paths[0], args.only) if args.mode == "train" else args.paths
    for run in runs:
        judge(run.parent.name if run.name[:8].isdigit() else run.name, golden, load_run_metrics(run))
    return 0


if __name__ == "__main__":
    sys.exit(main())
