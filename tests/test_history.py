"""The history store (SQLite backend, the spool, open_store) and the runner recording into it."""

import json
import os
import shutil
import sqlite3
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

import pytest
from github_server import REPO, TOKEN, github  # noqa: F401 (fixture)

from canary import history as history_mod
from canary.errors import ConfigError
from canary.history import open_store, record_run, since_key
from canary.history.spool import SpoolingStore
from canary.history.sqlite import SqliteStore
from canary.record import Attempt, RunRecord
from canary.run.context import github_run_url, run_context
from canary.run.runner import RunOptions, run_canary
from canary.signature import make

ROOT = Path(__file__).resolve().parent.parent
PALLAS = make(
    "compile_error", "ValueError", "The Pallas TPU lowering currently requires ...", ["canary/workload/train.py:train"]
)


def rec(run_id: str, started: str, lane: str = "tpu", verdict: str = "fail") -> RunRecord:
    attempts = [
        Attempt(
            n,
            "failed",
            1,
            2.5,
            f"attempt-{n}/train.log",
            None,
            None,
            error="ValueError: ...",
            cache={"mode": "warm", "requests": 3, "hits": 0, "misses": 3, "errors": [], "compile_seconds": 4.2},
            signature=PALLAS,
            job_id=f"job-{n}",
        )
        for n in (1, 2)
    ]
    return RunRecord(
        run_id=run_id,
        lane=lane,
        ferry="moe-canary",
        ferry_version=1,
        verdict=verdict,
        steps_completed=None,
        final_loss=float("nan"),
        gates=[{"name": "min_steps", "value": None, "threshold": 200, "status": "FAIL"}],
        run_dir=f"/runs/{run_id}",
        attempts=attempts,
        started_at=started,
        ended_at=started,
        versions={"jax": "0.10.2"},
        commit="abc123",
        classification="deterministic",
        signature=PALLAS if verdict == "fail" else None,
        context={"job_id": "j1", "ci_run_url": "https://x/1"},
    )


def same(a: RunRecord, b: RunRecord) -> bool:
    return json.dumps(a.to_dict(), sort_keys=True) == json.dumps(b.to_dict(), sort_keys=True)


# ----------------------------------------------------------------------------- records


def test_record_round_trip_keeps_everything():
    r = rec("r1", "2026-08-27T03:00:00+00:00")
    back = RunRecord.from_dict(json.loads(json.dumps(r.to_dict())))
    assert same(r, back)
    assert back.attempts[0].signature == PALLAS
    assert back.signature.frames == ["canary/workload/train.py:train"]
    assert back.final_loss != back.final_loss  # NaN survives as "nan"


# ----------------------------------------------------------------------------- sqlite


def test_sqlite_append_records_get(tmp_path):
    store = SqliteStore(tmp_path / "h.sqlite3")
    assert store.records() == [] and store.get("nope") is None
    store.append(rec("b", "2026-08-28T03:00:00+00:00"))
    store.append(rec("a", "2026-08-27T03:00:00+00:00"))
    store.append(rec("g", "2026-08-27T05:00:00+00:00", lane="gpu", verdict="pass"))
    assert [r.run_id for r in store.records()] == ["a", "g", "b"]  # oldest first
    assert [r.run_id for r in store.records(lane="tpu")] == ["a", "b"]
    assert [r.run_id for r in store.records(since="2026-08-28")] == ["b"]
    assert [r.run_id for r in store.records(since="2026-08-27T04:00:00+00:00")] == ["g", "b"]
    assert same(store.get("a"), rec("a", "2026-08-27T03:00:00+00:00"))
    # storing a run id again replaces it
    store.append(rec("a", "2026-08-27T03:00:00+00:00", verdict="pass"))
    assert store.get("a").verdict == "pass" and len(store.records()) == 3


