"""Name the first published version of a stack whose verdict differs from an old version's.

    result = bisect_versions(VersionBisectOptions(packages=["marin-levanter", "marin-haliax"],
                                                  old="0.2.96.dev33307221957", new="0.2.99.dev33617068238",
                                                  lane="tpu", ferry="grug-moe-canary"))
    result.first_fixed       # '0.2.98.dev33498022413': the old end failed, so the first that passes
    result.first_bad         # the first that fails, when the old end passed
    result.log               # one Step per version tested (``sha`` holds the version)

The candidates are the versions the registry publishes for the chosen Python from ``old`` to
``new``, pre-releases and ``.dev`` builds included, ordered by PEP 440; with several packages, the
versions all of them publish. Each candidate is tested in a throwaway environment
(:mod:`canary.bisect.envs`): one venv per Python with the new end's dependencies, each candidate's
wheels laid over it, the packages given moving together with what they pin to their own version.
The test is today's canary, run inside that environment: ``canary lower --json`` (``--test lower``)
or a cpu ``canary run`` (``--test run``), judged as the commit bisect judges a revision, a failure
told apart by its signature fingerprint. A version that cannot be installed or imported is skipped.

The result has the commit bisect's keys (:class:`canary.bisect.BisectResult`) with versions for
commits, and says which way it went (``direction``: regression or fix), which Python it used and
what moved along.
"""

from __future__ import annotations

import math
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canary.bisect import OTHER_FAILURE, TESTS, BisectResult, Progress, Quiet, Step, out_of_budget, run_child
from canary.bisect.cache import cache_root
from canary.bisect.envs import (
    Base,
    Python,
    base_env,
    canary_layer,
    canary_requirements,
    child_env,
    discovered,
    find_python,
    lay,
    listing,
    probe,
)
from canary.bisect.judge import judge_lower_failure, judge_run, test_command
from canary.bisect.versions import between, common, next_end, next_probe, ordered, remaining, window
from canary.errors import ConfigError


@dataclass
class VersionBisectOptions:
    packages: list[str]
    old: str
    new: str
    lane: str
    test: str = "lower"
    ferry: str = "moe-canary"
    python: str | None = None  # a path, command or version; None: this one, else the newest that has both ends
    fingerprint: str | None = None  # the failure to look for (None: the one the failing end shows)
    steps: int | None = None  # run: train this many steps
    budget_s: float | None = None
    other_failure: str = "skip"
    cache: str | None = None  # the environments and wheels (None: the user cache dir)
    test_timeout_s: float = 1800.0


@dataclass
class VersionBisectResult(BisectResult):
    packages: list[str] = field(default_factory=list)
    moved: list[str] = field(default_factory=list)  # what moved with them: they and what they pin
    old: str = ""
    new: str = ""
    direction: str = ""  # regression (the old end passes) | fix (it fails)
    first_fixed: str | None = None
    python: str = ""
    python_version: str = ""
    environment: str = ""  # the base venv
    versions: list[str] = field(default_factory=list)  # the candidates, oldest first
    unpublished: list[str] = field(default_factory=list)  # versions in the window only some packages publish
    untestable: list[dict[str, Any]] = field(default_factory=list)  # an end that cannot be tested, and its stand-in

    @property
    def first(self) -> str | None:
        return self.first_bad or self.first_fixed

    @property
    def found(self) -> bool:
        return self.first is not None

    @property
    def skipped(self) -> list[str]:
        """The versions skipped: those that could not be tested, and those stepped over untested
        between an untestable end and the version standing in for it, oldest first."""
        tested = [s.sha for s in self.log if s.verdict == "skip"]
        return ordered([*tested, *(v for end in self.untestable for v in end["untested"])])

    def to_dict(self) -> dict[str, Any]:
        d = super().to_dict()
        d.update(first=self.first, found=self.found)
        return d


class UnknownPackage(ConfigError):
    """The registry publishes nothing of that name."""


def choose_python(spec: str | None, packages: list[str], old: str, new: str) -> tuple[Python, dict[str, list[str]]]:
    """The interpreter and what the registry publishes of each package for it."""
    if spec is not None:
        py = find_python(spec)
        return py, _listings(py, packages)
    tried = []
    for path in dict.fromkeys([sys.executable, *discovered()]):
        py = probe(path)
        if py is None or tuple(map(int, py.version.split(".")[:2])) < (3, 10):
            continue
        try:
            listings = _listings(py, packages)
            window(common(listings)[0], old, new, " and ".join(packages))
        except UnknownPackage:
            raise
        except ConfigError as e:
            tried.append(f"{py.version}: {e}")
            continue
        return py, listings
    raise ConfigError(
        "no Python on this machine is offered both ends (give one with --python): " + "; ".join(tried or ["none found"])
    )


