"""Say once, in the right place, that a canary failed, recurred or recovered.

    from canary.notify import notify
    result = notify(record, history=records, repo="acme/canary")        # GitHub by default
    result = notify(record, facts, repo="acme/canary", dry_run=True)    # facts already computed
    result = notify(None, repo="acme/canary", resend=entries)           # waiting ones, by hand
    print(result.deliveries[-1].calls)                                  # what it would do

One entry point over backends (``BACKENDS``; GitHub issues is the one there is). The facts a
message states are computed from the run history (:mod:`canary.notify.facts`), the words are
composed purely (:mod:`canary.notify.compose`), the decisions are made over an issue tracker
(:mod:`canary.notify.tracker`), and a notification that cannot be sent is kept with its run record
(in the history, and beside the run directory, written before it is sent) and sent by the next
invocation, each on its own; what GitHub refuses for good is kept as given up and listed
(:mod:`canary.notify.spool`, :mod:`canary.notify.backlog`). Notifying never changes a
canary's verdict: callers get a result to report, not an exception, when GitHub is down.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from canary.errors import ConfigError
from canary.formats import signals
from canary.formats.directory import NOTIFY_PENDING
from canary.notify import backlog, spool
from canary.notify.github import GitHubClient
from canary.notify.model import Facts
from canary.notify.result import DRY_RUN, FAILED, GIVEN_UP, SENT, SPOOLED, Delivery, NotifyResult, failure, gives_up
from canary.notify.tracker import report
from canary.notify.transport import GitHubError
from canary.record import RunRecord
from canary.text import redact as redact_mod

if TYPE_CHECKING:
    from canary.history import HistoryStore

BACKENDS = ("github",)


def env_secrets(environ: dict[str, str] | None = None) -> tuple[str, ...]:
    """Values of the environment's secret-named variables: never to be posted, whatever they look like."""
    return redact_mod.env_secrets(os.environ if environ is None else environ)


class DryRunTracker:
    """Reads through to GitHub when it can (to decide as the real run would), records every
    call that would change something, and changes nothing."""

    def __init__(self, reader: GitHubClient):
        self.reader: GitHubClient | None = reader
        self.base = f"/repos/{reader.repo}"
        self.calls: list[str] = []
        self.messages: list[dict[str, str]] = []
        self.read_error: str | None = None
        self.unreachable = False

    def _read(self, call: str, fn: Callable[[], Any], empty: Any) -> Any:
        self.calls.append(call)
        if self.reader is None:
            return empty
        try:
            return fn()
        except GitHubError as e:
            self.read_error = str(e)
            self.unreachable = e.unreachable
            self.reader = None
            self.calls.append(f"  (could not read GitHub: {e}; deciding as if nothing were there)")
            return empty

    def list_issues(self, labels: str, state: str = "open") -> list[dict[str, Any]]:
        q = urllib.parse.urlencode({"labels": labels, "state": state, "per_page": 100})
        return self._read(
            f"GET {self.base}/issues?{q} (every page)", lambda: self.reader.list_issues(labels, state), []
        )

    def list_comments(self, number: int) -> list[dict[str, Any]]:
        return self._read(
            f"GET {self.base}/issues/{number}/comments?per_page=100 (every page)",
            lambda: self.reader.list_comments(number),
            [],
        )

    def ensure_label(self, name: str, color: str, description: str) -> bool:
        def exists() -> bool:
            try:
                self.reader.request("GET", f"{self.base}/labels/{urllib.parse.quote(name, safe='')}")
                return True
            except GitHubError as e:
                if e.status == 404:
                    return False
                raise

        if not self._read(f"GET {self.base}/labels/{name}", exists, False):
            self._write(f"POST {self.base}/labels", {"name": name, "color": color, "description": description})
            return True
        return False

    def _write(self, call: str, payload: dict[str, Any]) -> None:
        shown = {k: v for k, v in payload.items() if k != "body"}
        if "body" in payload:
            shown["body"] = f"<markdown {len(self.messages) + 1} below>"
            self.messages.append({"call": call, "title": payload.get("title", ""), "body": payload["body"]})
        self.calls.append(f"{call} {json.dumps(shown)}")

    def create_issue(self, title: str, body: str, labels: list[str]) -> dict[str, Any]:
        self._write(f"POST {self.base}/issues", {"title": title, "labels": labels, "body": body})
        return {"number": None, "html_url": None}

    def close_issue(self, number: int, reason: str = "completed") -> dict[str, Any]:
        self._write(f"PATCH {self.base}/issues/{number}", {"state": "closed", "state_reason": reason})
        return {"number": number}

    def update_issue(self, number: int, **fields: Any) -> dict[str, Any]:
        self._write(f"PATCH {self.base}/issues/{number}", fields)
        return {"number": number}

    def create_comment(self, number: int, body: str) -> dict[str, Any]:
        self._write(f"POST {self.base}/issues/{number}/comments", {"body": body})
        return {}


def _client(backend: str, repo: str, client: GitHubClient | None, log: Callable[[str], None] | None) -> GitHubClient:
    if backend not in BACKENDS:
        raise ConfigError(f"unknown notifier {backend!r}; known: {', '.join(BACKENDS)}")
    if client is not None and client.repo == repo:
        return client
    if client is not None:  # same server and token, another repository
        return client.for_repo(repo, log)
    return GitHubClient.from_env(repo, log=log)


class _OnNewIssue:
    """Runs the ``bisect`` hook (record, facts) -> facts once, when a new issue is to be opened."""

    def __init__(self, hook: Callable[[RunRecord, Facts], Facts], record: RunRecord):
        self.hook, self.record, self.facts = hook, record, None

    def __call__(self, facts: Facts) -> Facts:
        if self.facts is None:
            self.facts = self.hook(self.record, facts)
        return self.facts


