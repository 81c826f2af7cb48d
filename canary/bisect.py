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

Judging a child's outcome and reading git's answers are pure (``judge_lower``, ``judge_run``,
``parse_git_bisect``); git and the children are run only by ``bisect``.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import tomllib
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterator, Protocol

from canary.errors import CanaryError, ConfigError

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
    def started(self, commits: int, estimate: int) -> None: ...
    def testing(self, sha: str, subject: str, role: str) -> None: ...
    def tested(self, step: Step, left: int) -> None: ...


class Quiet:
    def started(self, commits: int, estimate: int) -> None: ...
    def testing(self, sha: str, subject: str, role: str) -> None: ...
    def tested(self, step: Step, left: int) -> None: ...


# ----------------------------------------------------------------------------- judging (pure)


def choose_test(kind: str | None, platform: str, launcher: str = "local") -> str | None:
    """Which test reproduces a failure of ``kind`` on a lane of ``platform`` here, or None.

    Compile and lowering errors lower (any lane: cross-lowering needs no accelerator); a crash,
    NaN or gate failure on a local cpu lane trains. Timeouts and infrastructure are not code."""
    if kind == "compile_error":
        return "lower"
    if platform == "cpu" and launcher == "local" and kind in ("runtime_crash", "nan", "gate_regression"):
        return "run"
    return None


def test_for(kind: str | None, lane_name: str) -> str | None:
    """:func:`choose_test` for a lane of this checkout's lanes file (None: an unknown lane)."""
    from canary.config import get_lane

    try:
        lane = get_lane(lane_name)
    except ConfigError:
        return None
    return choose_test(kind, lane.platform, lane.launcher.kind)


def _result_json(stdout: str) -> dict[str, Any] | None:
    try:
        d = json.loads(stdout)
    except ValueError:
        return None
    return d if isinstance(d, dict) else None


def _untestable(returncode: int, stderr: str) -> str:
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    return f"cannot be tested (exit {returncode}): {lines[-1] if lines else 'no result printed'}"[:300]


def _first_line(text: str | None) -> str:
    return next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "")[:300]


def judge_lower(returncode: int, stdout: str, stderr: str = "") -> tuple[str, str]:
    """(verdict, detail) of ``canary lower --json`` at a revision."""
    report = _result_json(stdout)
    if returncode not in (0, 1) or report is None or "ok" not in report:
        return "skip", _untestable(returncode, stderr)
    platforms = report.get("platforms") or []
    if report["ok"] and returncode == 0:
        return "good", "lowered for " + (", ".join(str(p.get("platform")) for p in platforms) or "every platform")
    failed = [p for p in platforms if not p.get("ok")]
    if not failed or returncode != 1:
        return "skip", _untestable(returncode, stderr)
    p = failed[0]
    return "bad", f"{p.get('platform')}: {_first_line(p.get('diagnosis') or p.get('error'))}"


def judge_run(returncode: int, stdout: str, stderr: str = "", fingerprint: str | None = None,
              other_failure: str = "skip") -> tuple[str, str, str | None]:
    """(verdict, detail, fingerprint seen) of ``canary run --json`` at a revision. With
    ``fingerprint`` None any failure is bad (how the failure at --bad is learnt)."""
    record = _result_json(stdout)
    if returncode not in (0, 1) or record is None or record.get("verdict") not in ("pass", "fail"):
        return "skip", _untestable(returncode, stderr), None
    if record["verdict"] == "pass":
        return "good", f"passed: {record.get('steps_completed')} steps, final loss {record.get('final_loss')}", None
    sig = record.get("signature") or {}
    seen = sig.get("fingerprint")
    what = f"{sig.get('kind', 'failed')} {seen or '(no signature)'}"
    message = _first_line(f"{sig['exception']}: {sig.get('message', '')}" if sig.get("exception") else sig.get("message"))
    if fingerprint is None or seen == fingerprint:
        return "bad", f"{what}: {message}".rstrip(": "), seen
    return other_failure, f"another failure, {what}: {message}".rstrip(": "), seen


_SHA = r"[0-9a-f]{40}"


