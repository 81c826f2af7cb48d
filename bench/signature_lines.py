"""The signature's time on a long training log, line by line: prints figures, asserts nothing.

    python bench/signature_lines.py              # 60,000 lines, 7 runs each, the median
    python bench/signature_lines.py --lines 20000 --runs 3

Each case is a log of ``--lines`` lines of one decoration (plain, glog/absl, Ray's worker prefix with
a GitHub Actions timestamp, Python logging, a mix of them and the JAX warnings a run prints), under
the 4 MB that makes the reader window a log, so every line is read; the run's crash (the August
incident's traceback) ends it. Beside it, the scan ``canary run`` makes of the whole log for jax's
CPU-fallback warning on a lane with an accelerator (canary.judge.platform).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from canary.signature import extract  # noqa: E402
from canary.signature.checks import cpu_fallback  # noqa: E402

CRASH = (ROOT / "tests" / "logs" / "incident-2026-08-27.log").read_text()

STYLES = {
    "plain": lambda i: f"step {i} loss={5 + 1 / (i + 1):.4f} tokens/s=12345",
    "glog": lambda i: f"I0828 03:15:02.123456  4242 train.py:123] step {i} loss={5 + 1 / (i + 1):.4f}",
    "ray+actions": lambda i: f"2026-08-27T03:15:02.1234567Z (pid=42) step {i} loss={5 + 1 / (i + 1):.3f}",
    "logging": lambda i: f"INFO:levanter.trainer:step {i} loss {5 + 1 / (i + 1):.4f} mfu 0.31",
    "mixed": lambda i: (
        STYLES["plain"],
        STYLES["glog"],
        STYLES["ray+actions"],
        STYLES["logging"],
        lambda j: (
            "W0828 03:15:02.1 42 xla_bridge.py:889] An NVIDIA GPU may be present on this "
            "machine, but a CUDA-enabled jaxlib is not installed."
        ),
    )[i % 5](i),
}


def log(style: str, lines: int) -> str:
    make = STYLES[style]
    return "\n".join(make(i) for i in range(lines)) + "\n" + CRASH


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lines", type=int, default=60_000)
    ap.add_argument("--runs", type=int, default=7)
    args = ap.parse_args()
    print(f"python {sys.version.split()[0]}; {args.lines:,} lines; median of {args.runs} runs")
    for style in STYLES:
        text = log(style, args.lines)
        times, scans = [], []
        for _ in range(args.runs):
            t = time.perf_counter()
            sig = extract(text)
            times.append(time.perf_counter() - t)
            t = time.perf_counter()
            cpu_fallback(text)
            scans.append(time.perf_counter() - t)
        print(
            f"{style:12} {len(text) / 2**20:5.1f} MB   median {statistics.median(times):6.3f} s   "
            f"min {min(times):6.3f} s   -> {sig.exception if sig else None}   "
            f"fallback scan median {statistics.median(scans):6.3f} s"
        )


if __name__ == "__main__":
    main()