def notify(
    record: RunRecord | None,
    facts: Facts | None = None,
    *,
    repo: str,
    history: Iterable[RunRecord] | None = None,
    commits: Callable[[str, str], list] | None = None,
    store: HistoryStore | None = None,
    backend: str = "github",
    close_on_recovery: bool = False,
    dry_run: bool = False,
    client: GitHubClient | None = None,
    log: Callable[[str], None] | None = None,
    bisect: Callable[[RunRecord, Facts], Facts] | None = None,
    resend: list[backlog.Entry] | None = None,
) -> NotifyResult:
    """Say what there is to say to ``repo``: first what earlier runs could not send, then what
    ``record`` brings. The one way into notifying: ``canary notify`` and ``canary run --notify``
    (:mod:`canary.notify.after_run`), and the backlog's ``--resend``, all come through here.

    ``facts``: what to state beyond the record; None: computed from the run history
    (``history``'s records, else those of ``store``) and the commits ``commits(good, bad)`` lists
    (None: the checkout's, :func:`canary.git.window_commits`). With a history ``store``, a
    notification that cannot be sent is also kept in the run's record there, so the next
    invocation finds it on any machine. ``bisect`` adds to the facts of a new issue (see
    :mod:`canary.notify.bisecting`). ``resend``: the waiting notifications to send now by hand,
    given-up ones too, with ``record`` None (``canary notify --resend``); a stop signal leaves
    what was not sent as it was."""
    gh = _client(backend, repo, client, log)
    secrets = tuple(dict.fromkeys(env_secrets() + ((gh.token,) if gh.token else ())))
    if record is None:
        deliveries: list[Delivery] = []
        try:
            backlog.resend(resend or [], gh, secrets, store, by_hand=True, log=log, into=deliveries)
        except signals.Stopped as e:
            return NotifyResult(deliveries, stopped=e.signum)
        return NotifyResult(deliveries)
    if facts is None:
        facts = _facts(record, history, store, commits)
    facts = replace(facts, secrets=tuple(dict.fromkeys(facts.secrets + secrets)))
    on_new = _OnNewIssue(bisect, record) if bisect is not None else None
    if dry_run:
        return _dry_run(gh, record, facts, close_on_recovery, on_new)
    return _deliver(gh, backend, record, facts, close_on_recovery, on_new, store, log)


def _facts(record, history, store, commits) -> Facts:
    from canary import git
    from canary.notify.facts import facts_for, facts_from_store

    commits = commits or git.window_commits
    if history is not None:
        return facts_for(record, list(history), commits)
    return facts_from_store(record, store, commits=commits)


def _dry_run(gh, record, facts, close_on_recovery, on_new) -> NotifyResult:
    dry = DryRunTracker(gh)
    actions = report(dry, record, facts, close_on_recovery, on_new)
    return NotifyResult(
        [
            Delivery(
                record.run_id,
                DRY_RUN,
                actions,
                dry.read_error,
                calls=dry.calls,
                messages=dry.messages,
                unreachable=dry.unreachable,
            )
        ]
    )


def _deliver(gh, backend, record, facts, close_on_recovery, on_new, store, log) -> NotifyResult:
    """The waiting notifications resent, then ``record``'s sent; what cannot be sent is kept."""
    repo = gh.repo
    own = backlog.own_entry(record, backend, repo, facts, close_on_recovery)
    deliveries: list[Delivery] = []
    error, unreachable, stop, stopped = None, False, False, None
    with spool.holding(own) as own_path:  # on disk before anything is sent; None: it cannot be
        try:
            from canary.notify.facts import lookback

            waiting, unreadable = backlog.gather(spool.roots_for(record), store, lookback(record))
            for line in unreadable:
                (log or (lambda m: None))(line)
            earlier = [e for e in waiting if e[1].record.run_id != record.run_id]  # this one: superseded
            backlog.resend(earlier, gh, facts.secrets, store, log=log, into=deliveries)
            try:
                actions = report(gh, record, facts, close_on_recovery, on_new)
            except Exception as e:  # noqa: BLE001 - a malformed answer too: nothing is lost, it is sent later
                error, unreachable, stop = failure(e), getattr(e, "unreachable", False), gives_up(e)
            else:
                spool.done(own_path or spool.home_of(record) / NOTIFY_PENDING, own)
                stored = _stored(store, record.run_id)
                if stored is not None and spool.PENDING_KEY in stored.context:
                    spool.store_put(store, spool.unmark(stored))
                deliveries.append(Delivery(record.run_id, SENT, actions, repo=repo))
                return NotifyResult(deliveries)
        except signals.Stopped as e:  # what was sent stays sent; the rest is kept
            error, stopped = f"stopped by {signals.signal_name(e.signum)} while notifying", e.signum
    if on_new is not None and on_new.facts is not None:
        own.facts = on_new.facts  # what the bisect found is kept for the resend
    own.error, own.tries = error or "", 0 if stopped else 1
    own.state = spool.GIVEN_UP if stop else spool.WAITING
    try:
        path: str | None = str(spool.put(own))
    except OSError:
        path = None
    in_history = spool.store_put(store, spool.mark(own))
    status = GIVEN_UP if stop else SPOOLED if path or in_history else FAILED
    deliveries.append(Delivery(record.run_id, status, error=error, spool_path=path, unreachable=unreachable, repo=repo))
    return NotifyResult(deliveries, stopped=stopped)


def _stored(store: HistoryStore | None, run_id: str) -> RunRecord | None:
    if store is None:
        return None
    try:
        return store.get(run_id)
    except Exception:  # noqa: BLE001
        return None
