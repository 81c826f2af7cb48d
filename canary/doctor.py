"""``canary doctor LANE``: everything a lane's run needs, checked without training.

    report = diagnose(DoctorOptions(lane="tpu", history="gs://canary-history/runs", notify="github"))
    report.ok, [c.name for c in report.checks]  # packages, cache, history, launcher, github, git

Each check answers ``name``, ``ok``, ``detail`` (what was found) and ``fix`` (what to do when it
failed). Doctor reads settings and writes only probe objects it deletes at once: a file or
object in the compilation cache directory, an object under the gs:// history's ``doctor/``
prefix (a SQLite history is checked by taking and releasing its write lock). A check that does
not apply (no notifications asked for) passes and says so.
"""

from __future__ import annotations

import logging
import os
import secrets
import shutil
import sys
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC
from pathlib import Path
from typing import Any

from canary import extras, git
from canary.config import Lane, get_lane, load_ferry
from canary.deadline import answer_within
from canary.errors import CanaryError, ConfigError
from canary.ferries import kind_of
from canary.formats import compile_cache
from canary.history import queries
from canary.record import RunRecord

CHECKS = ("packages", "cache", "history", "launcher", "github", "git")  # and "libtpu", a TPU lane's
FIX_CHECKOUT = "run canary from the repository's checkout (actions/checkout with fetch-depth: 0)"
PROBE_S = 5.0  # the longest any one check may wait on the network (gcsfs alone retries for most of a minute)


@dataclass
class Check:
    name: str
    ok: bool
    detail: str
    fix: str = ""

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass
class DoctorOptions:
    lane: str
    ferry: str = "moe-canary"  # the run's --ferry: the history series is (lane, ferry)
    lanes_file: str | None = None
    cache_dir: str | None = None  # the run's --cache-dir
    history: str | None = None  # the run's --history (None: the default store)
    ray_address: str | None = None
    notify: str | None = None  # "github" when the run notifies
    repo: str | None = None  # OWNER/NAME (default: $GITHUB_REPOSITORY)
    checkout: str = "."  # the git checkout the regression window reads


@dataclass
class Report:
    lane: str
    ferry: str = ""
    checks: list[Check] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    def to_dict(self) -> dict[str, Any]:
        return {"lane": self.lane, "ferry": self.ferry, "ok": self.ok, "checks": [c.to_dict() for c in self.checks]}


def _error(e: BaseException) -> str:
    return str(e) if isinstance(e, CanaryError) else f"{type(e).__name__}: {e}"


# ----------------------------------------------------------------------------- the checks


def check_packages(lane: Lane, cache_dir: str | None, history: str, stack: str | None = None) -> Check:
    """What the lane's settings need, and the ferry's: a stack ferry (``stack = "levanter"``) needs
    its extra wherever it runs."""
    needs = extras.lane_needs(lane.launcher.kind, cache_dir, history, lane.wandb)
    if stack:
        needs.append(extras.STACKS[stack])
    gone = [(n, extras.missing(n)) for n in needs]
    gone = [(n, m) for n, m in gone if m]
    if not needs:
        return Check("packages", True, "the default install is all this lane needs")
    if gone:
        return Check(
            "packages",
            False,
            "; ".join(f"{n.what} needs {extras.named(m)}" for n, m in gone),
            extras.fixes([n for n, _ in gone]),
        )
    return Check("packages", True, "importable: " + ", ".join(f"{n.what} ({', '.join(n.modules)})" for n in needs))


def check_libtpu(lane: Lane) -> Check:
    """A TPU lane's compiler for `canary lower`: missing is no failure (the run gets the TPU VM's
    own; one chip's share is lowered, and said), a version the installed JAX does not pair with is."""
    from canary.run.topology import libtpu_status, topology_name

    status, where = libtpu_status(), topology_name(lane)
    if status.installed is None:
        return Check("libtpu", True, f"{status.message()}; `canary lower` lowers one chip's share, not {where}")
    if not status.pairs:
        return Check("libtpu", False, status.message(), f"pip install 'jax[tpu]=={status.jax}'")
    return Check("libtpu", True, f"{status.message()}: `canary lower --lane {lane.name}` lowers on {where}")


@contextmanager
def _quiet(*loggers: str):
    saved = [(logging.getLogger(n), logging.getLogger(n).level) for n in loggers]
    for lg, _ in saved:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in saved:
            lg.setLevel(level)


def _probe_name() -> str:
    return f".canary-doctor-{os.getpid()}-{secrets.token_hex(4)}"


