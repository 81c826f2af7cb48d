"""Name the first bad commit without a person: drive ``git bisect`` in a temporary worktree and
test each revision with its own code.

    result = bisect(BisectOptions(lane="tpu", good="v1", bad="HEAD"))     # --test lower
    result.first_bad            # the full sha, or None (result.reason says why)
    result.log                  # one Step per revision tested: good | bad | skip, and why

The user's checkout is never touched: the bisect runs in ``git worktree add --detach`` in a
temporary directory, removed afterwards, whose ``refs/bisect/*`` are its own. Each revision is
tested by a child ``python -m canary ...`` whose working directory and only PYTHONPATH entry is
that worktree, so the package, the ferry and the lanes *at that revision* are what runs.

The tests:

* ``lower``: ``canary lower --lane LANE --json``; bad when the lane's train step fails to lower
  for a platform. Seconds on any CPU; the test for compile and lowering errors.
* ``run``: ``canary run LANE --json --no-history`` on a local cpu lane; bad only when the run fails
  with *the same* signature fingerprint as the failing run. A revision that fails with another
  signature cannot show whether this bug is there (another failure came first): it is skipped
  (``other_failure="good"`` counts it as good instead, for a failure known to come later).

Both ends are tested first: the failure must reproduce at ``bad`` (else nothing is named), and a
``good`` that fails the same way means the bug is older than the window. A revision that cannot
be tested (canary exits 2 there: a ferry that does not validate, an option it lacks; or prints no
result: an import error, a missing dependency) is skipped, as ``git bisect skip`` does.

Judging a child's outcome and reading git's answers are pure (:mod:`canary.bisect.judge`); the
git it needs is :mod:`canary.git`; children and git bisect are run only by ``bisect``.
"""

from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import tempfile
import time
import tomllib
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from canary.bisect.judge import choose_test, judge_lower, judge_run, parse_git_bisect, test_command
from canary.errors import CanaryError, ConfigError
from canary.git import git, newest, resolve, subject, toplevel, worktree

__all__ = [
    "BisectOptions",
    "BisectResult",
    "Step",
    "bisect",
    "check",
    "choose_test",
    "judge_lower",
    "judge_run",
    "newest",
    "parse_git_bisect",
    "lane_test",
]

TESTS = ("lower", "run")
OTHER_FAILURE = ("skip", "good")
# Variables that would make a revision read today's config instead of its own.
CONFIG_ENV = ("CANARY_LANES", "CANARY_FERRIES_PATH", "CANARY_GATES_PATH")


@dataclass
class BisectOptions:
    lane: str
    good: str
    bad: str
    test: str = "lower"
    ferry: str = "moe-canary"  # a name (each revision's own ferries/) or a path
    fingerprint: str | None = None  # run: the failure to look for (None: the one --bad shows)
    steps: int | None = None  # run: train this many steps (None: the lane's)
    checkout: str = "."  # the git checkout whose history is bisected
    budget_s: float | None = None  # stop after this long, saying where the first bad commit must be
    other_failure: str = "skip"  # run: what a revision that fails with another signature counts as
    python: str = sys.executable
    test_timeout_s: float = 1800.0  # one revision's test; longer: skipped


@dataclass
class Step:
    """One revision tested."""

    sha: str
    subject: str
    verdict: str  # good | bad | skip
    seconds: float
    detail: str = ""
    role: str = ""  # "bad end" | "good end" | "" (a bisect step)


@dataclass
class BisectResult:
    lane: str
    test: str
    good: str  # full shas
    bad: str
    commits: int  # in good..bad
    fingerprint: str | None = None
    first_bad: str | None = None
    subject: str = ""
    log: list[Step] = field(default_factory=list)
    seconds: float = 0.0
    reason: str = ""  # why no first bad commit was named
    exhausted: bool = False  # the budget ran out
    candidates: list[str] = field(default_factory=list)  # not found: the commits it must be among

    @property
    def found(self) -> bool:
        return self.first_bad is not None

    @property
    def tested(self) -> int:
        return len(self.log)

    @property
    def skipped(self) -> list[str]:
        return [s.sha for s in self.log if s.verdict == "skip"]

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d.update(found=self.found, tested=self.tested, skipped=self.skipped)
        return d


class Progress(Protocol):
    def preparing(self, what: str) -> None: ...  # long work before the first test (an environment)
    def started(self, commits: int, estimate: int) -> None: ...
    def testing(self, sha: str, subject: str, role: str) -> None: ...
    def tested(self, step: Step, left: int) -> None: ...


