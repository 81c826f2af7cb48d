"""The gpu lane's ferries on this host's GPUs, each device running the lane's own per-device program.

The gpu lane is 8 GPUs of one host, reached through Ray. This runs its ferries as a user would
(`python -m canary run gpu --json`), with the lane's settings but two: the local launcher, and the
devices this host has (N). Each ferry's gpu batch becomes N times the lane's per-device share (the
lane's batch over the lane's devices: 32 / 8 = 4 sequences of 8192), so every device compiles and
runs the program a device of the lane runs; only the gradient's all-reduce across eight differs.
Those ferries are copies with one number changed, so canary records each run as an experiment.

It prints, per ferry, the verdict and gates, the compile seconds, the median step, tokens a second
(the host's and a device's), the peak device memory, the grouped-matmul kernel and the platform the
workload ran on. With --cache both, canary trains cold, then warm from the cache the cold run
filled, and fails (cache_inconsistency) unless the two losses agree bit for bit.

    python bench/gpu_lane.py                                   # both ferries, cold
    python bench/gpu_lane.py --ferry moe-canary --cache both --steps 10
    python bench/gpu_lane.py --ferry moe-canary --cache verify --cache-dir C   # C filled by a warm run
    python bench/gpu_lane.py --save DIR                        # also each run's result, its log inside

Needs a CUDA jax (`jax[cuda12]` or `jax[cuda13]`) and, for grug-moe-canary, the `levanter` extra.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FERRIES = ("moe-canary", "grug-moe-canary")

PROBE = """
import json, jax
ds = jax.devices()
print(json.dumps({"backend": jax.default_backend(), "kinds": [d.device_kind for d in ds],
                  "jax": jax.__version__}))
"""


def env() -> dict[str, str]:
    path = os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)
    return {**os.environ, "PYTHONPATH": path, "PYTHONUNBUFFERED": "1"}


def probe() -> dict:
    r = subprocess.run([sys.executable, "-c", PROBE], env=env(), capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"jax did not start:\n{r.stderr[-2000:]}")
    return json.loads(r.stdout.strip().splitlines()[-1])


def lanes_file(tmp: Path, devices: int, kind: str, timeout_s: int) -> Path:
    """The repository's gpu lane with a local launcher and this host's devices."""
    lane = tomllib.loads((ROOT / "lanes.toml").read_text())["lanes"]["gpu"]
    text = f"""[lanes.gpu]
description = "{lane["description"]} (this host: {devices} x {kind}, local launcher)"
accelerator = "{kind}"
platform = "{lane["platform"]}"
devices = {devices}
launcher = {{ kind = "local" }}
attempts = 1
timeout_s = {timeout_s}
cache_dir = "{tmp / "cache"}"
context = "{devices} x {kind}"
"""
    path = tmp / "lanes.toml"
    path.write_text(text)
    return path


def share_ferry(tmp: Path, name: str, devices: int, lane_devices: int) -> tuple[Path, int]:
    """The ferry with its gpu batch at ``devices`` x the lane's per-device share."""
    text = (ROOT / "ferries" / f"{name}.toml").read_text()
    batch = tomllib.loads(text)["lanes"]["gpu"]["batch_size"]
    if batch % lane_devices:
        sys.exit(f"{name}: the gpu lane's batch {batch} does not split over its {lane_devices} devices")
    ours = batch // lane_devices * devices
    head, sep, tail = text.partition("[lanes.gpu]")
    tail, n = re.subn(r"(?m)^batch_size = \d+", f"batch_size = {ours}", tail, count=1)
    assert n == 1, name
    path = tmp / "ferries" / f"{name}.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(head + sep + tail)
    return path, ours


def run(
    tmp: Path, ferry: Path, cache: str, steps: int | None, timeout_s: int, cache_dir: Path | None = None
) -> tuple[float, dict | None, str]:
    argv = [sys.executable, "-m", "canary", "run", "gpu", "--ferry", str(ferry), "--cache", cache]
    argv += ["--cache-dir", str(cache_dir)] if cache_dir else []
    argv += ["--out", str(tmp / "runs"), "--no-history", "--json"]
    argv += ["--steps", str(steps)] if steps else []
    t0 = time.perf_counter()
    try:
        r = subprocess.run(
            argv,
            env={**env(), "CANARY_LANES": str(tmp / "lanes.toml")},
            capture_output=True,
            text=True,
            timeout=timeout_s + 120,
        )
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t0, None, f"canary run did not end in {timeout_s + 120} s"
    wall = time.perf_counter() - t0
    try:
        return wall, json.loads(r.stdout), r.stderr
    except json.JSONDecodeError:
        return wall, None, f"exit {r.returncode}:\n{r.stdout[-1500:]}\n{r.stderr[-3000:]}"


