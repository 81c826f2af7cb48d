"""The GCS history backend against a real emulator (fake-gcs-server on 127.0.0.1), which
enforces generation preconditions: concurrent writers lose nothing, an outage spools."""

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gcs_emulator import Emulator, free_port

from canary.errors import ConfigError
from canary.history import StoreUnavailable, open_store
from canary.history.gcs import GcsStore, parse_url
from canary.record import RunRecord
from canary.signature import make

ROOT = Path(__file__).resolve().parent.parent
BUCKET = "canary-history"
SIG = make("compile_error", "ValueError", "The Pallas TPU lowering currently requires ...")


@pytest.fixture(scope="module")
def emulator(tmp_path_factory):
    e = Emulator(tmp_path_factory.mktemp("gcs")).start()
    e.create_bucket(BUCKET)
    yield e
    e.stop()


@pytest.fixture
def gcs_env(emulator, monkeypatch):
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", emulator.url)
    return emulator


_counter = iter(range(10**6))


@pytest.fixture
def url(gcs_env):
    return f"gs://{BUCKET}/t{next(_counter)}"


def rec(run_id: str, started: str, lane: str = "tpu", verdict: str = "fail") -> RunRecord:
    return RunRecord(
        run_id=run_id,
        lane=lane,
        ferry="moe-canary",
        ferry_version=1,
        verdict=verdict,
        steps_completed=238,
        final_loss=5.8,
        gates=[],
        run_dir="",
        started_at=started,
        classification="deterministic" if verdict == "fail" else "pass",
        signature=SIG if verdict == "fail" else None,
    )


def test_parse_url():
    assert parse_url("gs://b/x/y/") == ("b", "x/y")
    assert parse_url("gs://b") == ("b", "")


def test_append_records_get(url):
    store = GcsStore(url)
    assert store.records() == [] and store.get("nope") is None
    store.append(rec("b", "2026-08-28T03:00:00+00:00"))
    store.append(rec("a", "2026-08-27T03:00:00+00:00"))
    store.append(rec("g", "2026-08-27T05:00:00+00:00", lane="gpu", verdict="pass"))
    assert [r.run_id for r in store.records()] == ["a", "g", "b"]
    assert [r.run_id for r in store.records(lane="tpu")] == ["a", "b"]
    assert [r.run_id for r in store.records(since="2026-08-28")] == ["b"]
    assert store.get("a").signature == SIG
    # appending a run id again replaces the object and its index entry
    store.append(rec("a", "2026-08-27T03:00:00+00:00", verdict="pass"))
    assert store.get("a").verdict == "pass"
    assert [r.run_id for r in GcsStore(url).records(lane="tpu")] == ["a", "b"]


def test_layout_is_one_object_per_run_and_an_index_per_lane(url, gcs_env):
    GcsStore(url).append(rec("r1", "2026-08-27T03:00:00+00:00"))
    bucket, prefix = parse_url(url)
    client = GcsStore(url).client()
    names = sorted(b.name for b in client.list_blobs(bucket, prefix=prefix + "/"))
    assert names == [f"{prefix}/index/tpu.json", f"{prefix}/runs/r1.json"]
    index = json.loads(client.bucket(bucket).blob(f"{prefix}/index/tpu.json").download_as_bytes())
    assert index["runs"] == [
        {
            "run_id": "r1",
            "lane": "tpu",
            "started_at": "2026-08-27T03:00:00+00:00",
            "verdict": "fail",
            "classification": "deterministic",
            "fingerprint": SIG.fingerprint,
        }
    ]


