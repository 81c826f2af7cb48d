"""Secret redaction's cost, in one invocation:

    python bench/redact.py [--mb 10] [--file-mb 300] [--repeat 5]

Prints the throughput (MB/s, median of --repeat) of ``canary.text.redact.redact`` over an
ordinary training log (the words that wake a pattern, "token" and "key", included), over a log
holding a secret of five shapes every 100 lines, and over a coloured one (structlog's console
style); then of ``redact_file`` over a log file of --file-mb (the leaky kind, written once to a
temporary folder; median of 3); and the time of each hostile input (1 MB each) that would take
minutes if a pattern backtracked over unbounded input. A plain script, run by hand.
"""

from __future__ import annotations

import argparse
import statistics
import tempfile
import time
from pathlib import Path

from canary.text.redact import redact, redact_file

LINE = (
    "step 123 train/loss=5.7976 throughput/tokens_per_second=123456.7 compile 1.2s KeyError: 'x' "
    "path=/home/ci/canary/workload/model.py:393 in expert_mlp\n"
)
SECRETS = (
    "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8 glpat-Ab3De6Gh9Jk2Mn5Pq8St AKIAIOSFODNN7EXAMPLE "
    "WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567 hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh\n"
)
COLOURED = (
    "\x1b[2m2026-12-02 05:00:00\x1b[0m [\x1b[32minfo     \x1b[0m] \x1b[1mstep\x1b[0m "
    "\x1b[36mstep\x1b[0m=\x1b[35m123\x1b[0m "
    "\x1b[36mloss\x1b[0m=\x1b[35m5.7976\x1b[0m \x1b[36mtokens_per_second\x1b[0m=\x1b[35m123456.7\x1b[0m\n"
)
HOSTILE = {
    "A run": "A" * 1_000_000,
    "TOKEN run": "TOKEN" * 200_000,
    "long identifier": "X_" * 500_000 + "TOKEN",
    "eyJ run": "eyJ" * 333_333,
    "%3D run": "%3D" * 333_333,
    "PEM headers": "-----BEGIN PRIVATE KEY-----" * 37_000,
    "PEM without end": "-----BEGIN RSA PRIVATE KEY-----" + "A" * 1_000_000,
    "TOKEN= run": "TOKEN=" * 166_666,
    "bearer run": "bearer " * 142_857,
    "netrc run": "machine password " * 58_823,
}


def _median_s(text: str, repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        redact(text, ["opaque-secret-value"])
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def _file_s(mb: float, leaky: str, repeat: int = 3) -> float:
    times = []
    with tempfile.TemporaryDirectory(prefix="bench-redact-") as d:
        log = Path(d) / "train.log"
        for _ in range(repeat):
            with log.open("w") as f:
                for _ in range(int(mb * 1e6 / len(leaky))):
                    f.write(leaky)
            t0 = time.perf_counter()
            redact_file(log, ["opaque-secret-value"])
            times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=float, default=10.0)
    ap.add_argument("--file-mb", type=float, default=0.0, help="also redact a log file this big (0: not)")
    ap.add_argument("--repeat", type=int, default=5)
    a = ap.parse_args()
    mb = a.mb
    ordinary = LINE * int(mb * 1e6 / len(LINE))
    block = LINE * 99 + SECRETS
    leaky = block * int(mb * 1e6 / len(block))
    coloured = (COLOURED * 99 + SECRETS) * int(mb * 1e6 / (len(COLOURED) * 99 + len(SECRETS)))
    for name, text in (
        ("ordinary log", ordinary),
        ("log with a secret every 100 lines", leaky),
        ("coloured log, a secret every 100", coloured),
    ):
        s = _median_s(text, a.repeat)
        print(f"{name:36s} {len(text) / 1e6:6.1f} MB  {s:6.2f} s  {len(text) / 1e6 / s:6.1f} MB/s", flush=True)
    if a.file_mb:
        s = _file_s(a.file_mb, block * 100)
        print(f"{'redact_file, a secret every 100':36s} {a.file_mb:6.1f} MB  {s:6.2f} s  {a.file_mb / s:6.1f} MB/s")
    for name, text in HOSTILE.items():
        print(f"hostile: {name:27s} {len(text) / 1e6:6.1f} MB  {_median_s(text, 1):6.2f} s")


if __name__ == "__main__":
    main()