def test_sqlite_concurrent_writers(tmp_path):
    path = tmp_path / "h.sqlite3"

    def write(k):
        store = SqliteStore(path)
        for j in range(5):
            store.append(rec(f"w{k}-{j}", f"2026-08-{10 + j}T0{k}:00:00+00:00"))

    threads = [threading.Thread(target=write, args=(k,)) for k in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(SqliteStore(path).records()) == 30


def test_since_parsing():
    assert since_key("2026-08-27") == "2026-08-27"
    assert since_key("2026-08-27T05:00:00+02:00") == "2026-08-27T03:00:00+00:00"
    assert since_key(None) is None
    with pytest.raises(ConfigError, match="yesterday"):
        since_key("yesterday")


def test_open_store_locations(tmp_path, monkeypatch):
    monkeypatch.setenv("CANARY_HISTORY", str(tmp_path / "env.sqlite3"))
    assert open_store(None, spool_dir=tmp_path / "spool").location == str(tmp_path / "env.sqlite3")
    monkeypatch.delenv("CANARY_HISTORY")
    default = history_mod.default_location()
    assert default.endswith("history.sqlite3") and "canary" in default
    (tmp_path / "dir").mkdir()
    assert open_store(str(tmp_path / "dir"), spool_dir=tmp_path / "s").location == str(
        tmp_path / "dir" / "history.sqlite3"
    )
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", "http://127.0.0.1:9")  # an emulator needs no credentials
    assert (
        open_store("gs://bucket/some/prefix", spool_dir=tmp_path / "s", flush=False).location
        == "gs://bucket/some/prefix"
    )
    monkeypatch.delenv("STORAGE_EMULATOR_HOST")
    monkeypatch.delenv("GOOGLE_APPLICATION_CREDENTIALS", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))  # no gcloud application-default credentials either
    monkeypatch.setenv("CLOUDSDK_CONFIG", str(tmp_path / "gcloud"))
    with pytest.raises(
        ConfigError,
        match=r"--history gs://bucket/p: no Google Cloud credentials found.*"
        r"google-github-actions/auth.*GOOGLE_APPLICATION_CREDENTIALS",
    ):
        open_store("gs://bucket/p", spool_dir=tmp_path / "s", flush=False)
    with pytest.raises(ConfigError, match="s3"):
        open_store("s3://bucket/x")
    with pytest.raises(ConfigError, match="bucket"):
        open_store("gs:///x")


# ----------------------------------------------------------------------------- spool


def test_spool_keeps_what_the_store_refuses_and_uploads_it_next_time(tmp_path):
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the store's directory should be")
    location = str(blocker / "history.sqlite3")
    spool = tmp_path / "spool"

    store = open_store(location, spool_dir=spool)
    assert store.append(rec("r1", "2026-08-27T03:00:00+00:00")) == "spooled"
    assert store.append(rec("r2", "2026-08-28T03:00:00+00:00")) == "spooled"
    assert "not-a-dir" in store.last_error
    assert sorted(p.name for p in store.dir.glob("*.json")) == ["r1.json", "r2.json"]
    assert store.get("r1").run_id == "r1"  # still readable from the spool

    blocker.unlink()  # the outage ends
    again = open_store(location, spool_dir=spool)  # the next invocation
    assert list(again.dir.glob("*.json")) == []
    assert [r.run_id for r in SqliteStore(Path(location)).records()] == ["r1", "r2"]


def test_spooled_records_show_in_records(tmp_path):
    store = SpoolingStore(SqliteStore(tmp_path / "h.sqlite3"), tmp_path / "spool")
    store.append(rec("stored", "2026-08-27T03:00:00+00:00"))
    store._spool(rec("waiting", "2026-08-28T03:00:00+00:00"))
    (store.dir / "torn.json").write_text("{not json")  # a half-written file is ignored
    assert [r.run_id for r in store.records()] == ["stored", "waiting"]
    assert [r.run_id for r in store.records(since="2026-08-28")] == ["waiting"]
    assert store.flush() == 1 and store.get("waiting").run_id == "waiting"


