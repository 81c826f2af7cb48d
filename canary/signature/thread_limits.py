"""A machine's limits on threads and processes as the runtimes under a training job meet them, each in its own words:
Intel's OpenMP ("OMP: Error #34: System unable to allocate necessary resources for OMP thread:" above "OMP: System
error #11: Resource temporarily unavailable"), Rust's rayon building its global pool for tokenizers ("The global thread
pool has not been initialized.: ThreadPoolBuildError { kind: IOError(Os { code: 11, ... }) }", or a pool the program
builds and unwraps: "called `Result::unwrap()` on an `Err` value: ThreadPoolBuildError { ... }"), Go's runtime
("runtime: failed to create new OS thread (have 772 already; errno=11)", then "fatal error: newosproc") and its cgo
("runtime/cgo: pthread_create failed: Resource temporarily unavailable", then "SIGABRT: abort"). Pure. Which runtime,
which pool and which errno (11: the user's process limit, 12: memory) are the failure; how many threads it had is the
run's. They take their place in :data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`; OpenBLAS's and libgomp's
are :mod:`canary.signature.builds`' "blas-runtime".
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check, match_below

# Cygwin's or MSYS's fork emulation reporting a child that died starting, above bash's own words
_DOFORK = re.compile(
    r"dofork: child -?\d{1,9} - forked process \d{1,9} died unexpectedly, retry \d{1,3}, exit code "
    r"(?P<code>0x[0-9A-Fa-f]{1,8}), errno (?P<errno>\d{1,4})"
)


def _dofork(lines: list[str], i: int, said: str) -> str:
    m = match_below(_DOFORK, lines, max(0, i - 10), i)
    return f"Cygwin: dofork: forked process died unexpectedly, exit code {m['code']}, errno {m['errno']}" if m else said


def _rayon(m: re.Match[str]) -> str:
    pool = "the global thread pool has not been initialized" if m["global"] else "a thread pool could not be built"
    why = f"IOError (os error {m['code']})" if m["code"] else (m["other"] or "").replace(" ", "")
    return f"rayon: {pool}: ThreadPoolBuildError {why}"


THREAD_LIMIT_CHECKS: list[BareError] = [
    environment_check(
        "omp-thread-resources",
        ("Error #34: System unable",),
        # (a log of OpenMP's lines alone may have "OMP: " taken off as their tag)
        r"(?:OMP: |^)Error #34: System unable to allocate necessary resources for OMP thread",
        None,
        message=lambda m: "OMP: Error #34: System unable to allocate necessary resources for OMP thread",
    ),
    # (a pool refused a thread by the machine is its environment; a pool built twice, "kind: GlobalPoolAlreadyInitial
    # ized", a poster's wrap in it, is the program's)
    BareError(
        "rayon-pool",
        ("ThreadPoolBuildError { kind: ",),
        re.compile(
            r"(?P<global>The global thread pool has not been initialized\.: )?ThreadPoolBuildError \{ kind: "
            r"(?:IOError\(Os \{ code: (?P<code>\d{1,4})|(?P<other>[A-Za-z][\w ]{0,60}\w) \})"
        ),
        None,
        lambda said: "environment" if "os error" in said else "runtime_crash",
        message=_rayon,
    ),
    environment_check(
        "go-new-os-thread",
        ("failed to create new OS thread",),
        r"runtime: failed to create new OS thread \(have \d{1,9} already; errno=(?P<errno>\d{1,4})\)",
        None,
        message=lambda m: f"Go runtime: failed to create new OS thread (errno={m['errno']})",
    ),
    # (cgo's failure aborts the process: the abort is what a reader names, this its cause)
    BareError(
        "go-cgo-pthread",
        ("runtime/cgo: pthread_create failed",),
        re.compile(r"runtime/cgo: pthread_create failed: (?P<why>[A-Z][\w ]{1,60}\w)"),
        "SIGABRT",
        message=lambda m: f"runtime/cgo: pthread_create failed: {m['why']}",
    ),
    # bash refused a process by the user's process limit ("-bash: fork: retry: Resource temporarily unavailable", then
    # "fork: Resource temporarily unavailable" once it gives up; a script's name in place of "-bash"): one failure
    # while retrying and after; under Cygwin or MSYS a child that died starting (Cygwin's "dofork: child -1 - forked
    # process 3984 died unexpectedly, retry 0, exit code 0xC0000142, errno 11" above) is another, the same words after
    environment_check(
        "bash-fork",
        ("fork: ",),
        r"(?:^|: )fork: (?:retry: )?Resource temporarily unavailable(?:$|(?=`))",
        None,
        message=lambda m: "bash: fork: Resource temporarily unavailable",
        below=_dofork,
    ),
]
