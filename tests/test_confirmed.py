"""Words that claim only what was seen: a failed run of one attempt is unconfirmed; a series whose
last two runs failed with one fingerprint is confirmed. In the issue, the comment, `canary history`
and the report."""

import dataclasses
import json

from github_server import REPO, client, github, spool_dir  # noqa: F401 (fixtures)
from notify_records import failing

from canary.history.sqlite import SqliteStore
from canary.judge.classify import classify
from canary.notify import notify
from canary.record import RunRecord
from canary.report import model


def _once(run_id: str, date: str):
    r = failing(run_id, date, lane="cpu", attempts=1)
    r.classification = classify(r.attempts)
    return r


def test_one_attempt_is_unconfirmed_until_the_next_run_fails_the_same_way(github, client, spool_dir):
    first = _once("20260828T060000Z-cpu-ab12", "2026-08-28")
    assert first.classification == "unconfirmed"
    res = notify(first, history=[first], repo=REPO, client=client)
    assert [a.kind for a in res.deliveries[-1].actions] == ["opened"]
    [issue] = github.state.issues()
    assert "Unconfirmed until it recurs" in issue["body"] and "eterministic" not in issue["body"]
    assert "**The scheduled cpu canary failed (2026-08-28)**" in issue["body"]  # filed as before

    second = _once("20260829T060000Z-cpu-cd34", "2026-08-29")
    res = notify(second, history=[first, second], repo=REPO, client=client)
    assert [a.kind for a in res.deliveries[-1].actions] == ["commented"]
    [comment] = github.state.comments(issue["number"])
    assert "Confirmed: the last two runs on this lane failed with this signature." in comment["body"]


def test_history_and_report_say_unconfirmed_and_confirmed(tmp_path, cli):
    store = SqliteStore(tmp_path / "h.sqlite3")
    first = _once("20260828T060000Z-cpu-ab12", "2026-08-28")
    store.append(first)
    proc = cli("history", "--history", str(tmp_path / "h.sqlite3"), env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    assert "unconfirmed" in proc.stdout and "deterministic" not in proc.stdout
    store.append(_once("20260829T060000Z-cpu-cd34", "2026-08-29"))
    proc = cli("history", "--history", str(tmp_path / "h.sqlite3"), "--json")
    [series] = json.loads(proc.stdout)["series"]
    assert series["streak"]["runs"] == 2 and series["streak"]["confirmed"] is True
    other = dataclasses.replace(
        _once("20260830T060000Z-cpu-ef56", "2026-08-30"),
        signature=dataclasses.replace(first.signature, fingerprint="0a1b2c3d4e5f"),
    )
    store.append(other)
    proc = cli("history", "--history", str(tmp_path / "h.sqlite3"), env={"COLUMNS": "200", "NO_COLOR": "1"})
    line = next(ln for ln in proc.stdout.splitlines() if ln.strip().startswith("cpu/"))
    assert line.rstrip().endswith("0a1b2c3d4e5f, unconfirmed")  # another failure: seen once so far
    assert model.cell(first).label == "U" and "unconfirmed" in model.CLASSES


def test_a_run_an_earlier_canary_called_deterministic_on_one_attempt_is_shown_unconfirmed(tmp_path, cli):
    # as a canary before record schemas wrote it: no "schema", and "deterministic" of one attempt
    written = failing("20260828T060000Z-cpu-ab12", "2026-08-28", lane="cpu", attempts=1).to_dict()
    del written["schema"]
    old = RunRecord.from_dict({**written, "classification": "deterministic"})
    assert old.classification == "unconfirmed"  # read through the one migration
    store = SqliteStore(tmp_path / "h.sqlite3")
    store.append(old)
    proc = cli("history", "--history", str(tmp_path / "h.sqlite3"), env={"COLUMNS": "200", "NO_COLOR": "1"})
    assert "unconfirmed" in proc.stdout and "deterministic" not in proc.stdout
    assert model.cell(old).label == "U"
    four = failing("20260828T060000Z-tpu-ab12", "2026-08-28", attempts=4, classification="deterministic")
    assert model.cell(four).label == "D"  # four attempts failing alike were seen