def test_each_series_latest_runs_from_sqlite_and_the_spool_are_those_of_all_the_records(tmp_path):
    import random
    from dataclasses import replace

    from canary.history import series
    from canary.history.store import select, windowed

    rng = random.Random(3)
    store = SpoolingStore(SqliteStore(tmp_path / "h.sqlite3"), tmp_path / "spool")
    everything = []
    for n in range(120):
        lane, ferry = rng.choice(["tpu", "gpu"]), rng.choice(["moe-canary", "grug-moe-canary"])
        day = f"2026-08-{1 + rng.randrange(28):02d}T0{rng.randrange(10)}:00:00+00:00"  # ties in started_at too
        r = replace(rec(f"r{n:03d}", day, lane=lane, verdict=rng.choice(["pass", "fail"])), ferry=ferry)
        everything.append(r)
        if n % 9 == 0:
            store._spool(r)  # waiting: shown with the store's
        else:
            store.append(r)
    for per_series in (1, 5, 40):
        for lane, since in ((None, None), ("tpu", None), (None, "2026-08-15"), ("gpu", "2026-08-20")):
            want = [r.run_id for r in series.latest(select(everything, lane, since), per_series)]
            assert [r.run_id for r in windowed(store, per_series, lane, since)] == want, (per_series, lane, since)
            assert [r.run_id for r in store.inner.latest(per_series, lane, since)] == [
                r.run_id for r in series.latest(store.inner.records(lane, since), per_series)
            ]
    keys = {series.series_of(r) for r in everything}
    assert len(series.latest(everything, 5)) == 5 * len(keys) and len(keys) == 4


def test_a_record_as_a_dict_is_what_asdict_made_of_it():
    from dataclasses import asdict, replace

    from canary.record import SCHEMA_VERSION, jsonable

    r = rec("r1", "2026-08-27T03:00:00+00:00")
    r = replace(r, summary={"a": float("inf"), "b": (1, 2.5, float("nan")), "c": {"d": [True, None, {"e": 1}]}})
    made = {"schema": SCHEMA_VERSION, **jsonable(asdict(r))}  # the schema version first, then the fields
    assert r.to_dict() == made
    assert json.dumps(r.to_dict()) == json.dumps(made)


def test_json_with_one_record_a_line_is_the_indented_json():
    import click
    from click.testing import CliRunner

    from canary.commands._common import emit_json

    cases = [
        {"location": "x\ny", "records": [{"a": [1, 2], "b": "nan"}, {"c": {}}], "more": {"d": [1, {"e": 2}]}},
        {"records": []},
        {"series": [], "records": [1]},
        {},
    ]

    @click.command()
    @click.argument("n", type=int)
    @click.option("--lines", is_flag=True)
    def show(n, lines):
        case = dict(cases[n])
        if lines and "records" in case:
            case["records"] = iter(case["records"])  # a generator is written as it goes
        emit_json(case, one_per_line=("records",) if lines else ())

    for n, case in enumerate(cases):
        plain = CliRunner().invoke(show, [str(n)]).output
        lines = CliRunner().invoke(show, [str(n), "--lines"]).output
        assert json.loads(lines) == json.loads(plain) == case
        assert all(
            f"    {json.dumps(r)}" in [x.rstrip(",") for x in lines.splitlines()] for r in case.get("records", [])
        )


def test_record_run_never_raises(tmp_path, monkeypatch):
    monkeypatch.setenv("CANARY_SPOOL_DIR", str(tmp_path / "spool"))
    ok = record_run(rec("r1", "2026-08-27T03:00:00+00:00"), str(tmp_path / "h.sqlite3"))
    assert ok == {"location": str(tmp_path / "h.sqlite3"), "status": "stored"}
    (tmp_path / "f").write_text("")
    spooled = record_run(rec("r2", "2026-08-27T03:00:00+00:00"), str(tmp_path / "f" / "h.sqlite3"))
    assert spooled["status"] == "spooled" and "uploaded by the next" in spooled["detail"]
    monkeypatch.setenv("CANARY_SPOOL_DIR", str(tmp_path / "f" / "spool"))  # even the spool is unwritable:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "tmp"))  # kept under the temporary directory
    fallback = record_run(rec("r3", "2026-08-27T03:00:00+00:00"), str(tmp_path / "f" / "h.sqlite3"))
    assert fallback["status"] == "spooled" and f"kept in {tmp_path / 'tmp'}" in fallback["detail"]
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "f" / "tmp"))  # and when that is unwritable too
    failed = record_run(rec("r4", "2026-08-27T03:00:00+00:00"), str(tmp_path / "f" / "h.sqlite3"))
    assert failed["status"] == "failed"