def figures(name: str, batch: int, devices: int, wall: float, res: dict) -> str:
    s = res.get("summary") or {}
    gates = ", ".join(f"{g['name']} {g['status']}" for g in res.get("gates") or [])
    mem = s.get("memory/peak_bytes")
    tok = s.get("throughput/tokens_per_second")
    loss = res.get("final_loss")
    lines = [
        f"{name}: {res['verdict']} ({res.get('classification')}) in {wall:.1f} s wall; "
        f"batch {batch} on {devices} device(s)",
        f"  steps {res.get('steps_completed')}, final loss {loss:.4f}" if loss is not None else "  no final loss",
        f"  compile {(s.get('compile/seconds') or float('nan')):.1f} s; median step "
        f"{1e3 * (s.get('throughput/median_step_seconds') or float('nan')):.1f} ms; "
        + (f"{tok:,.0f} tokens/s ({tok / devices:,.0f} a device)" if tok else "no throughput"),
        f"  peak memory {mem / 2**30:.2f} GiB ({s.get('memory/source')})" if mem else "  no memory figure",
        f"  kernel {s.get('kernels/ragged_dot')}; ran on {s.get('devices/platform')} x {s.get('devices')}",
        f"  cache {json.dumps({k: (res.get('cache') or {}).get(k) for k in ('mode', 'requests', 'hits')})}",
        f"  gates: {gates}",
    ]
    if res.get("error"):
        lines.append(f"  error: {json.dumps(res['error'])[:600]}")
    return "\n".join(lines)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ferry", action="append", choices=FERRIES, help="a ferry (repeatable) [default: both]")
    ap.add_argument("--cache", default="cold", choices=("cold", "warm", "both", "verify"))
    ap.add_argument("--steps", type=int, help="train this many steps instead of the lane's")
    ap.add_argument("--cache-dir", type=Path, help="a compilation cache kept between invocations [default: a new one]")
    ap.add_argument("--timeout", type=int, default=900, help="the lane's timeout_s for each run")
    ap.add_argument("--save", type=Path, help="write each run's result.json, its train.log inside, here")
    args = ap.parse_args()

    p = probe()
    if p["backend"] != "gpu":
        sys.exit(f"jax's backend here is {p['backend']!r}, not gpu: no GPU to run the gpu lane on")
    devices, kind = len(p["kinds"]), p["kinds"][0]
    lane_devices = tomllib.loads((ROOT / "lanes.toml").read_text())["lanes"]["gpu"]["devices"]
    print(f"jax {p['jax']}: {devices} x {kind}; the gpu lane has {lane_devices}", flush=True)
    with tempfile.TemporaryDirectory(prefix="canary-gpu-lane-") as t:
        tmp = Path(t)
        lanes_file(tmp, devices, kind, args.timeout)
        for name in args.ferry or FERRIES:
            ferry, batch = share_ferry(tmp, name, devices, lane_devices)
            wall, res, err = run(tmp, ferry, args.cache, args.steps, args.timeout, args.cache_dir)
            if res is None:
                print(f"{name}: no result ({wall:.1f} s): {err}", flush=True)
                continue
            print(figures(name, batch, devices, wall, res), flush=True)
            if args.save:
                save(args.save, f"{name}-{args.cache}", res)


def save(folder: Path, stem: str, res: dict) -> None:
    """The run's result.json with its attempts' train.log inside, as one new file in ``folder``."""
    folder.mkdir(parents=True, exist_ok=True)
    logs = {}
    for a in res.get("attempts") or []:
        if a.get("log_path") and Path(a["log_path"]).is_file():
            logs[a["number"]] = Path(a["log_path"]).read_text(errors="replace")
    n = len(list(folder.glob(f"{stem}-*.json")))
    (folder / f"{stem}-{n + 1}.json").write_text(json.dumps({**res, "train_logs": logs}, indent=1))


if __name__ == "__main__":
    main()