def _listings(py: Python, packages: list[str]) -> dict[str, list[str]]:
    out = {}
    for name in packages:
        versions = listing(py, name)
        if versions is None:
            raise UnknownPackage(
                f"--package {name}: the registry publishes nothing of that name for "
                f"{py.describe()} (is it spelt as on the registry?)"
            )
        out[name] = versions
    return out


def check(opts: VersionBisectOptions) -> None:
    """Bad input that needs no registry: ConfigError."""
    from canary.config import get_lane, resolve

    if not opts.packages:
        raise ConfigError("say which distributions to bisect with --package NAME (repeat for several)")
    if opts.test not in TESTS:
        raise ConfigError(f"--test {opts.test!r} is not a test; choose from {', '.join(TESTS)}")
    if opts.other_failure not in OTHER_FAILURE:
        raise ConfigError(f"--other-failure {opts.other_failure!r}: choose from {', '.join(OTHER_FAILURE)}")
    window([opts.old, opts.new], opts.old, opts.new)  # both parse, old < new
    lane = get_lane(opts.lane)
    if opts.test == "run" and (lane.platform != "cpu" or lane.launcher.kind != "local"):
        raise ConfigError(
            f"--test run trains here, and lane {opts.lane!r} is not a local cpu lane "
            f"({lane.platform}, {lane.launcher.kind}); use --test lower"
        )
    resolve("ferries", opts.ferry)