def test_sqlite_schema_is_plain(tmp_path):
    store = SqliteStore(tmp_path / "h.sqlite3")
    store.append(rec("r1", "2026-08-27T03:00:00+00:00"))
    with sqlite3.connect(tmp_path / "h.sqlite3") as conn:
        row = conn.execute("SELECT run_id, lane, verdict, fingerprint FROM runs").fetchone()
    assert row == ("r1", "tpu", "fail", PALLAS.fingerprint)


# ----------------------------------------------------------------------------- context


def test_run_context_from_github_actions():
    env = {
        "GITHUB_ACTIONS": "true",
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_REPOSITORY": "org/canary",
        "GITHUB_RUN_ID": "1234",
        "GITHUB_RUN_ATTEMPT": "2",
        "GITHUB_WORKFLOW": "canary-tpu",
    }
    assert github_run_url(env) == "https://github.com/org/canary/actions/runs/1234/attempts/2"
    ctx = run_context(env, job_id="raysubmit_1", lane_context="GCP, TPU v6e-4, europe-west4")
    assert ctx["ci_run_url"] == "https://github.com/org/canary/actions/runs/1234/attempts/2"
    assert ctx["job_id"] == "raysubmit_1" and ctx["ci"]["workflow"] == "canary-tpu"
    assert ctx["lane_context"] == "GCP, TPU v6e-4, europe-west4"
    assert run_context(env, ci_run_url="https://ci/9")["ci_run_url"] == "https://ci/9"  # a flag wins
    assert run_context({"CANARY_WANDB_URL": "https://wandb.ai/x/y"}) == {"wandb_url": "https://wandb.ai/x/y"}
    assert run_context({}) == {}


# ----------------------------------------------------------------------------- the runner


def _broken_lanes(tmp_path) -> Path:
    """A cpu lane whose workload cannot start JAX: a crash in seconds, on every attempt."""
    lanes = tmp_path / "lanes.toml"
    lanes.write_text(
        '[lanes.cpu]\nplatform = "cpu"\nattempts = 2\ntimeout_s = 300\ncontext = "local CPU"\n'
        'launcher = { kind = "local", env = { JAX_PLATFORMS = "nosuchplatform" } }\n'
    )
    return lanes


@pytest.mark.slow
def test_crashing_run_is_classified_fingerprinted_and_recorded(tmp_path, monkeypatch):
    monkeypatch.setenv("GITHUB_REPOSITORY", "org/canary")
    monkeypatch.setenv("GITHUB_RUN_ID", "42")
    monkeypatch.setenv("GITHUB_SERVER_URL", "https://github.com")
    history = tmp_path / "h.sqlite3"
    monkeypatch.chdir(ROOT)  # the checkout: its commit is recorded
    result = run_canary(
        RunOptions(
            lane="cpu",
            steps=5,
            out=tmp_path / "runs",
            lanes_file=str(_broken_lanes(tmp_path)),
            history=str(history),
            job_id="job-7",
        )
    )
    assert result.verdict == "fail"
    assert [a.outcome for a in result.attempts] == ["failed", "failed"]
    a1, a2 = result.attempts
    assert a1.signature is not None and a1.signature.fingerprint == a2.signature.fingerprint
    assert result.classification == "deterministic"
    assert result.signature == a2.signature and result.signature.kind == "runtime_crash"
    assert "nosuchplatform" in result.signature.message
    assert result.commit and len(result.commit) == 40
    assert result.context["job_id"] == "job-7"
    assert result.context["ci_run_url"] == "https://github.com/org/canary/actions/runs/42"
    assert result.context["history"] == {"location": str(history), "status": "stored"}
    stored = SqliteStore(history).get(result.run_id)
    assert stored.signature == result.signature and stored.classification == "deterministic"
    on_disk = json.loads((Path(result.run_dir) / "result.json").read_text())
    assert on_disk["context"]["history"]["status"] == "stored"


