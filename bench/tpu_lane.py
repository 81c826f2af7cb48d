"""Where `canary lower --lane tpu`'s time goes on a CPU host: the lowering on the lane's topology
(libtpu's compile-only devices), the megablox parity check in interpret mode, and libtpu's compile.

It runs `python -m canary lower --lane tpu --json` as a user would, for each case, and prints the
wall seconds with the parts the result reports (the topology's device query, its lowering, the
parity check, the compile). libtpu must be importable (the `tpu` extra) for the topology cases.

    python bench/tpu_lane.py                    # moe-canary and grug-moe-canary, no compile
    python bench/tpu_lane.py --compile-small    # also a reduced-shape (8 x 256) compile of moe-canary
    python bench/tpu_lane.py --only-compile --compile-small --warm --options
    python bench/tpu_lane.py --only-compile --determinism 2

--warm compiles the small shape a second time (served from the host's compile cache, its own
folder). --options compiles it afresh under other batch sizes and libtpu/XLA flags (OPTIONS),
printing the compile seconds, the per-chip memory and whether the compiled program (its
fingerprint) is the baseline's: what an option would change about what is checked. Each compile
also prints libtpu's own stage durations (HLO passes, backend passes, code generation, end to
end), read from the child's log with libtpu's INFO logging on. --determinism N compiles the small
shape N more times afresh and says whether every compile gave the same executable, byte for byte.
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
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lower(*args: str) -> tuple[float, dict]:
    t0 = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-m", "canary", "lower", "--lane", "tpu", "--no-history", "--json", *args],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (str(ROOT), os.environ.get("PYTHONPATH")) if p)},
        capture_output=True,
        text=True,
    )
    wall = time.perf_counter() - t0
    if not r.stdout.strip():  # no result at all: what canary said instead (e.g. libtpu missing)
        sys.exit(f"canary lower {' '.join(args)} gave no result (exit {r.returncode}):\n{r.stderr[-2000:]}")
    return wall, json.loads(r.stdout)["platforms"][0]


def figures(name: str, wall: float, p: dict) -> str:
    t, q = p.get("topology") or {}, p.get("parity") or {}
    c = t.get("compile") or {}
    parts = [
        f"{name:<34} wall {wall:6.1f} s",
        f"one chip {p['seconds']:.1f} s",
        f"topology {t.get('name')} query {t.get('topology_seconds', '-')} s lower {t.get('lower_seconds', '-')} s",
    ]
    if q:
        parts.append(f"parity {q['seconds']:.1f} s ({len(q['checks'])} comparisons)")
    if c:
        served = " (served from the host cache)" if (c.get("host_cache") or {}).get("served") else ""
        parts.append(f"compile {c.get('seconds')} s{served} ok={c.get('ok')}")
        if c.get("memory"):
            m = c["memory"]
            parts.append(f"temp {m['temp'] / 2**30:.3f} GiB, total {m['total'] / 2**30:.3f} GiB/chip")
        if stages(t.get("log")) and not (c.get("host_cache") or {}).get("served"):
            parts.append(f"libtpu stages: {stages(t.get('log'))}")
    return "; ".join(parts)


# (name, the ferry's batch_size at the tpu lane, extra environment); seq_len stays 256
OPTIONS = [
    ("batch 4 (half)", 4, {}),
    ("batch 16 (double)", 16, {}),
    ("XLA_FLAGS=--xla_backend_optimization_level=0", 8, {"XLA_FLAGS": "--xla_backend_optimization_level=0"}),
    ("LIBTPU_INIT_ARGS=--xla_jf_llvm_use_fast_opt=true", 8, {"LIBTPU_INIT_ARGS": "--xla_jf_llvm_use_fast_opt=true"}),
    (
        "LIBTPU_INIT_ARGS=--xla_tpu_autotune_memory_space_assignment=false",
        8,
        {"LIBTPU_INIT_ARGS": "--xla_tpu_autotune_memory_space_assignment=false"},
    ),
]


def small_ferry(tmp: Path, batch: int = 8) -> Path:
    """moe-canary with its tpu lane at ``batch`` x 256 (attention in blocks of 128 queries)."""
    text = (ROOT / "ferries" / "moe-canary.toml").read_text()
    head, sep, tail = text.partition("[lanes.tpu]")
    tail = tail.replace("batch_size = 128", f"batch_size = {batch}", 1).replace("seq_len = 8192", "seq_len = 256", 1)
    tail = tail.replace("attention_block = 512", "attention_block = 128", 1)  # under the shorter sequence
    path = tmp / f"moe-small-{batch}.toml"
    path.write_text(head + sep + tail)
    return path


def determinism(tmp: Path, base: dict, n: int) -> None:
    """The small shape compiled ``n`` more times, each afresh in a process of its own: whether libtpu
    gives the first compile's executable byte for byte (what ``--cache verify`` compares on a tpu
    lane) and the same compiled program."""
    digests, programs = [base.get("executable")], [base.get("fingerprint")]
    for i in range(n):
        wall, p = compile_small(tmp, 8, {}, "--no-compile-cache")
        c = (p.get("topology") or {}).get("compile") or {}
        digests.append(c.get("executable"))
        programs.append(c.get("fingerprint"))
        print(f"compile {i + 2}: {figures('moe-canary 8 x 256 --compile', wall, p)}", flush=True)
    same = None not in digests and len(set(digests)) == 1
    print(
        f"executables: {len(set(digests))} distinct of {len(digests)} compiles "
        f"({'byte-identical' if same else 'NOT identical'}: {', '.join(str(d)[:12] for d in digests)}); "
        f"compiled programs: {len(set(programs))} distinct",
        flush=True,
    )


# libtpu logs its compile's stages (HLO passes, backend passes, code generation, end to end) at INFO
LOG_STAGES = {"TPU_STDERR_LOG_LEVEL": "0", "TPU_MIN_LOG_LEVEL": "0"}
_STAGE = re.compile(r"\] (\w+) stage duration: (\S+)")
_PART = re.compile(r"([\d.]+)(h|ms|us|ns|m|s)")
_UNIT = {"h": 3600, "m": 60, "s": 1, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def seconds(duration: str) -> float:
    """An absl duration as libtpu logs it ("242.4ms", "3.29s", "2m26.358s") in seconds."""
    return sum(float(n) * _UNIT[u] for n, u in _PART.findall(duration))


def stages(log: str | None) -> str:
    """libtpu's stage durations for the last compile in the child's log, in seconds (a stage
    logged more than once, once per program, is summed)."""
    if not log or not Path(log).is_file():
        return ""
    text = Path(log).read_text(errors="replace").rsplit("=== canary lower on", 1)[-1]
    found: dict[str, float] = {}
    for m in _STAGE.finditer(text):
        found[m[1]] = found.get(m[1], 0.0) + seconds(m[2])
    return ", ".join(f"{k.lower()} {v:.1f} s" for k, v in found.items())


def compile_small(tmp: Path, batch: int, env: dict[str, str], *extra: str) -> tuple[float, dict]:
    env = {**LOG_STAGES, **env}
    for k, v in env.items():
        os.environ[k] = v
    try:
        return lower("--ferry", str(small_ferry(tmp, batch)), "--no-parity", "--compile", *extra)
    finally:
        for k in env:
            os.environ.pop(k, None)


def options(tmp: Path, base: dict) -> None:
    """Each option's compile against the baseline's (``base``: its compile result)."""
    for name, batch, env in OPTIONS:
        wall, p = compile_small(tmp, batch, env, "--no-compile-cache")
        c = (p.get("topology") or {}).get("compile") or {}
        same = c.get("fingerprint") == base.get("fingerprint")
        ratio = c["memory"]["temp"] / base["memory"]["temp"] if c.get("memory") and base.get("memory") else None
        print(
            figures(f"{name}", wall, p)
            + f"; program {'the same' if same else 'another'}"
            + (f"; temp x{ratio:.2f} of batch 8's" if ratio else ""),
            flush=True,
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--compile-small", action="store_true")
    ap.add_argument("--only-compile", action="store_true", help="skip the lowerings and the lane-shape compile")
    ap.add_argument("--warm", action="store_true", help="compile the small shape again: the host cache serves it")
    ap.add_argument("--options", action="store_true", help="compile the small shape under OPTIONS")
    ap.add_argument(
        "--determinism",
        type=int,
        default=0,
        metavar="N",
        help="compile the small shape N more times afresh: are the executables byte-identical?",
    )
    a = ap.parse_args()
    print(f"load: {subprocess.run(['uptime'], capture_output=True, text=True).stdout.strip()}", flush=True)
    if not a.only_compile:
        for ferry in ("moe-canary", "grug-moe-canary"):
            print(figures(f"{ferry} (lower + parity)", *lower("--ferry", ferry)), flush=True)
        print(figures("moe-canary --compile (lane shape)", *lower("--no-parity", "--compile")), flush=True)
    if a.compile_small or a.warm or a.options or a.determinism:
        with tempfile.TemporaryDirectory() as tmp:
            os.environ["XDG_CACHE_HOME"] = str(Path(tmp) / "cache")  # a host compile cache of its own
            wall, p = compile_small(Path(tmp), 8, {})
            print(figures("moe-canary 8 x 256 --compile", wall, p), flush=True)
            if a.warm:
                print(figures("the same again (host cache)", *compile_small(Path(tmp), 8, {})), flush=True)
            if a.options:
                options(Path(tmp), (p.get("topology") or {}).get("compile") or {})
            if a.determinism:
                determinism(Path(tmp), (p.get("topology") or {}).get("compile") or {}, a.determinism)


if __name__ == "__main__":
    main()