class _Tester:
    def __init__(self, opts: VersionBisectOptions, base: Base, cache: Path, scratch: Path, deadline: float | None):
        self.opts, self.base, self.cache, self.scratch, self.deadline = opts, base, cache, scratch, deadline
        self.canary_dir = canary_layer(scratch)
        self.fingerprint = opts.fingerprint

    def left_s(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def __call__(self, version: str, role: str = "") -> Step | None:
        t0 = time.monotonic()
        layer = lay(self.base, self.opts.packages, version, self.cache)
        if layer.error:
            return Step(version, "", "skip", round(time.monotonic() - t0, 2), layer.error, role)
        left = self.left_s()
        limit = self.opts.test_timeout_s if left is None else min(self.opts.test_timeout_s, left)
        o = self.opts
        cmd = test_command(self.base.interpreter, o.test, o.lane, o.ferry, str(self.scratch / "runs"), o.steps)
        cmd[1:1] = ["-P"]  # the working directory's own canary/ (a checkout) must not shadow this one
        if o.test == "lower":  # a candidate's lowering is no preflight of the lane's: not recorded
            cmd += ["--no-history", "--out", str(self.scratch / "runs")]
        p = run_child(cmd, Path.cwd(), child_env(layer, self.canary_dir), max(limit, 1))
        seconds = round(time.monotonic() - t0, 2)
        subject = layer.summary(self.base.moving)
        if p is None:
            if left is not None and limit < o.test_timeout_s:
                return None
            return Step(version, subject, "skip", seconds, f"cannot be tested: no result in {limit:.0f} s", role)
        judge = judge_lower_failure if o.test == "lower" else judge_run
        verdict, detail, seen = judge(p.returncode, p.stdout, p.stderr, self.fingerprint, o.other_failure)
        if self.fingerprint is None and verdict == "bad":
            self.fingerprint = seen
        return Step(version, subject, verdict, seconds, detail, role)


def bisect_versions(opts: VersionBisectOptions, progress: Progress | None = None) -> VersionBisectResult:
    """Find the first version from ``old`` to ``new`` whose verdict differs from ``old``'s."""
    progress = progress or Quiet()
    t0 = time.monotonic()
    deadline = t0 + opts.budget_s if opts.budget_s is not None else None
    check(opts)
    py, listings = choose_python(opts.python, opts.packages, opts.old, opts.new)
    everyone, some = common(listings)
    versions = window(everyone, opts.old, opts.new, " and ".join(opts.packages))
    result = VersionBisectResult(
        opts.lane,
        opts.test,
        "",
        "",
        len(versions) - 1,
        opts.fingerprint,
        packages=list(opts.packages),
        old=opts.old,
        new=opts.new,
        python=py.path,
        python_version=py.version,
        versions=versions,
        unpublished=between(some, opts.old, opts.new),
    )
    cache = cache_root(opts.cache)
    progress.preparing(f"the {py.describe()} environment")
    base = base_env(py, opts.packages, opts.new, canary_requirements(opts.packages), cache, progress.preparing)
    result.moved, result.environment = list(base.moving), str(base.root)
    with tempfile.TemporaryDirectory(prefix="canary-bisect-versions-") as scratch:
        tester = _Tester(opts, base, cache, Path(scratch), deadline)
        progress.started(len(versions), 2 + math.ceil(math.log2(max(len(versions) - 2, 1) + 1)))
        try:
            _run(result, versions, tester, progress)
        finally:
            base.release()
            result.fingerprint = tester.fingerprint
            result.seconds = round(time.monotonic() - t0, 2)
    return result


def _test(
    result: VersionBisectResult, tester: _Tester, progress: Progress, version: str, role: str, left: int
) -> Step | None:
    progress.testing(version, "installing and testing", role)
    step = tester(version, role)
    if step is not None:
        result.log.append(step)
        progress.tested(step, left)
    return step


def _out_of_budget(result: VersionBisectResult, candidates: list[str]) -> None:
    out_of_budget(result, candidates, "the first version that differs")


def _run(result: VersionBisectResult, versions: list[str], tester: _Tester, progress: Progress) -> None:
    n = len(versions)
    verdicts: dict[int, str] = {}
    errors: dict[int, str] = {}
    estimate = math.ceil(math.log2(max(n - 2, 1) + 1))
    while (e := next_end(n, verdicts)).kind == "test":
        role = {0: "old end", n - 1: "new end"}.get(e.index, "")
        step = _test(result, tester, progress, versions[e.index], role, e.left + estimate)
        if step is None:
            return _out_of_budget(result, versions[1:])
        verdicts[e.index] = step.verdict
        errors[e.index] = step.detail
    if e.kind == "none":
        result.untestable = [_untestable(versions, errors, i, None, verdicts) for i in (0, n - 1)]
        result.reason = (
            f"no version from {versions[0]} to {versions[-1]} can be tested on Python {result.python_version} "
            f"(all {n} were tried): --old {versions[0]} {errors[0]}"
        )
        return
    result.untestable = [
        _untestable(versions, errors, end, stand_in, verdicts)
        for end, stand_in in ((0, e.lo), (n - 1, e.hi))
        if end != stand_in
    ]
    if e.kind == "one":
        result.reason = (
            f"only {versions[e.lo]} can be tested from {versions[0]} to {versions[-1]}: "
            f"there is no second verdict to compare it with"
        )
        return
    lo, hi = e.lo, e.hi
    ends = "--old and --new" if (lo, hi) == (0, n - 1) else f"{versions[lo]} and {versions[hi]} (standing in)"
    old, new = verdicts[lo], verdicts[hi]
    if old == new:
        result.reason = (
            f"{ends} both {'pass' if old == 'good' else 'fail the same way'}: "
            f"no version between them changes the verdict"
        )
        result.good, result.bad = (versions[lo], "") if old == "good" else ("", versions[lo])
        return
    result.direction = "regression" if old == "good" else "fix"
    result.good, result.bad = (versions[lo], versions[hi]) if old == "good" else (versions[hi], versions[lo])
    _search(result, versions[lo : hi + 1], {i - lo: v for i, v in verdicts.items() if lo <= i <= hi}, tester, progress)


def _search(
    result: VersionBisectResult, inside: list[str], known: dict[int, str], tester: _Tester, progress: Progress
) -> None:
    """Between two ends whose verdicts differ, the first version whose verdict is the new end's."""
    while True:
        p = next_probe(len(inside), known)
        if p.kind == "found":
            first = inside[p.index]
            if result.direction == "regression":
                result.first_bad = first
            else:
                result.first_fixed = first
            result.subject = next((s.subject for s in result.log if s.sha == first), "")
            return
        if p.kind == "only-skipped":
            result.candidates = [inside[i] for i in p.candidates]
            result.reason = f"only skipped versions are left: the first that differs is one of {len(p.candidates)}"
            return
        if tester.left_s() is not None and tester.left_s() <= 0:
            return _out_of_budget(result, [inside[i] for i in remaining(len(inside), known)])
        step = _test(result, tester, progress, inside[p.index], "", p.left)
        if step is None:
            return _out_of_budget(result, [inside[i] for i in remaining(len(inside), known)])
        known[p.index] = step.verdict


def _untestable(
    versions: list[str], errors: dict[int, str], end: int, stand_in: int | None, verdicts: dict[int, str]
) -> dict[str, Any]:
    """What ``untestable`` says of an end that cannot be tested."""
    lo, hi = (end, stand_in) if end == 0 else (stand_in, end)
    between = range(lo + 1, hi) if stand_in is not None else range(0)
    return {
        "end": "old" if end == 0 else "new",
        "version": versions[end],
        "error": errors[end],
        "stand_in": None if stand_in is None else versions[stand_in],
        "untested": [versions[i] for i in between if i not in verdicts],
    }