@pytest.mark.slow
def test_run_then_history_on_the_command_line(cli, tmp_path):
    """A 10-step ferry's run (lenient gates, so it passes), then a crash, then a crash that asked
    for fewer steps than the ferry's, all through the CLI; `canary history` shows them with a
    pass/fail strip of the series (cpu/quick-canary) that counts the first two only. The 10-step
    ferry is one of its own name: under the pinned one's name it would be an experiment."""
    gates = tmp_path / "lenient.toml"
    gates.write_text("[lanes.cpu]\nmin_steps = 10\nmax_final_loss = 20.0\n")
    pinned = (Path(__file__).parents[1] / "ferries" / "moe-canary.toml").read_text()
    assert pinned.count("steps = 200\n") == 1
    ferry = tmp_path / "quick-canary.toml"
    own = pinned.replace("steps = 200\n", "steps = 10\n").replace('name = "moe-canary"', 'name = "quick-canary"')
    ferry.write_text(own)
    history = str(tmp_path / "h.sqlite3")
    env = {"CANARY_SPOOL_DIR": str(tmp_path / "spool")}
    r = cli(
        "run",
        "cpu",
        "--ferry",
        str(ferry),
        "--gates",
        str(gates),
        "--out",
        str(tmp_path / "runs"),
        "--history",
        history,
        "--wandb-url",
        "https://wandb.ai/org/canary/runs/abc",
        "--json",
        env=env,
    )
    assert r.returncode == 0, r.stderr[-2000:]
    passed = json.loads(r.stdout)
    assert passed["classification"] == "pass" and passed["signature"] is None
    assert passed["context"]["wandb_url"] == "https://wandb.ai/org/canary/runs/abc"

    for steps in ([], ["--steps", "5"]):
        r = cli(
            "run",
            "cpu",
            "--ferry",
            str(ferry),
            "--gates",
            str(gates),
            *steps,
            "--out",
            str(tmp_path / "runs"),
            "--history",
            history,
            env={**env, "CANARY_LANES": str(_broken_lanes(tmp_path))},
        )
        assert r.returncode == 1
        assert "deterministic" in r.stdout and "runtime_crash" in r.stdout

    r = cli("history", "--history", history, "--json", env=env)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert [(x["verdict"], x["short"]) for x in report["records"]] == [("pass", False), ("fail", False), ("fail", True)]
    [series] = report["series"]
    assert (series["series"], series["strip"], series["runs"], series["short_runs"]) == ("cpu/quick-canary", "PF", 3, 1)
    assert series["streak"]["runs"] == 1
    fp = report["records"][1]["signature"]["fingerprint"]
    assert report["occurrences"][fp]["count"] == 2  # a short run's failure is still an occurrence

    r = cli("history", "--history", history, env=env)
    assert r.returncode == 0
    assert "deterministic" in r.stdout and fp in r.stdout and "flakiness 1.00" in r.stdout
    assert ", a short run of 5" in r.stdout and "1 short run not counted" in r.stdout
    r = cli("history", "--history", history, "--lane", "tpu", env=env)
    assert "no runs recorded" in r.stdout
    r = cli("history", "--history", history, "--since", "last week", env=env)
    assert r.returncode == 2 and "--since" in r.stderr
    r = cli("run", "cpu", "--history", "s3://x/y", env=env)
    assert r.returncode == 2 and "s3" in r.stderr