def parse_git_bisect(text: str) -> tuple[str, list[str], int]:
    """What ``git bisect start|good|bad|skip`` said: ("next", [sha]), ("found", [sha]),
    ("only-skipped", [candidates]) or ("error", []), and roughly how many steps are left."""
    left = re.search(r"roughly (\d+) steps?", text)
    steps = int(left.group(1)) if left else 0
    m = re.search(rf"^({_SHA}) is the first bad commit", text, re.M)
    if m:
        return "found", [m.group(1)], 0
    if "only 'skip'ped commits left" in text:
        after = text.split("could be any of:", 1)[-1]
        return "only-skipped", re.findall(rf"^({_SHA})\s*$", after, re.M), 0
    m = re.search(rf"^\[({_SHA})\]", text, re.M)
    if m:
        return "next", [m.group(1)], steps
    return "error", [], 0


# ----------------------------------------------------------------------------- git


def _git(cwd: str | Path, *args: str, check: bool = False, timeout: float = 120) -> subprocess.CompletedProcess:
    p = subprocess.run(["git", "-c", "advice.detachedHead=false", "-C", str(cwd), *args], capture_output=True,
                       text=True, timeout=timeout)
    if check and p.returncode != 0:
        raise CanaryError(f"git {' '.join(args)} failed in {cwd}: {p.stderr.strip() or p.stdout.strip()}")
    return p


def toplevel(checkout: str) -> str:
    try:
        p = _git(checkout, "rev-parse", "--show-toplevel")
    except (OSError, subprocess.SubprocessError) as e:
        raise ConfigError(f"cannot run git in {checkout}: {e}") from None
    if p.returncode != 0:
        raise ConfigError(f"{checkout} is not a git checkout: {p.stderr.strip()}")
    return p.stdout.strip()


def resolve(repo: str, rev: str, flag: str) -> str:
    p = _git(repo, "rev-parse", "--verify", "--quiet", f"{rev}^{{commit}}")
    if p.returncode != 0 or not p.stdout.strip():
        raise ConfigError(f"{flag} {rev!r} is not a commit in {repo}")
    return p.stdout.strip()


def subject(repo: str | Path, sha: str) -> str:
    return _git(repo, "log", "-1", "--format=%s", sha).stdout.strip()


def newest(repo: str, shas: list[str], good: str) -> str | None:
    """The commit of ``shas`` (a regression window above ``good``) that all the others lead to: its bad end."""
    p = _git(repo, "rev-list", "--topo-order", "--max-count=1", *shas, "--not", good)
    if p.returncode != 0:
        return None
    return p.stdout.strip() or None


@contextmanager
def worktree(repo: str, rev: str) -> Iterator[Path]:
    """A detached worktree of ``repo`` at ``rev`` in a temporary directory, removed afterwards."""
    tmp = Path(tempfile.mkdtemp(prefix="canary-bisect-"))
    path = tmp / "checkout"
    p = _git(repo, "worktree", "add", "--detach", "--quiet", str(path), rev, timeout=600)
    if p.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise CanaryError(f"cannot add a worktree of {repo}: {p.stderr.strip()}")
    try:
        yield path
    finally:
        _git(repo, "worktree", "remove", "--force", str(path))
        shutil.rmtree(tmp, ignore_errors=True)
        _git(repo, "worktree", "prune")


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


class _Tester:
    def __init__(self, opts: BisectOptions, checkout: Path, scratch: Path, deadline: float | None):
        self.opts, self.checkout, self.scratch, self.deadline = opts, checkout, scratch, deadline
        self.fingerprint = opts.fingerprint
        self.env = {k: v for k, v in os.environ.items() if k not in CONFIG_ENV}
        self.env.update(PYTHONPATH=str(checkout), PYTHONDONTWRITEBYTECODE="1")

    def left_s(self) -> float | None:
        return None if self.deadline is None else self.deadline - time.monotonic()

    def command(self) -> list[str]:
        o = self.opts
        if o.test == "lower":
            return [o.python, "-m", "canary", "lower", "--lane", o.lane, "--json"]
        cmd = [o.python, "-m", "canary", "run", o.lane, "--json", "--no-history", "--out", str(self.scratch)]
        return cmd + (["--steps", str(o.steps)] if o.steps else [])

    def __call__(self, sha: str, role: str = "") -> Step | None:
        """Test the worktree's HEAD (``sha``); None when the budget ran out meanwhile."""
        left = self.left_s()
        limit = self.opts.test_timeout_s if left is None else min(self.opts.test_timeout_s, left)
        t0 = time.monotonic()
        try:
            p = subprocess.run(self.command(), cwd=self.checkout, env=self.env, capture_output=True, text=True,
                               timeout=max(limit, 1))
        except subprocess.TimeoutExpired:
            if left is not None and limit < self.opts.test_timeout_s:
                return None
            return Step(sha, subject(self.checkout, sha), "skip", round(time.monotonic() - t0, 2),
                        f"cannot be tested: no result in {limit:.0f} s", role)
        seconds = round(time.monotonic() - t0, 2)
        if self.opts.test == "lower":
            verdict, detail = judge_lower(p.returncode, p.stdout, p.stderr)
        else:
            verdict, detail, seen = judge_run(p.returncode, p.stdout, p.stderr, self.fingerprint,
                                              self.opts.other_failure)
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
    if _git(repo, "merge-base", "--is-ancestor", good, bad).returncode != 0:
        raise ConfigError(f"--good {opts.good} ({good[:12]}) is not an ancestor of --bad {opts.bad} ({bad[:12]})")
    return repo, good, bad


