"""A run record's schema version: records carry it, an older one is brought up to today's in one
place (canary.record.migrate), step by step, and a newer one is a clear error, never keys dropped."""

import json
import sqlite3

import pytest
from conftest import ROOT, run_cli
from notify_records import failing, passing

from canary.errors import ConfigError
from canary.formats.directory import read_record
from canary.history.sqlite import SqliteStore
from canary.record import SCHEMA_VERSION, RunRecord, SchemaError, migrate


def _v1(record: RunRecord) -> dict:
    """The record as a canary before schema versions wrote it."""
    d = record.to_dict()
    del d["schema"], d["ferry_steps"]
    return d


def test_a_record_carries_its_schema_and_round_trips():
    r = failing()
    d = r.to_dict()
    assert d["schema"] == SCHEMA_VERSION == 2
    assert RunRecord.from_dict(json.loads(json.dumps(d))) == r


def test_a_version_1_record_is_migrated_step_by_step():
    one = failing(attempts=1)
    d = _v1(one)
    d["classification"] = "deterministic"  # what version 1 said of a run whose one attempt failed
    d["steps_requested"] = 200
    r = RunRecord.from_dict(d)
    assert r.classification == "unconfirmed" and r.ferry_steps == 200
    # two attempts that failed alike stay deterministic
    two = _v1(failing(attempts=2))
    two["classification"] = "deterministic"
    assert RunRecord.from_dict(two).classification == "deterministic"
    # a version 1 key that no field holds any more is dropped by its migration, once
    assert RunRecord.from_dict({**_v1(passing()), "retired_key": 1}).run_id == passing().run_id


def test_the_previous_canarys_history_still_reads():
    (d,) = json.loads((ROOT / "tests" / "legacy" / "history-v1.json").read_text())
    assert "schema" not in d
    r = RunRecord.from_dict(d)
    assert r.classification != "deterministic" or len(r.attempts) > 1
    assert RunRecord.from_dict(r.to_dict()) == r


@pytest.mark.parametrize(
    ("change", "says"),
    [
        ({"schema": SCHEMA_VERSION + 1}, "upgrade canary"),
        ({"schema": "2"}, "a version number"),
        ({"schema": True}, "a version number"),
        ({"schema": 0}, "a version number"),
        ({"unknown_key": 1}, "keys no field holds: unknown_key"),
    ],
)
def test_a_newer_or_unknown_schema_is_a_clear_error(change, says):
    with pytest.raises(SchemaError, match=says):
        migrate({**failing().to_dict(), **change})


def test_a_newer_record_in_a_run_directory_or_the_history_is_named(tmp_path):
    d = {**failing().to_dict(), "schema": SCHEMA_VERSION + 1}
    (tmp_path / "result.json").write_text(json.dumps(d))
    with pytest.raises(ConfigError, match="upgrade canary"):
        read_record(tmp_path)
    r = run_cli("history", "import", str(tmp_path), "--history", str(tmp_path / "h.sqlite3"))
    assert r.returncode == 2 and "upgrade canary" in r.stderr and "Traceback" not in r.stderr


def test_a_history_of_version_1_records_reads_through_the_store(tmp_path):
    store = SqliteStore(tmp_path / "h.sqlite3")
    store.append(failing(attempts=1))
    # the stored JSON as version 1 wrote it
    d = _v1(failing(attempts=1))
    d["classification"] = "deterministic"
    with sqlite3.connect(tmp_path / "h.sqlite3") as con:
        con.execute("update runs set record = ?", (json.dumps(d),))
    con.close()
    (r,) = SqliteStore(tmp_path / "h.sqlite3").records()
    assert r.run_id == failing().run_id and len(r.attempts) == 1
    assert r.classification == "unconfirmed"  # version 1's "deterministic" of a single attempt


def test_a_commands_json_around_a_record_reads_back_as_the_record():
    # `canary run --json` is the record and its answer's envelope: read back, the record alone
    r = failing()
    answer = {**r.to_dict(), "warnings": [], "after_run": {"notes": []}, "notify": {"ok": True}}
    assert RunRecord.from_dict(answer) == r
    listed = {**r.to_dict(), "series": "tpu/moe-canary", "short": False, "counted": True}  # history --json
    assert RunRecord.from_dict(listed) == r