@pytest.mark.slow
def test_an_impossible_gates_copy_is_an_experiment_kept_out_of_the_series(cli, github, tmp_path):
    """A copied gates file in the working directory made impossible: `canary run` fails it, names it
    an experiment and suggests --no-history, notifies nothing; the history records it apart, and
    the series keeps its last pass, no streak, flakiness 0 and no new signature, as does the report."""
    from notify_records import passing

    root = Path(__file__).parents[1]
    history = str(tmp_path / "h.sqlite3")
    SqliteStore(Path(history)).append(
        passing("20261201T060000Z-cpu-0001", "2026-12-01", lane="cpu", steps_requested=200, ferry_steps=200)
    )
    work = tmp_path / "work"
    shutil.copytree(root / "gates", work / "gates")  # the gates with their goldens, as a user copies them
    pinned = (root / "gates" / "moe-canary.toml").read_text()
    assert pinned.count("max_final_loss = 4.0") == 1
    (work / "gates" / "moe-canary.toml").write_text(pinned.replace("max_final_loss = 4.0", "max_final_loss = 0.01"))
    env = {
        "CANARY_SPOOL_DIR": str(tmp_path / "spool"),
        "CANARY_NOTIFY_SPOOL": str(tmp_path / "notify-spool"),
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_API_URL": github.url,
        "COLUMNS": "200",
    }
    args = ("run", "cpu", "--out", str(tmp_path / "runs"), "--history", history, "--notify", "github", "--repo", REPO)
    r = cli(*args, cwd=work, env=env)
    assert r.returncode == 1, r.stdout + r.stderr[-3000:]  # the impossible gate failed
    out = " ".join(r.stdout.split())
    assert "gates: ./gates/moe-canary.toml (local override of the pinned gates file)" in out
    assert f"experiment: gates file {work / 'gates' / 'moe-canary.toml'} is not the pinned gates/moe-canary.toml" in out
    assert "--no-history to leave it out of the history" in out and "not notified" in out
    assert "as an experiment" in out
    assert github.state.writes() == []  # no issue, no comment, no label

    r = cli("history", "--history", history, "--json", env=env)
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    exp = report["records"][-1]
    assert exp["verdict"] == "fail" and exp["counted"] is False and "gates/moe-canary.toml" in exp["experiment"]
    [series] = report["series"]
    assert (series["series"], series["strip"], series["runs"], series["experiments"]) == ("cpu/moe-canary", "P", 2, 1)
    assert series["streak"]["runs"] == 0 and series["flakiness"] == 0.0
    assert series["last_pass"] == "20261201T060000Z-cpu-0001"
    assert report["occurrences"] == {}  # the experiment's failure is no signature of the series

    r = cli("history", "--history", history, env=env)
    assert r.returncode == 0, r.stderr
    main, apart = r.stdout.split("Experiments (a ferry or gates file not the pinned one)")
    assert "✗ FAIL" not in main and "1 experiment not counted" in apart and "is not the pinned" in apart

    page = tmp_path / "report.html"
    r = cli("report", "--history", history, "--out", str(page), env=env)
    assert r.returncode == 0, r.stderr
    html = page.read_text()
    assert "1 experiment, in lower case, not counted" in html and "latest run passed" in html
    signatures = html.split("<h2>Failure signatures", 1)[1].split("<h2>Runs", 1)[0]
    assert exp["signature"]["fingerprint"] not in signatures


def test_history_command_does_not_import_jax(cli, tmp_path):
    code = (
        "import sys; from canary.cli import cli; "
        "import canary.commands.history, canary.commands.signature; "
        "print(any(m == 'jax' or m.startswith('jax.') for m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert out.stdout.strip() == "False", out.stderr
    r = cli("history", "--history", str(tmp_path / "empty.sqlite3"))
    assert r.returncode == 0 and "no runs recorded" in r.stdout
    r = cli("history", "--history", str(tmp_path / "empty.sqlite3"), "--since", "2026-08-01")
    assert r.returncode == 0 and "no runs recorded" in r.stdout and "since 2026-08-01" in r.stdout


def test_the_steps_column_says_what_a_run_was_to_train():
    """A --steps 3 run reads "3 of 200" (its ferry's), a crash at step 5 of 30 "5 of 30"."""
    from dataclasses import replace

    from canary.render import steps_cell
    from tests.perf_records import run

    full = replace(run(0), steps_completed=200, steps_requested=200, ferry_steps=200)
    assert steps_cell(full) == "200"
    assert steps_cell(replace(full, steps_completed=3, steps_requested=3)) == "3 of 200, a short run of 3"
    assert steps_cell(replace(full, steps_completed=5, steps_requested=30, ferry_steps=30)) == "5 of 30"
    assert steps_cell(replace(full, steps_requested=None, ferry_steps=None)) == "200"  # an older record
