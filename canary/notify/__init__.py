"""Say once, in the right place, that a canary failed, recurred or recovered.

    from canary.notify import notify
    result = notify(record, history_records, repo="acme/canary")        # GitHub by default
    result = notify(record, history_records, repo="acme/canary", dry_run=True)
    print(result.deliveries[-1].calls)                                    # what it would do

One entry point over backends (``BACKENDS``; GitHub issues is the one there is). The facts a
message states are computed from the run history (:mod:`canary.notify.facts`), the words are
composed purely (:mod:`canary.notify.compose`), the decisions are made over an issue tracker
(:mod:`canary.notify.tracker`), and a notification that cannot be sent is kept with its run record
(in the history, and beside the run directory) and sent by the next invocation
(:mod:`canary.notify.spool`). Notifying never changes a
canary's verdict: callers get a result to report, not an exception, when GitHub is down.
"""

from __future__ import annotations

import json
import os
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from canary.errors import ConfigError
from canary.notify import redact as redact_mod
from canary.notify import spool
from canary.notify.github import GitHubClient
from canary.notify.model import Facts
from canary.notify.tracker import Action, report
from canary.notify.transport import GitHubError
from canary.record import RunRecord
from canary.run.directory import NOTIFY_PENDING

if TYPE_CHECKING:
    from canary.history import HistoryStore

BACKENDS = ("github",)


@dataclass
class Delivery:
    """The fate of one run's notification."""

    run_id: str
    status: str  # sent | spooled | dry-run | failed
    actions: list[Action] = field(default_factory=list)
    error: str | None = None
    spool_path: str | None = None
    calls: list[str] = field(default_factory=list)  # dry run: the API calls it would make
    messages: list[dict[str, str]] = field(default_factory=list)  # dry run: the markdown it would post
    resent: bool = False  # a spooled notification of an earlier run, sent now
    unreachable: bool = False  # the error is GitHub's host not resolving, refusing or having no route

    def to_dict(self) -> dict[str, Any]:
        return {
            "run_id": self.run_id,
            "status": self.status,
            "resent": self.resent,
            "actions": [a.to_dict() for a in self.actions],
            "error": self.error,
            "unreachable": self.unreachable,
            "spool_path": self.spool_path,
            "calls": self.calls,
            "messages": self.messages,
        }


@dataclass
class NotifyResult:
    deliveries: list[Delivery]

    @property
    def delivered(self) -> bool:
        """Everything that had to be said was said to GitHub. Never true of a dry run: it
        delivers nothing."""
        return bool(self.deliveries) and all(d.status == "sent" for d in self.deliveries)

    @property
    def dry_run(self) -> bool:
        return any(d.status == "dry-run" for d in self.deliveries)

    @property
    def unreachable(self) -> str | None:
        """Why GitHub could not be reached, when that is what stopped a delivery or a dry run's reads."""
        return next((d.error for d in self.deliveries if d.unreachable and d.error), None)

    @property
    def ok(self) -> bool:
        """Did its job: delivered, or a dry run that read GitHub and so shows what a real run would do."""
        if self.dry_run:
            return all(d.status == "dry-run" and d.error is None for d in self.deliveries)
        return self.delivered

    def to_dict(self) -> dict[str, Any]:
        return {
            "delivered": self.delivered,
            "dry_run": self.dry_run,
            "unreachable": self.unreachable,
            "deliveries": [d.to_dict() for d in self.deliveries],
        }


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


def _store_put(store: HistoryStore | None, record: RunRecord) -> bool:
    """Replace the history's copy of a record; a store that refuses only means a resend later."""
    if store is None:
        return False
    try:
        store.append(record)
        return True
    except Exception:  # noqa: BLE001 - the local spool file still holds the notification
        return False


def _waiting(record: RunRecord, store: HistoryStore | None) -> list[tuple[Path | None, spool.Pending]]:
    """Notifications earlier invocations could not send: spool files (path) and history records (None)."""
    found: list[tuple[Path | None, spool.Pending]] = list(spool.waiting(spool.roots_for(record)))
    if store is not None:
        try:
            from canary.notify.facts import lookback

            found += [(None, p) for p in spool.waiting_in(store.records(since=lookback(record)))]
        except Exception:  # noqa: BLE001 - an unreadable history hides nothing the files hold
            pass
    return sorted(found, key=lambda x: (x[1].record.started_at, x[1].record.run_id, x[0] is None))


class _OnNewIssue:
    """Runs the ``bisect`` hook (record, facts) -> facts once, when a new issue is to be opened."""

    def __init__(self, hook: Callable[[RunRecord, Facts], Facts], record: RunRecord):
        self.hook, self.record, self.facts = hook, record, None

    def __call__(self, facts: Facts) -> Facts:
        if self.facts is None:
            self.facts = self.hook(self.record, facts)
        return self.facts


