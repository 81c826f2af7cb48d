"""Notifying about a recorded run, as ``canary notify RUN`` and ``canary run --notify github``
do: the facts are computed once from the history the command opened (or none) and the
checkout's git history (:func:`run_facts`, shared with the job summary), a new signature's
window may be bisected, and :func:`canary.notify.notify` says it (:func:`notify_run`)."""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from canary.errors import ConfigError
from canary.record import RunRecord

if TYPE_CHECKING:
    from canary.history import HistoryStore
    from canary.notify.model import Facts
    from canary.notify.result import NotifyResult


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

    GitHubClient(require_repo(opts.repo), None)  # validates the names
    require_token(opts.dry_run)


def bisect_hook(no_bisect: bool, budget_s: float | None, log: Callable[[str], None] | None = None):
    """The notifier's bisect of a new signature (None: off)."""
    if no_bisect:
        return None
    from canary.notify.bisecting import DEFAULT_BUDGET_S, bisector

    return bisector(budget_s or DEFAULT_BUDGET_S, log=log)


def run_facts(record: RunRecord, store: HistoryStore | None, why_not: str = "") -> Callable[[], Facts]:
    """What the history ``store`` (None: none, for ``why_not``) and the checkout's git history say
    about ``record`` (120 days of records, the regression window's commits), computed at the first
    call and kept: a run's notification and its job summary state the same facts, read once."""
    from canary import git
    from canary.notify.facts import facts_from_store

    return functools.cache(lambda: facts_from_store(record, store, why_not, commits=git.window_commits))


def notify_run(
    record: RunRecord,
    opts: NotifyOptions,
    facts: Callable[[], Facts],
    store: HistoryStore | None,
    log: Callable[[str], None] | None = None,
) -> NotifyResult:
    """Notify about ``record`` with ``facts()`` (see :func:`run_facts`). Never raises: whatever
    happens, a run's verdict stands; what could not be sent is kept for the next notify (not for
    a dry run), and a stop signal (within :func:`canary.formats.signals.interruptible`) says which
    it was. Bad settings are found before, by :func:`check`."""
    from canary.formats import signals
    from canary.notify import notify
    from canary.notify.result import failure

    try:
        return notify(
            record,
            facts(),
            store=store,
            repo=require_repo(opts.repo),
            backend=opts.backend,
            close_on_recovery=opts.close_on_recovery,
            dry_run=opts.dry_run,
            log=log,
            bisect=bisect_hook(opts.no_bisect, opts.bisect_budget, log),
        )
    except signals.Stopped as e:  # before anything was sent (once sending, notify keeps it itself)
        return _kept_for_later(record, opts, f"stopped by {signals.signal_name(e.signum)} while notifying", e.signum)
    except Exception as e:  # noqa: BLE001 - a notifier bug must not turn into a failed canary
        return _kept_for_later(record, opts, failure(e))


def _kept_for_later(record: RunRecord, opts: NotifyOptions, error: str, stopped: int | None = None) -> NotifyResult:
    """The run's notification kept for the next notify (not for a dry run), with why it was not sent."""
    from canary.notify.result import Delivery, NotifyResult
    from canary.notify.spool import put_unsent

    kept = None if opts.dry_run else put_unsent(record, opts.repo or "", opts.backend, error, opts.close_on_recovery)
    status = "failed" if kept is None else "spooled"
    return NotifyResult([Delivery(record.run_id, status, error=error, spool_path=kept, repo=opts.repo or "")], stopped)