def check_cache(lane: Lane, cache_dir: str | None) -> Check:
    directory = (cache_dir or lane.cache_dir or compile_cache.default_dir(lane.name)).removeprefix("file://")
    if compile_cache.is_remote(directory):
        gone = compile_cache.missing_remote_support(directory)
        if gone:
            return Check("cache", False, f"{directory}: cannot reach it without {', '.join(gone)}", extras.INSTALL)
        try:
            with _quiet("gcsfs", "fsspec"):  # they log every retry's traceback; the check says what failed
                from etils import epath

                probe = epath.Path(directory) / _probe_name()  # the path JAX's cache goes through
                probe.write_bytes(b"canary doctor probe")
                probe.unlink()
        except Exception as e:  # noqa: BLE001 - whatever keeps JAX from writing there
            return Check(
                "cache",
                False,
                f"{directory}: could not write a probe object: {_error(e)}",
                "give the runner's service account write access to the bucket (roles/storage.objectUser), "
                "or pass --cache-dir with a reachable location, or run --cold",
            )
        return Check("cache", True, f"{directory}: wrote and deleted a probe object")
    path = Path(directory).expanduser()
    if not path.exists():
        parent = next((p for p in path.parents if p.exists()), None)
        if parent is not None and parent.is_dir() and os.access(parent, os.W_OK):
            return Check("cache", True, f"{path} does not exist yet; {parent} is writable, so the first run creates it")
        return Check("cache", False, f"{path} does not exist and {parent} is not writable", "pass --cache-dir DIR")
    probe = path / _probe_name()
    try:
        probe.write_bytes(b"canary doctor probe")
        probe.unlink()
    except OSError as e:
        return Check("cache", False, f"{path}: could not write a probe file: {e}", "pass --cache-dir DIR")
    return Check("cache", True, f"{path}: wrote and deleted a probe file")


def check_history(location: str, lane: str, ferry: str) -> tuple[Check, list[RunRecord] | None]:
    """The store answers a read of the series' recent runs (``lane``, ``ferry``) and takes a probe
    write; returns the runs too (the git check reaches back to the series' last pass)."""
    from datetime import datetime, timedelta

    from canary.history import backend
    from canary.notify.facts import HISTORY_DAYS

    fix = (
        "check --history (or CANARY_HISTORY) and the runner's credentials: the service account needs "
        "to read and write objects under the prefix"
    )
    try:
        store = backend(location)
        since = (datetime.now(UTC) - timedelta(days=HISTORY_DAYS)).date()
        records = [r for r in store.records(lane=lane, since=since) if r.ferry == ferry]
        probed = store.probe()
    except Exception as e:  # noqa: BLE001 - unreachable, unauthenticated, not installed: all a failed check
        return Check("history", False, f"{location}: {_error(e)}", fix), None
    said = f"{len(records)} recent run{'s' if len(records) != 1 else ''} of {lane}/{ferry}"
    return Check("history", True, f"{said}; {probed}"), records


def check_launcher(lane: Lane, ray_address: str | None) -> Check:
    kind = lane.launcher.kind
    if kind == "local":
        return Check("launcher", True, f"local: the workload runs as a child process of {sys.executable}")
    if kind == "command":
        exe = (lane.launcher.command or [""])[0]
        found = shutil.which(exe)
        if not found:
            return Check(
                "launcher",
                False,
                f"command: {exe!r} is not on PATH",
                f"install the site's job CLI ({exe}) on this machine, or fix launcher.command",
            )
        return Check("launcher", True, f"command: {exe} is {found}")
    from canary.launchers.ray import require_setup, resolve_address

    try:
        address = require_setup(lane.name, resolve_address(ray_address, dict(os.environ), lane.launcher.address))
        from ray.job_submission import JobSubmissionClient

        client = JobSubmissionClient(address)  # asks the job server for its version
        version = client.get_version() if hasattr(client, "get_version") else "?"
    except CanaryError as e:
        return Check(
            "launcher",
            False,
            str(e),
            "pass --ray-address URL or set RAY_ADDRESS (the repository "
            "variable RAY_ADDRESS in the workflow); install the lanes extra",
        )
    except Exception as e:  # noqa: BLE001 - the cluster did not answer
        return Check(
            "launcher",
            False,
            f"ray: the job server at {address} did not answer: {_error(e)}",
            "check that the Ray head is up and that its dashboard port (8265) is reachable from here",
        )
    return Check(
        "launcher",
        True,
        f"ray: the job server at {address} answers (Jobs API {version}); "
        f"entrypoint resources {lane.launcher.resources or 'none'}",
    )


def check_github(notify: str | None, repo: str | None) -> Check:
    if notify is None:
        return Check("github", True, "not asked to notify (no --notify github): nothing to check")
    from canary.notify.github import GitHubClient
    from canary.notify.transport import GitHubError, RetryPolicy

    if not repo:
        return Check("github", False, "no repository to notify", "pass --repo OWNER/NAME or set GITHUB_REPOSITORY")
    if not os.environ.get("GITHUB_TOKEN"):
        return Check(
            "github",
            False,
            "GITHUB_TOKEN is not set",
            "set GITHUB_TOKEN (in GitHub Actions: GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }} with "
            "permissions issues: write)",
        )
    try:
        gh = GitHubClient.from_env(repo, retry=RetryPolicy(attempts=2, base_s=0.5))
        gh.request("GET", f"/repos/{repo}/issues", query={"labels": "canary", "state": "open", "per_page": 1})
    except CanaryError as e:
        return Check("github", False, str(e), "pass --repo OWNER/NAME")
    except GitHubError as e:
        return Check(
            "github",
            False,
            f"{repo}: {e}",
            "check that the token may read and write the repository's issues (issues: write) and GITHUB_API_URL",
        )
    return Check("github", True, f"{repo}: the token reads its canary issues at {gh.api_url}")


