"""What waits to be said: the notifications earlier invocations could not send.

Every notify first sends what waits (:func:`resend`), each entry on its own: one that fails never
stops the others, nor the run's own notification. What GitHub refuses for good (a 404, 401, 422 or
any other 4xx that is no rate limit: a renamed or private repository, a token without access) is
kept as ``given-up`` and listed, not sent again by itself; what may work later (no answer, a 5xx,
a 429 or a rate limit, an answer that could not be used) waits, and the rest of the backlog waits
with it for the next invocation rather than meet the same outage. Only what this canary spooled
(the ledger of :mod:`canary.notify.spool` names it) and only what is for the configured repository
is resent by itself; anything else is left where it is, with a warning. At most
:data:`RESEND_MAX` entries are tried per invocation, those tried least often first.

``canary notify --pending`` lists the backlog (:func:`listing`), ``--resend`` sends entries now,
given-up ones too, to the configured repository (:func:`resend`), ``--drop`` removes them
(:func:`drop`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Any

from canary.errors import ConfigError
from canary.notify import spool
from canary.notify.result import GIVEN_UP, SENT, SPOOLED, Delivery, failure, gives_up
from canary.notify.tracker import report
from canary.textio import printable

if TYPE_CHECKING:
    from canary.history import HistoryStore
    from canary.notify.github import GitHubClient
    from canary.record import RunRecord

RESEND_MAX = 20  # entries tried per invocation: a backlog of thousands drains over runs, not in one
Entry = tuple[Path | None, spool.Pending]  # a spool file (its path) or a history record's copy (None)


def gather(roots: list[Path], store: HistoryStore | None, since: date | None = None) -> tuple[list[Entry], list[str]]:
    """Every pending notification in the spool files under ``roots`` and in the history's records
    (those started since ``since``; None: all), oldest run first, a run's file before its history
    copy; and a line per file that cannot be read."""
    files, bad = spool.scan(roots)
    found: list[Entry] = list(files)
    if store is not None:
        try:
            found += [(None, p) for p in spool.waiting_in(store.records(since=since))]
        except Exception:  # noqa: BLE001 - an unreadable history hides nothing the files hold
            pass
    found.sort(key=lambda x: (x[1].record.started_at, x[1].record.run_id, x[0] is None))
    return found, [printable(f"{path}: cannot be read ({why}); left where it is") for path, why in bad]


def _label(path: Path | None) -> str:
    return str(path) if path is not None else "the history"


def _put_back(path: Path | None, p: spool.Pending, store: HistoryStore | None) -> str | None:
    """Write ``p`` back where it was found; the path it waits at (None: the history)."""
    if path is not None:
        try:
            return str(spool.put(p, at=path))  # where it was found, whatever its record says
        except OSError:
            return None
    spool.store_put(store, spool.mark(p))
    return None


def _clear(path: Path | None, p: spool.Pending, store: HistoryStore | None) -> None:
    if path is not None:
        spool.done(path, p)
    else:
        spool.store_put(store, spool.unmark(p.record))


def resend(
    entries: list[Entry],
    gh: GitHubClient,
    secrets: tuple[str, ...],
    store: HistoryStore | None,
    *,
    by_hand: bool = False,
    log: Callable[[str], None] | None = None,
    into: list[Delivery] | None = None,
) -> list[Delivery]:
    """Send ``entries`` to ``gh``'s repository, each on its own. By itself (``by_hand`` False) an
    entry is skipped when it was given up, is for another repository or was not spooled by this
    canary (with a warning), and after a failure worth retrying the rest wait; by hand, every
    entry is tried, to the configured repository. Each delivery is appended to ``into`` as it
    happens (a stop signal meanwhile leaves what was done said there)."""
    say = log or (lambda msg: None)
    fate: dict[str, spool.Pending | None] = {}  # run id -> None (sent) or its entry as kept
    busy: set[str] = set()
    deliveries: list[Delivery] = [] if into is None else into
    tried, outage, given_up = 0, None, 0
    order = sorted(entries, key=lambda e: (e[1].tries, e[1].record.started_at, e[1].record.run_id, e[0] is None))
    for path, pending in order:
        rid = pending.record.run_id
        if rid in busy:
            continue
        trusted = by_hand or path is None or spool.ours(path, pending)
        if rid in fate and trusted:  # the same run's other copy: it follows the first
            kept = fate[rid]
            if kept is None:
                _clear(path, pending, store)
            else:
                _put_back(path, replace(kept, spool_id=pending.spool_id), store)
            continue
        if not by_hand:
            if pending.state == spool.GIVEN_UP:
                given_up += 1
                continue
            why = _not_resent(path, pending, gh.repo, trusted)
            if why:
                say(why)
                continue
            if outage is not None or tried >= RESEND_MAX:
                continue  # waits for the next invocation
        with spool.claimed(path) as mine:
            if not mine:
                busy.add(rid)  # another canary is sending it, or it is gone
                continue
            tried += 1
            delivery, fate[rid], retry_later = _send_one(path, pending, gh, secrets, store)
        deliveries.append(delivery)
        if retry_later and not by_hand:
            outage = delivery.error  # GitHub itself is in trouble: the rest wait rather than meet it too
    left = sum(1 for _, p in order if p.record.run_id not in fate and p.record.run_id not in busy)
    if not by_hand and left - given_up > 0 and (outage or tried >= RESEND_MAX):
        say(f"{left - given_up} earlier notification(s) still wait; the next notify sends them")
    if not by_hand and given_up:
        say(f"{given_up} notification(s) GitHub refused wait as given up: `canary notify --pending` lists them")
    return deliveries


def _not_resent(path, pending: spool.Pending, repo: str, trusted: bool) -> str | None:
    """Why an entry is not resent by itself: not spooled by this canary, or for another repository."""
    rid = pending.record.run_id
    if not trusted:
        return printable(
            f"ignored {path}: not spooled by this canary (its ledger does not name it), nothing was "
            f"sent; `canary notify --resend {rid} --repo OWNER/NAME` sends it, `--drop {rid}` drops it"
        )
    if pending.repo != repo:
        shown = printable(f"the notification of run {rid} in {_label(path)} is for {pending.repo[:200]}")
        return f"not resent: {shown}, not {repo}"
    return None


def _send_one(
    path, pending: spool.Pending, gh: GitHubClient, secrets: tuple[str, ...], store: HistoryStore | None
) -> tuple[Delivery, spool.Pending | None, bool]:
    """One entry sent: its delivery, the entry as kept (None: sent, and cleared), and whether the
    failure is worth trying again later (an outage, not a refusal)."""
    rid = pending.record.run_id
    try:
        facts = replace(pending.facts, secrets=secrets)
        actions = report(gh, pending.record, facts, pending.close_on_recovery)
    except Exception as e:  # noqa: BLE001 - whatever stops a delivery, the entry is kept
        error, stop = failure(e), gives_up(e)
        kept = replace(pending, error=error, tries=pending.tries + 1, state=spool.GIVEN_UP if stop else spool.WAITING)
        where = _put_back(path, kept, store)
        unreachable = getattr(e, "unreachable", False)
        status = GIVEN_UP if stop else SPOOLED
        delivery = Delivery(
            rid, status, error=error, spool_path=where, resent=True, unreachable=unreachable, repo=gh.repo
        )
        return delivery, kept, not stop
    _clear(path, pending, store)
    return Delivery(rid, SENT, actions, resent=True, repo=gh.repo), None, False


def select(entries: list[Entry], ids: tuple[str, ...]) -> list[Entry]:
    """The entries of the runs ``ids`` names (``all``: every one); an id with none is bad input."""
    if "all" in ids:
        return entries
    have = {p.record.run_id for _, p in entries}
    missing = [i for i in ids if i not in have]
    if missing:
        raise ConfigError(
            f"no pending notification for run {printable(missing[0])!r} (`canary notify --pending` lists them)"
        )
    return [e for e in entries if e[1].record.run_id in ids]


def drop(entries: list[Entry], store: HistoryStore | None) -> list[str]:
    """Remove ``entries`` (files and history marks); the run ids dropped."""
    for path, pending in entries:
        _clear(path, pending, store)
    return list(dict.fromkeys(p.record.run_id for _, p in entries))


def listing(entries: list[Entry], repo: str | None) -> list[dict[str, Any]]:
    """One row per pending notification: its run, state, repository, last error and where it is;
    ``note`` says why it is not resent by itself (given up, another repository, not spooled here)."""
    rows = []
    for path, p in entries:
        note = ""
        if p.state == spool.GIVEN_UP:
            note = "given up: GitHub refused it; --resend sends it again, --drop removes it"
        elif path is not None and not spool.ours(path, p):
            note = "not spooled by this canary: never resent by itself"
        elif repo and p.repo != repo:
            note = f"for {p.repo}: resent by a notify to that repository"
        rows.append(
            {
                "run_id": p.record.run_id,
                "lane": p.record.lane,
                "verdict": p.record.verdict,
                "state": p.state,
                "repo": p.repo,
                "tries": p.tries,
                "error": p.error,
                "spooled_at": p.spooled_at,
                "where": _label(path),
                "note": note,
            }
        )
    return rows


def own_entry(record: RunRecord, backend: str, repo: str, facts: Any, close_on_recovery: bool) -> spool.Pending:
    """A run's notification, as it is written before it is sent."""
    return spool.Pending(backend, repo, record, facts, close_on_recovery, "not sent yet: notifying was cut short")
