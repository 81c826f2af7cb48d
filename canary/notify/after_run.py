"""Telling GitHub about a recorded run, as ``canary notify RUN`` and ``canary run --notify github``
do: the history is opened (or not), the facts are computed from it and from the checkout's git
history, a new signature's window may be bisected, and :func:`canary.notify.notify` says it."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from canary.errors import ConfigError
from canary.record import RunRecord

if TYPE_CHECKING:
    from canary.history import HistoryStore
    from canary.notify import NotifyResult


@dataclass(frozen=True)
class NotifyOptions:
    """What to notify, where, and how (the flags ``canary notify`` and ``canary run --notify`` share)."""

    repo: str | None
    backend: str = "github"
    close_on_recovery: bool = False
    dry_run: bool = False
    no_bisect: bool = False
    bisect_budget: float | None = None


def require_token(dry_run: bool) -> None:
    """GITHUB_TOKEN is set (unless a dry run) and usable as a header; GITHUB_API_URL is http(s)."""
    from canary.notify.settings import API_URL_VAR, check_api_url, check_token

    check_token(os.environ.get("GITHUB_TOKEN"))
    if os.environ.get(API_URL_VAR):
        check_api_url(os.environ[API_URL_VAR])
    if not dry_run and not os.environ.get("GITHUB_TOKEN"):
        raise ConfigError(
            "set GITHUB_TOKEN to a token that may write issues (in GitHub Actions: "
            "GITHUB_TOKEN: ${{ secrets.GITHUB_TOKEN }} with permissions issues: write), or use --dry-run"
        )


def require_repo(repo: str | None) -> str:
    if not repo:
        raise ConfigError("say which repository to notify with --repo OWNER/NAME (or set GITHUB_REPOSITORY)")
    return repo


def check(opts: NotifyOptions) -> None:
    """Bad notify settings are bad input, found before anything is trained or read."""
    from canary.notify.github import GitHubClient
    from canary.notify.transport import RetryPolicy

    GitHubClient(require_repo(opts.repo), None, retry=RetryPolicy.from_env())  # validates the names
    require_token(opts.dry_run)


def bisect_hook(no_bisect: bool, budget_s: float | None, log: Callable[[str], None] | None = None):
    """The notifier's bisect of a new signature (None: off)."""
    if no_bisect:
        return None
    from canary.notify.bisecting import DEFAULT_BUDGET_S, bisector

    return bisector(budget_s or DEFAULT_BUDGET_S, log=log)


def tell(
    record: RunRecord,
    opts: NotifyOptions,
    store: HistoryStore | None,
    why_not: str = "",
    log: Callable[[str], None] | None = None,
) -> NotifyResult:
    """Notify about ``record`` with the facts the history ``store`` (None: none, for ``why_not``)
    and the checkout's git history give. A stop signal (within
    :func:`canary.formats.signals.interruptible`) keeps the notification and says which it was."""
    from canary.formats import signals

    try:
        return _tell(record, opts, store, why_not, log)
    except signals.Stopped as e:  # before anything was sent (once sending, notify keeps it itself)
        return _kept(record, opts, f"stopped by {signals.signal_name(e.signum)} while notifying", e.signum)


def _tell(record, opts, store, why_not, log) -> NotifyResult:
    from canary import git
    from canary.notify import notify as notify_lib
    from canary.notify.facts import facts_from_store

    facts = facts_from_store(record, store, why_not, commits=git.window_commits)
    return notify_lib(
        record,
        facts=facts,
        store=store,
        repo=require_repo(opts.repo),
        backend=opts.backend,
        close_on_recovery=opts.close_on_recovery,
        dry_run=opts.dry_run,
        log=log,
        bisect=bisect_hook(opts.no_bisect, opts.bisect_budget, log),
    )


def notify_after_run(
    record: RunRecord,
    opts: NotifyOptions,
    history: str | None,
    use_history: bool,
    log: Callable[[str], None] | None = None,
) -> NotifyResult:
    """Notify about a finished run. Never raises: whatever happens, the run's verdict stands (a
    stop signal within :func:`canary.formats.signals.interruptible` included: the notification is kept
    and the result says which signal stopped it)."""
    from canary.formats import signals
    from canary.notify import failure
    from canary.notify.facts import open_history

    try:
        store, why_not = open_history(history, use_history)
        return tell(record, opts, store, why_not, log)
    except signals.Stopped as e:  # while the history was opened
        return _kept(record, opts, f"stopped by {signals.signal_name(e.signum)} while notifying", e.signum)
    except Exception as e:  # noqa: BLE001 - a notifier bug must not turn into a failed canary
        return _kept(record, opts, failure(e))


def _kept(record: RunRecord, opts: NotifyOptions, error: str, stopped: int | None = None) -> NotifyResult:
    """The run's notification kept for the next notify (not for a dry run), with why it was not sent."""
    from canary.notify import Delivery, NotifyResult, keep

    kept = None if opts.dry_run else keep(record, opts.repo or "", opts.backend, error, opts.close_on_recovery)
    status = "failed" if kept is None else "spooled"
    return NotifyResult([Delivery(record.run_id, status, error=error, spool_path=kept, repo=opts.repo or "")], stopped)
