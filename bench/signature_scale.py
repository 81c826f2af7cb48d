"""How signatures scale with the size of a log: prints figures, asserts nothing.

    python bench/signature_scale.py            # all of it (writes a 200 MB file under /tmp)
    python bench/signature_scale.py --quick    # the small cases only

Cases: normalising one long run of path-like characters (quadratic before the patterns were made
linear: 18 s for 32 KB, 178 s for 200 KB); extracting the signature of a 100 MB single-line log
(the goal: under 5 s); reading a 200 MB log from a file in bounded memory (its tail and the region
of its error), then extracting its signature.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from canary.signature import extract, normalize, read_window  # noqa: E402

ERROR = "jaxlib._jax.XlaRuntimeError: RESOURCE_EXHAUSTED: Out of memory while trying to allocate 58004733952 bytes.\n"


def timed(fn):
    t = time.perf_counter()
    out = fn()
    return out, time.perf_counter() - t


def path_like(n: int) -> str:
    return ("/home/u/site-packages/" + "a/b-c.d_" * (n // 8))[:n]


def bench_normalize(sizes):
    for n in sizes:
        text = path_like(n)
        _, capped = timed(lambda text=text: normalize(text))
        _, whole = timed(lambda text=text: normalize(text, limit=len(text)))
        print(
            f"normalize  {n // 1024:>6} KB of path-like characters   {capped * 1000:8.1f} ms capped, "
            f"{whole * 1000:8.1f} ms uncapped"
        )


def bench_single_line(mb: int):
    text = "x" * 40 + "/opt/data/" * (mb * 1024 * 1024 // 10) + "\n" + ERROR
    sig, s = timed(lambda: extract(text))
    print(
        f"extract    {mb:>6} MB single-line log + error line       {s:8.2f} s   -> {sig.exception}: {sig.message[:40]}"
    )


def read_and_extract(path: str) -> None:
    """In a child process: read ``path`` in bounded memory, extract, report time and peak RSS."""
    t = time.perf_counter()
    with open(path, errors="replace") as f:
        sig = extract(read_window(f))
    s = time.perf_counter() - t
    print(f"{s:.2f} {peak_rss_mib():.1f} {sig.exception if sig else None}")


def peak_rss_mib() -> float:
    """This process's peak resident memory (VmHWM: unlike ru_maxrss, not inherited across exec)."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def bench_file(mb: int):
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "train.log"
        line = "step 123 loss 4.5678 tokens/s 41002 /home/u/run/attempt-1/out\n"
        with path.open("w") as f:
            n = mb * 1024 * 1024 // len(line)
            for i in range(n):
                if i == n // 2:
                    f.write('Traceback (most recent call last):\n  File "/x/train.py", line 3, in step\n' + ERROR)
                f.write(line)
        size = path.stat().st_size / 2**20

        def child(arg: str) -> list[str]:
            out = subprocess.run([sys.executable, __file__, "--child", arg], capture_output=True, text=True, check=True)
            return out.stdout.split()

        base = child("")  # the interpreter and canary.signature alone
        s, rss, exc = child(str(path))
        print(
            f"read+extract {size:>5.0f} MB file, error in the middle    {float(s):8.2f} s   "
            f"peak RSS {float(rss):.0f} MiB "
            f"(the interpreter alone: {float(base[1]):.0f} MiB) -> {exc}"
        )


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--quick", action="store_true", help="only the small cases")
    ap.add_argument("--child", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child is not None:
        if args.child:
            read_and_extract(args.child)
        else:
            print(f"0 {peak_rss_mib():.1f} -")
        return
    print(f"python {sys.version.split()[0]}, {os.cpu_count()} cpus")
    bench_normalize([32 * 1024, 200 * 1024, 1024 * 1024])
    bench_single_line(10 if args.quick else 100)
    if not args.quick:
        bench_file(200)


if __name__ == "__main__":
    main()