class Quiet:
    def preparing(self, what: str) -> None: ...
    def started(self, commits: int, estimate: int) -> None: ...
    def testing(self, sha: str, subject: str, role: str) -> None: ...
    def tested(self, step: Step, left: int) -> None: ...


def lane_test(kind: str | None, lane_name: str) -> str | None:
    """:func:`choose_test` for a lane of this checkout's lanes file (None: an unknown lane)."""
    from canary.config import get_lane

    try:
        lane = get_lane(lane_name)
    except ConfigError:
        return None
    return choose_test(kind, lane.platform, lane.launcher.kind)


def lane_at(checkout: Path, name: str) -> dict[str, Any]:
    """The lane as the checkout's own lanes.toml defines it (raw: its keys may be newer than ours)."""
    path = checkout / "lanes.toml"
    try:
        lanes = tomllib.loads(path.read_text()).get("lanes") or {}
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path}: cannot read the lanes: {e}") from None
    if name not in lanes:
        raise ConfigError(f"unknown lane {name!r}; {path.name} at --bad defines: {', '.join(lanes)}")
    return lanes[name]


# ----------------------------------------------------------------------------- testing a revision


def run_child(cmd: list[str], cwd: Path, env: dict[str, str], timeout: float) -> subprocess.CompletedProcess | None:
    """Run a revision's test in a session of its own; past ``timeout`` the whole session (a run's
    workload too) is killed and None returned."""
    proc = subprocess.Popen(
        cmd, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:  # a timeout, or the user's ^C: nothing of the test may outlive it
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.communicate()
        if sys.exc_info()[0] is subprocess.TimeoutExpired:
            return None
        raise
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


class _Tester:
    def __init__(self, opts: BisectOptions, checkout: Path, scratch: Path, deadline: float | None):
        self.opts, self.checkout, self.scratch, self.deadline = opts, checkout, scratch, deadline
        self.fingerprint = opts.fingerprint
        self.env = {k: v for k, v in os.environ.items() if k not in CONFIG_ENV}
        self.env.update(PYTHONPATH=str(checkout), PYTHONDONTWRITEBYTECODE="1")
        # a revision's test is no run or preflight of the lane's: what it would record (a `canary
        # lower` records its preflight) goes to a history of its own, whatever the revision's flags
        self.env.update(CANARY_HISTORY=str(scratch / "history.sqlite3"), CANARY_SPOOL_DIR=str(scratch / "spool"))

    def left_s(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def command(self) -> list[str]:
        opts = self.opts
        return test_command(opts.python, opts.test, opts.lane, opts.ferry, str(self.scratch), opts.steps)

    def __call__(self, sha: str, role: str = "") -> Step | None:
        """Test the worktree's HEAD (``sha``); None when the budget ran out meanwhile."""
        left = self.left_s()
        limit = self.opts.test_timeout_s if left is None else min(self.opts.test_timeout_s, left)
        t0 = time.monotonic()
        p = run_child(self.command(), self.checkout, self.env, max(limit, 1))
        if p is None:
            if left is not None and limit < self.opts.test_timeout_s:
                return None
            return Step(
                sha,
                subject(self.checkout, sha),
                "skip",
                round(time.monotonic() - t0, 2),
                f"cannot be tested: no result in {limit:.0f} s",
                role,
            )
        seconds = round(time.monotonic() - t0, 2)
        if self.opts.test == "lower":
            verdict, detail = judge_lower(p.returncode, p.stdout, p.stderr)
        else:
            verdict, detail, seen = judge_run(
                p.returncode, p.stdout, p.stderr, self.fingerprint, self.opts.other_failure
            )
            if self.fingerprint is None and verdict == "bad":
                self.fingerprint = seen
        return Step(sha, subject(self.checkout, sha), verdict, seconds, detail, role)


# ----------------------------------------------------------------------------- the bisect


def check(opts: BisectOptions) -> tuple[str, str, str]:
    """(repo, good, bad) as full shas; bad input raises ConfigError."""
    if opts.test not in TESTS:
        raise ConfigError(f"--test {opts.test!r} is not a test; choose from {', '.join(TESTS)}")
    if opts.other_failure not in OTHER_FAILURE:
        raise ConfigError(f"--other-failure {opts.other_failure!r}: choose from {', '.join(OTHER_FAILURE)}")
    repo = toplevel(opts.checkout)
    good, bad = resolve(repo, opts.good, "--good"), resolve(repo, opts.bad, "--bad")
    if good == bad:
        raise ConfigError(f"--good and --bad are the same commit ({good[:12]}): there is nothing to bisect")
    if git(repo, "merge-base", "--is-ancestor", "--end-of-options", good, bad).returncode != 0:
        raise ConfigError(f"--good {opts.good} ({good[:12]}) is not an ancestor of --bad {opts.bad} ({bad[:12]})")
    return repo, good, bad


def bisect(opts: BisectOptions, progress: Progress | None = None) -> BisectResult:
    """Find the first commit in ``good..bad`` whose test is bad. Bad input raises ConfigError."""
    progress = progress or Quiet()
    t0 = time.monotonic()
    deadline = t0 + opts.budget_s if opts.budget_s is not None else None
    repo, good, bad = check(opts)
    commits = int(
        git(repo, "rev-list", "--count", "--end-of-options", f"{good}..{bad}", "--", check=True).stdout.strip()
    )
    result = BisectResult(opts.lane, opts.test, good, bad, commits, opts.fingerprint)
    with worktree(repo, bad) as checkout, tempfile.TemporaryDirectory(prefix="canary-bisect-runs-") as scratch:
        lane = lane_at(checkout, opts.lane)
        launcher = (lane.get("launcher") or {}).get("kind", "local")
        if opts.test == "run" and (lane.get("platform", "cpu") != "cpu" or launcher != "local"):
            raise ConfigError(
                f"--test run trains here, and lane {opts.lane!r} is not a local cpu lane "
                f"({lane.get('platform', 'cpu')}, {launcher}); use --test lower"
            )
        tester = _Tester(opts, checkout, Path(scratch), deadline)
        progress.started(commits, 2 + math.ceil(math.log2(commits)) if commits > 1 else 2)
        try:
            _run(result, repo, checkout, tester, progress)
        finally:
            result.fingerprint = tester.fingerprint
            result.seconds = round(time.monotonic() - t0, 2)
    return result


def out_of_budget(result: BisectResult, candidates: list[str], what: str = "the first bad commit") -> None:
    result.exhausted = True
    result.candidates = candidates
    result.reason = f"the budget ran out after {result.tested} tests; {what} is one of {len(candidates)}"


def _test(result: BisectResult, tester: _Tester, progress: Progress, sha: str, role: str, left: int) -> Step | None:
    progress.testing(sha, subject(tester.checkout, sha), role)
    step = tester(sha, role)
    if step is not None:
        result.log.append(step)
        progress.tested(step, left)
    return step


def _run(result: BisectResult, repo: str, checkout: Path, tester: _Tester, progress: Progress) -> None:
    good, bad = result.good, result.bad
    window = git(repo, "rev-list", "--end-of-options", f"{good}..{bad}", "--").stdout.split()
    estimate = math.ceil(math.log2(len(window))) if len(window) > 1 else 0
    step = _test(result, tester, progress, bad, "bad end", estimate + 1)
    if step is None:
        return out_of_budget(result, window)
    if step.verdict != "bad":
        result.reason = "the failure does not reproduce at --bad" if step.verdict == "good" else f"--bad {step.detail}"
        return
    git(checkout, "switch", "--quiet", "--detach", "--end-of-options", good, check=True)
    step = _test(result, tester, progress, good, "good end", estimate)
    if step is None:
        return out_of_budget(result, window)
    if step.verdict == "bad":
        result.reason = "the failure reproduces at --good too: it is older than the window"
        return
    answer = git(checkout, "bisect", "start", bad, good, "--")  # full ids (check); bisect has no --end-of-options
    while True:
        kind, shas, left = parse_git_bisect(answer.stdout)
        if kind == "found":
            result.first_bad, result.subject = shas[0], subject(repo, shas[0])
            return
        if kind == "only-skipped":
            result.candidates = shas
            result.reason = f"only skipped commits are left: the first bad commit is one of {len(shas)}"
            return
        if kind != "next":
            raise CanaryError(f"git bisect said: {(answer.stdout + answer.stderr).strip()[-500:]}")
        if tester.left_s() is not None and tester.left_s() <= 0:
            return out_of_budget(result, _remaining(checkout))
        step = _test(result, tester, progress, shas[0], "", left)
        if step is None:
            return out_of_budget(result, _remaining(checkout))
        answer = git(checkout, "bisect", step.verdict)


def _remaining(checkout: Path) -> list[str]:
    """The commits the first bad one can still be: below refs/bisect/bad, above every good."""
    goods = git(checkout, "for-each-ref", "--format=%(objectname)", "refs/bisect/good-*").stdout.split()
    return git(
        checkout, "rev-list", "--end-of-options", "refs/bisect/bad", *[f"^{g}" for g in goods], "--"
    ).stdout.split()