def check_git(
    checkout: str, lane: str, records: list[RunRecord] | None, notify: str | None = "github", ferry: str | None = None
) -> Check:
    """The checkout a failure's regression window is read from. Outside one, only a run that
    tells GitHub is missing something (its issue would name no commits)."""
    head = git.head_commit(checkout)
    if head is None:
        detail = (
            f"{os.path.abspath(checkout)} is not a git checkout: runs get no commit and failures no regression window"
        )
        if notify is None:
            return Check("git", True, detail + " (needed only where a run tells GitHub: --notify github)", FIX_CHECKOUT)
        return Check("git", False, detail, FIX_CHECKOUT)
    shallow = git.is_shallow(checkout)
    if records is None:
        return Check(
            "git",
            not shallow,
            f"HEAD {head[:12]}; {'shallow' if shallow else 'full history'}; the last "
            "pass is unknown (the history could not be read)",
            "" if not shallow else FIX_CHECKOUT,
        )
    lp = queries.last_pass(records, lane, ferry=ferry)
    series = f"{lane}/{ferry}" if ferry else lane
    if lp is None or not lp.commit:
        return Check(
            "git",
            True,
            f"HEAD {head[:12]}; no passing full run of {series} with a commit is recorded, "
            "so the window has nothing to reach back to",
        )
    return _last_pass_commit(checkout, head, lp, shallow)


def _last_pass_commit(checkout: str, head: str, lp, shallow: bool) -> Check:
    """Whether the regression window can reach the last pass's commit from this checkout."""
    if not git.is_object_name(lp.commit):
        return Check(
            "git",
            False,
            f"the last pass's recorded commit {git.shown(lp.commit)} ({lp.run_id}) is not a full commit id "
            "(40 or 64 lowercase hex digits): the regression window leaves it out",
            "record runs from a git checkout (canary run records its HEAD)",
        )
    if git.has_commit(lp.commit, checkout):
        return Check(
            "git", True, f"HEAD {head[:12]}; the last pass's commit {lp.commit[:12]} ({lp.run_id}) is in the checkout"
        )
    if not shallow:
        return Check(
            "git",
            False,
            f"the last pass's commit {lp.commit[:12]} ({lp.run_id}) is not in this "
            "(full) checkout: rewritten history, or another repository",
            "fetch the branch the lane ran from (git fetch origin)",
        )
    if not git.remote_answers(checkout):
        return Check(
            "git",
            False,
            f"shallow checkout without the last pass's commit {lp.commit[:12]}, and no remote answers to fetch it from",
            FIX_CHECKOUT,
        )
    return Check(
        "git",
        True,
        f"HEAD {head[:12]}; shallow, without the last pass's commit {lp.commit[:12]}: the "
        f"regression window fetches history from {git.remote(checkout)} (which answers) until it is there",
    )


def bounded(name: str, probe: Callable[[], Any], fallback: Any = None, seconds: float = PROBE_S) -> Any:
    """``probe()``'s answer, or, when it has none within ``seconds``, a failed check that says so
    (the probe's thread is left to finish on its own; it holds nothing the report needs)."""
    try:
        return answer_within(seconds, probe, f"canary-doctor-{name}")
    except TimeoutError:
        pass
    late = Check(
        name,
        False,
        f"no answer within {seconds:g} s (unreachable, or retrying)",
        "check the network path and the credentials from this machine; the run itself would wait as long",
    )
    return late if fallback is None else fallback(late)


def diagnose(opts: DoctorOptions) -> Report:
    """Every check for the lane; bad input (an unknown lane, a bad --history scheme) raises ConfigError."""
    from canary.history import default_location

    lane = get_lane(opts.lane, opts.lanes_file)
    loaded = load_ferry(opts.ferry)[0]
    ferry = loaded.name
    history = opts.history or default_location()
    if "://" in history:
        from canary.history import gcs

        if not history.startswith("gs://"):
            raise ConfigError(f"--history {history!r}: use a file path or gs://bucket/prefix")
        gcs.parse_url(history)
    cache_dir = opts.cache_dir or lane.cache_dir
    repo = opts.repo or os.environ.get("GITHUB_REPOSITORY")
    report = Report(lane.name, ferry)
    report.checks.append(check_packages(lane, cache_dir, history, kind_of(loaded).stack(loaded)))
    if lane.platform == "tpu":
        report.checks.append(check_libtpu(lane))
    # every probe that may wait on the network is bounded: a doctor answers in seconds, whatever is down
    report.checks.append(bounded("cache", lambda: check_cache(lane, opts.cache_dir)))
    history_check, records = bounded(
        "history", lambda: check_history(history, lane.name, ferry), lambda late: (late, None)
    )
    report.checks.append(history_check)
    report.checks.append(bounded("launcher", lambda: check_launcher(lane, opts.ray_address)))
    report.checks.append(bounded("github", lambda: check_github(opts.notify, repo)))
    report.checks.append(bounded("git", lambda: check_git(opts.checkout, lane.name, records, opts.notify, ferry)))
    return report