def send(
    record: RunRecord,
    facts: Facts,
    *,
    repo: str,
    backend: str = "github",
    close_on_recovery: bool = False,
    dry_run: bool = False,
    client: GitHubClient | None = None,
    flush: bool = True,
    store: HistoryStore | None = None,
    log: Callable[[str], None] | None = None,
    bisect: Callable[[RunRecord, Facts], Facts] | None = None,
) -> NotifyResult:
    """Notify about ``record`` with ``facts`` already computed; first resend what earlier runs could
    not send. With a history ``store``, a notification that cannot be sent is also kept in the run's
    record there, so the next invocation finds it on any machine. ``bisect`` adds to the facts of a
    new issue (see :mod:`canary.notify.bisecting`)."""
    gh = _client(backend, repo, client, log)
    facts = replace(
        facts, secrets=tuple(dict.fromkeys(facts.secrets + env_secrets() + ((gh.token,) if gh.token else ())))
    )
    on_new = _OnNewIssue(bisect, record) if bisect is not None else None
    if dry_run:
        dry = DryRunTracker(gh)
        actions = report(dry, record, facts, close_on_recovery, on_new)
        return NotifyResult(
            [
                Delivery(
                    record.run_id,
                    "dry-run",
                    actions,
                    dry.read_error,
                    calls=dry.calls,
                    messages=dry.messages,
                    unreachable=dry.unreachable,
                )
            ]
        )

    deliveries: list[Delivery] = []
    outage: str | None = None
    unreachable = False
    sent: set[str] = set()
    for path, pending in _waiting(record, store) if flush else []:
        rid = pending.record.run_id
        if rid == record.run_id:
            continue  # superseded by this call
        if rid not in sent:
            try:
                p_facts = replace(pending.facts, secrets=facts.secrets)
                actions = report(
                    _client(pending.backend, pending.repo, gh, log), pending.record, p_facts, pending.close_on_recovery
                )
            except Exception as e:  # noqa: BLE001 - whatever stops a delivery, the notification waits
                outage, unreachable = failure(e), getattr(e, "unreachable", False)
                deliveries.append(
                    Delivery(
                        rid, "spooled", error=outage, spool_path=str(path or ""), resent=True, unreachable=unreachable
                    )
                )
                break
            sent.add(rid)
            deliveries.append(Delivery(rid, "sent", actions, resent=True))
        if path is not None:
            spool.done(path)
        else:
            _store_put(store, spool.unmark(pending.record))

    error = outage
    if outage is None:
        try:
            actions = report(gh, record, facts, close_on_recovery, on_new)
        except Exception as e:  # noqa: BLE001 - a malformed answer too: nothing is lost, it is sent later
            error, unreachable = failure(e), getattr(e, "unreachable", False)
        else:
            spool.done(spool.home_of(record) / NOTIFY_PENDING)
            stored = _stored(store, record.run_id)
            if stored is not None and spool.PENDING_KEY in stored.context:
                _store_put(store, spool.unmark(stored))
            deliveries.append(Delivery(record.run_id, "sent", actions))
            return NotifyResult(deliveries)
    if on_new is not None and on_new.facts is not None:
        facts = on_new.facts  # what the bisect found is kept for the resend
    pending = spool.Pending(backend, repo, record, facts, close_on_recovery, error or "")
    path = spool.put(pending)
    _store_put(store, spool.mark(pending))
    deliveries.append(Delivery(record.run_id, "spooled", error=error, spool_path=str(path), unreachable=unreachable))
    return NotifyResult(deliveries)


def failure(e: BaseException) -> str:
    """What stopped a delivery, in one line: GitHub's own error, or what was wrong with its answer."""
    if isinstance(e, GitHubError):
        return str(e)
    return f"GitHub's answer could not be used ({type(e).__name__}: {redact_mod.redact(str(e)[:300])})"


def keep(record: RunRecord, repo: str, backend: str, error: str, close_on_recovery: bool = False) -> str | None:
    """Keep a notification that failed before it could be composed (with no facts), for the next
    notify; the path it waits at, or None when even that cannot be written."""
    try:
        return str(spool.put(spool.Pending(backend, repo, record, Facts(), close_on_recovery, error)))
    except OSError:
        return None


def _stored(store: HistoryStore | None, run_id: str) -> RunRecord | None:
    if store is None:
        return None
    try:
        return store.get(run_id)
    except Exception:  # noqa: BLE001
        return None


def notify(
    record: RunRecord,
    history_records: Iterable[RunRecord] | None = None,
    *,
    repo: str,
    backend: str = "github",
    close_on_recovery: bool = False,
    dry_run: bool = False,
    client: GitHubClient | None = None,
    facts: Facts | None = None,
    store: HistoryStore | None = None,
    log: Callable[[str], None] | None = None,
    bisect: Callable[[RunRecord, Facts], Facts] | None = None,
    commits: Callable[[str, str], list] | None = None,
) -> NotifyResult:
    """Compute what to say about ``record`` from the run history (``history_records``, else the
    records of ``store``) and the commits ``commits(good, bad)`` lists (None: the checkout's,
    :func:`canary.git.window_commits`), then say it (see :func:`send`)."""
    from canary import git
    from canary.notify.facts import facts_for, facts_from_store

    if facts is None:
        commits = commits or git.window_commits
        if history_records is not None:
            facts = facts_for(record, list(history_records), commits)
        else:
            facts = facts_from_store(record, store, commits=commits)
    return send(
        record,
        facts,
        repo=repo,
        backend=backend,
        close_on_recovery=close_on_recovery,
        dry_run=dry_run,
        client=client,
        store=store,
        log=log,
        bisect=bisect,
    )