def test_concurrent_writers_in_threads_lose_nothing(url):
    errors = []

    def write(k):
        try:
            store = GcsStore(url)
            for j in range(4):
                store.append(rec(f"t{k}-{j}", f"2026-08-{10 + j}T0{k}:00:00+00:00"))
        except Exception as e:  # surfaced below
            errors.append(e)

    threads = [threading.Thread(target=write, args=(k,)) for k in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert errors == []
    ids = {r.run_id for r in GcsStore(url).records(lane="tpu")}
    assert ids == {f"t{k}-{j}" for k in range(8) for j in range(4)}


WRITER = """
import sys
from canary.history.gcs import GcsStore
from canary.record import RunRecord
url, k = sys.argv[1], int(sys.argv[2])
store = GcsStore(url)
for j in range(3):
    lane = ("tpu", "gpu")[j % 2]
    store.append(RunRecord(run_id=f"p{k}-{j}", lane=lane, ferry="moe-canary", ferry_version=1, verdict="pass",
                           steps_completed=1, final_loss=1.0, gates=[], run_dir="",
                           started_at=f"2026-09-0{j + 1}T00:00:0{k}+00:00"))
"""


@pytest.mark.slow  # four writer processes, each importing canary
def test_concurrent_writers_in_processes_lose_nothing(url, gcs_env):
    env = {**os.environ, "PYTHONPATH": str(ROOT), "STORAGE_EMULATOR_HOST": gcs_env.url}
    procs = [
        subprocess.Popen([sys.executable, "-c", WRITER, url, str(k)], env=env, stderr=subprocess.PIPE, text=True)
        for k in range(4)
    ]
    for p in procs:
        _, err = p.communicate(timeout=300)
        assert p.returncode == 0, err
    records = GcsStore(url).records()
    assert sorted(r.run_id for r in records) == sorted(f"p{k}-{j}" for k in range(4) for j in range(3))
    assert [r.started_at for r in records] == sorted(r.started_at for r in records)


@pytest.mark.slow  # starts, stops and restarts its own emulator around a canary command
def test_outage_spools_and_the_next_invocation_uploads(tmp_path, monkeypatch, cli):
    """The emulator goes down during a run: the record is spooled; once it is back, `canary
    history` shows it from the spool without writing anything, and the next run's recording
    uploads it."""
    monkeypatch.setenv("CANARY_GCS_RETRY_S", "1")
    e = Emulator(tmp_path / "gcs", port=free_port()).start()
    e.create_bucket(BUCKET)
    url = f"gs://{BUCKET}/outage"
    spool = tmp_path / "spool"
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", e.url)
    open_store(url, spool_dir=spool).append(rec("before", "2026-08-27T03:00:00+00:00"))
    e.stop()  # the outage
    try:
        store = open_store(url, spool_dir=spool)
        assert store.append(rec("during", "2026-08-28T03:00:00+00:00")) == "spooled"
        assert "outage" in store.location and store.last_error
        assert [p.name for p in store.dir.glob("*.json")] == ["during.json"]
        with pytest.raises(StoreUnavailable):
            store.records()
    finally:
        e.start()  # the same port and contents: storage is back
    r = cli("history", "--history", url, "--json", env={"STORAGE_EMULATOR_HOST": e.url, "CANARY_SPOOL_DIR": str(spool)})
    e_records = None
    try:
        assert r.returncode == 0, r.stderr
        assert [x["run_id"] for x in json.loads(r.stdout)["records"]] == ["before", "during"]
        assert [p.name for p in store.dir.glob("*.json")] == ["during.json"]  # a read uploads nothing
        assert [x.run_id for x in GcsStore(url).records()] == ["before"]
        assert open_store(url, spool_dir=spool).append(rec("after", "2026-08-29T03:00:00+00:00")) == "stored"
        assert list(store.dir.glob("*.json")) == []
        e_records = [x.run_id for x in GcsStore(url).records()]
    finally:
        e.stop()
    assert e_records == ["before", "during", "after"]


def test_unreachable_endpoint_spools(tmp_path, monkeypatch):
    monkeypatch.setenv("CANARY_GCS_RETRY_S", "0.2")  # retried until the deadline, then spooled
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", f"http://127.0.0.1:{free_port()}")  # nothing listens
    store = open_store(f"gs://{BUCKET}/nowhere", spool_dir=tmp_path / "spool")
    assert store.append(rec("r1", "2026-08-27T03:00:00+00:00")) == "spooled"
    assert store.get("r1").run_id == "r1"
    assert store.last_error.startswith(f"gs://{BUCKET}/nowhere: ") and store.last_error.count("gs://") == 1


def test_missing_bucket_spools(url, tmp_path):
    store = open_store("gs://no-such-bucket-here/x", spool_dir=tmp_path / "spool")
    assert store.append(rec("r1", "2026-08-27T03:00:00+00:00")) == "spooled"
    assert "no-such-bucket-here" in store.last_error


def test_writes_retry_only_with_a_generation_precondition(monkeypatch):
    monkeypatch.setenv("CANARY_GCS_RETRY_S", "7")
    store = GcsStore("gs://b/p", client_factory=lambda: None)
    assert store.read_retry._timeout == 7
    assert store.write_retry.get_retry_policy_if_conditions_met(query_params={"ifGenerationMatch": 0}) is not None
    assert store.write_retry.get_retry_policy_if_conditions_met(query_params={}) is None
    monkeypatch.setenv("CANARY_GCS_RETRY_S", "soon")
    with pytest.raises(ConfigError, match="CANARY_GCS_RETRY_S"):
        GcsStore("gs://b/p", client_factory=lambda: None)


@pytest.mark.slow
def test_a_short_outage_is_ridden_out_by_the_retry_policy(tmp_path, monkeypatch):
    """The server is down when the record is written and back two seconds later: the library's
    retries store it (no spool), and the precondition keeps the retried create from doubling it."""
    e = Emulator(tmp_path / "gcs", port=free_port()).start()
    e.create_bucket(BUCKET)
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", e.url)
    monkeypatch.setenv("CANARY_GCS_RETRY_S", "30")
    url = f"gs://{BUCKET}/blip"
    store = open_store(url, spool_dir=tmp_path / "spool")
    store.append(rec("before", "2026-08-27T03:00:00+00:00"))
    e.stop()
    timer = threading.Timer(2.0, e.start)
    timer.start()
    try:
        assert store.append(rec("during", "2026-08-28T03:00:00+00:00")) == "stored"
        assert [r.run_id for r in GcsStore(url).records()] == ["before", "during"]
    finally:
        timer.join()
        e.stop()
