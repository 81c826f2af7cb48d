"""Secret redaction's cost, in one invocation:

    python bench/redact.py [--mb 10]

Prints the throughput (MB/s, median of 5) of ``canary.notify.redact.redact`` over an ordinary
training log (the words that wake a pattern, "token" and "key", included), over a log holding a
secret of every shape, and the time of each hostile input (1 MB each) that would take minutes
if a pattern backtracked over unbounded input. A plain script, run by hand.
"""

from __future__ import annotations

import argparse
import statistics
import time

from canary.notify.redact import redact

LINE = (
    "step 123 train/loss=5.7976 throughput/tokens_per_second=123456.7 compile 1.2s KeyError: 'x' "
    "path=/home/ci/canary/workload/model.py:393 in expert_mlp\n"
)
SECRETS = (
    "ghp_" + "a1B2c3D4e5" * 3 + "f6G7h8 glpat-Ab3De6Gh9Jk2Mn5Pq8St AKIAIOSFODNN7EXAMPLE "
    "WANDB_API_KEY=0123456789abcdef0123456789abcdef01234567 hf_AbCdEfGhIjKlMnOpQrStUvWxYzAbCdEfGh\n"
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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--mb", type=float, default=10.0)
    mb = ap.parse_args().mb
    ordinary = LINE * int(mb * 1e6 / len(LINE))
    leaky = (LINE * 99 + SECRETS) * int(mb * 1e6 / (len(LINE) * 99 + len(SECRETS)))
    for name, text in (("ordinary log", ordinary), ("log with a secret every 100 lines", leaky)):
        s = _median_s(text)
        print(f"{name:36s} {len(text) / 1e6:6.1f} MB  {s:6.2f} s  {len(text) / 1e6 / s:6.1f} MB/s")
    for name, text in HOSTILE.items():
        print(f"hostile: {name:27s} {len(text) / 1e6:6.1f} MB  {_median_s(text, 1):6.2f} s")


if __name__ == "__main__":
    main()