def bisect(opts: BisectOptions, progress: Progress | None = None) -> BisectResult:
    """Find the first commit in ``good..bad`` whose test is bad. Bad input raises ConfigError."""
    progress = progress or Quiet()
    t0 = time.monotonic()
    deadline = t0 + opts.budget_s if opts.budget_s is not None else None
    repo, good, bad = check(opts)
    commits = int(_git(repo, "rev-list", "--count", f"{good}..{bad}", check=True).stdout.strip())
    result = BisectResult(opts.lane, opts.test, good, bad, commits, opts.fingerprint)
    with worktree(repo, bad) as checkout, tempfile.TemporaryDirectory(prefix="canary-bisect-runs-") as scratch:
        lane = lane_at(checkout, opts.lane)
        launcher = (lane.get("launcher") or {}).get("kind", "local")
        if opts.test == "run" and (lane.get("platform", "cpu") != "cpu" or launcher != "local"):
            raise ConfigError(f"--test run trains here, and lane {opts.lane!r} is not a local cpu lane "
                              f"({lane.get('platform', 'cpu')}, {launcher}); use --test lower")
        tester = _Tester(opts, checkout, Path(scratch), deadline)
        progress.started(commits, 2 + math.ceil(math.log2(commits)) if commits > 1 else 2)
        try:
            _run(result, repo, checkout, tester, progress)
        finally:
            result.fingerprint = tester.fingerprint
            result.seconds = round(time.monotonic() - t0, 2)
    result.seconds = round(time.monotonic() - t0, 2)
    return result


def _out_of_budget(result: BisectResult, candidates: list[str]) -> None:
    result.exhausted = True
    result.candidates = candidates
    result.reason = (f"the budget ran out after {result.tested} tests; the first bad commit is one of "
                     f"{len(candidates)}")


def _test(result: BisectResult, tester: _Tester, progress: Progress, sha: str, role: str, left: int) -> Step | None:
    progress.testing(sha, subject(tester.checkout, sha), role)
    step = tester(sha, role)
    if step is not None:
        result.log.append(step)
        progress.tested(step, left)
    return step


def _run(result: BisectResult, repo: str, checkout: Path, tester: _Tester, progress: Progress) -> None:
    good, bad = result.good, result.bad
    window = _git(repo, "rev-list", f"{good}..{bad}").stdout.split()
    estimate = math.ceil(math.log2(len(window))) if len(window) > 1 else 0
    step = _test(result, tester, progress, bad, "bad end", estimate + 1)
    if step is None:
        return _out_of_budget(result, window)
    if step.verdict != "bad":
        result.reason = ("the failure does not reproduce at --bad" if step.verdict == "good"
                         else f"--bad {step.detail}")
        return
    _git(checkout, "checkout", "--quiet", "--detach", good, check=True)
    step = _test(result, tester, progress, good, "good end", estimate)
    if step is None:
        return _out_of_budget(result, window)
    if step.verdict == "bad":
        result.reason = "the failure reproduces at --good too: it is older than the window"
        return
    answer = _git(checkout, "bisect", "start", bad, good)
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
            return _out_of_budget(result, _remaining(checkout))
        step = _test(result, tester, progress, shas[0], "", left)
        if step is None:
            return _out_of_budget(result, _remaining(checkout))
        answer = _git(checkout, "bisect", step.verdict)


def _remaining(checkout: Path) -> list[str]:
    """The commits the first bad one can still be: below refs/bisect/bad, above every good."""
    goods = _git(checkout, "for-each-ref", "--format=%(objectname)", "refs/bisect/good-*").stdout.split()
    return _git(checkout, "rev-list", "refs/bisect/bad", "--not", *goods).stdout.split()
