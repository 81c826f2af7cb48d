"""Round 3 against what canary is handed and where it keeps runs (#34): a config that passed
validation and broke later, a malformed GCS history, links that are not http(s), numeric
environment settings that are not numbers, a symlink loop as the history, an unreachable package
index. Each is tried through the real command line, on real files, against the fake-gcs-server
and loopback servers (127.0.0.1 only)."""

from __future__ import annotations

import http.server
import json
import re
import sys
import threading
from pathlib import Path

import pytest
from adversary import PY, canary_cli, lanes_toml
from conftest import ROOT, run_cli
from gcs_emulator import free_port
from notify_records import failing, passing
from test_gcs_history import BUCKET, emulator  # noqa: F401 (fixture)

from canary.history import open_store
from canary.history.gcs import GcsStore, parse_url


def _clean(r) -> str:
    """stdout and stderr, once stderr shows no traceback (stdout may show a record's own)."""
    err = r.stderr.decode(errors="replace") if isinstance(r.stderr, bytes) else r.stderr
    out = r.stdout.decode(errors="replace") if isinstance(r.stdout, bytes) else r.stdout
    assert "Traceback" not in err, err
    return out + err


# ----------------------------------------------------------------------------- 6. bad config


def test_a_watched_path_glob_that_is_no_glob_is_bad_input_at_load(tmp_path):
    ferries = tmp_path / "ferries"
    ferries.mkdir()
    text = (ROOT / "ferries" / "moe-canary.toml").read_text()
    (ferries / "moe-canary.toml").write_text(text.replace("watched_paths = [", 'watched_paths = ["src/[z-a]", ', 1))
    r = canary_cli("run", "cpu", "--ferry", str(ferries / "moe-canary.toml"), tmp_path=tmp_path)
    out = _clean(r)
    assert r.returncode == 2 and "watched_paths: 'src/[z-a]' is not a valid glob" in out, out
    # the ferry found by name (as notify and history find a record's) is refused the same way
    r = run_cli("list", env={"CANARY_FERRIES_PATH": str(ferries)})
    assert r.returncode == 2 and "watched_paths" in _clean(r)


# ----------------------------------------------------------------------------- 7. a malformed GCS history


_prefixes = iter(range(10**6))


@pytest.fixture
def gcs(emulator, tmp_path, monkeypatch):
    """A fresh prefix of the emulator's bucket holding two runs of lane tpu, and a way to put any
    bytes at any object of it."""
    url = f"gs://{BUCKET}/r3-{next(_prefixes)}"
    env = {"STORAGE_EMULATOR_HOST": emulator.url, "CANARY_GCS_RETRY_S": "1", "CANARY_SPOOL_DIR": str(tmp_path / "sp")}
    monkeypatch.setenv("STORAGE_EMULATOR_HOST", emulator.url)
    store = GcsStore(url)
    store.append(passing("r-old", "2026-08-20"))
    store.append(failing("r-new", "2026-08-28"))
    bucket, prefix = parse_url(url)

    def put(name: str, data: bytes) -> str:
        store.bucket().blob(f"{prefix}/{name}").upload_from_string(data)
        return f"gs://{bucket}/{prefix}/{name}"

    def delete(name: str) -> str:
        store.bucket().blob(f"{prefix}/{name}").delete()
        return f"gs://{bucket}/{prefix}/{name}"

    return url, env, put, delete


BAD_INDEXES = {
    "not JSON": b"{not json",
    "a list": b"[1, 2]",
    "runs null": b'{"runs": null}',
    "not UTF-8": b"\xff\xfe\x00",
    "nested too deeply": b"[" * 100_000 + b"]" * 100_000,
}


@pytest.mark.parametrize("kind", sorted(BAD_INDEXES))
def test_a_malformed_index_is_the_store_unavailable_naming_the_object(kind, gcs):
    url, env, put, _ = gcs
    name = put("index/tpu.json", BAD_INDEXES[kind])
    r = run_cli("history", "--history", url, env=env)
    out = _clean(r)
    assert r.returncode == 1 and "store unavailable" in out and name in out, out


def test_an_index_entry_with_no_run_id_is_skipped_with_a_warning(gcs):
    url, env, put, _ = gcs
    index = json.loads(GcsStore(url).bucket().blob(f"{parse_url(url)[1]}/index/tpu.json").download_as_bytes())
    index["runs"] += [{"lane": "tpu"}, 5, {"run_id": "../../etc/x"}]
    name = put("index/tpu.json", json.dumps(index).encode())
    r = run_cli("history", "--history", url, "--json", env=env)
    out = _clean(r)
    assert r.returncode == 0, out
    assert [x["run_id"] for x in json.loads(r.stdout)["records"]] == ["r-old", "r-new"]
    assert f"warning: {name}: entry 2 has no run_id: skipped" in r.stderr
    assert "entry 3 is a JSON int" in r.stderr and "entry 4 skipped: run_id" in r.stderr


@pytest.mark.parametrize("data", [None, b"garbage", b"[1, 2, 3]", b'{"run_id": "r-old"}', b'"a string"'], ids=repr)
def test_a_run_object_deleted_or_broken_is_skipped_and_every_other_record_kept(data, gcs):
    url, env, put, delete = gcs
    name = delete("runs/r-old.json") if data is None else put("runs/r-old.json", data)
    r = run_cli("history", "--history", url, "--json", env=env)
    out = _clean(r)
    assert r.returncode == 0, out
    assert [x["run_id"] for x in json.loads(r.stdout)["records"]] == ["r-new"]
    assert f"warning: gs://{BUCKET}/" in r.stderr and name in r.stderr and "skipped" in r.stderr
    r = run_cli("report", "--history", url, "--out", str(Path(env["CANARY_SPOOL_DIR"]).parent / "r.html"), env=env)
    assert r.returncode == 0 and name in _clean(r)


def test_a_run_with_a_broken_index_spools_its_record_and_the_next_run_uploads_it(gcs, tmp_path):
    """`canary run` used to leave only pending-record.json, never spooled nor retried."""
    url, env, put, delete = gcs
    name = put("index/cpu.json", b'{"runs": null}')
    lanes = lanes_toml(tmp_path, [PY, "-c", "import sys; print('RuntimeError: x'); sys.exit(1)", "{entrypoint}"])
    run = ("run", "cpu", "--out", str(tmp_path / "runs"), "--history", url, "--json")
    r = canary_cli(*run, tmp_path=tmp_path, CANARY_LANES=str(lanes), **env)
    _clean(r)
    said = json.loads(r.stdout)["context"]["history"]
    assert said["status"] == "spooled" and "store unavailable" in said["detail"] and name in said["detail"], said
    spooled = list(Path(env["CANARY_SPOOL_DIR"]).rglob("*.json"))
    assert len(spooled) == 1
    first = spooled[0].stem
    # the index is repaired (here: removed); the next run uploads the spooled record, then its own
    delete("index/cpu.json")
    r = canary_cli(*run, tmp_path=tmp_path, CANARY_LANES=str(lanes), **env)
    assert json.loads(r.stdout)["context"]["history"]["status"] == "stored", r.stdout
    assert list(Path(env["CANARY_SPOOL_DIR"]).rglob("*.json")) == []
    ids = [x.run_id for x in GcsStore(url).records(lane="cpu")]
    assert first in ids and len(ids) == 2


# ----------------------------------------------------------------------------- 8. links in the report

HOSTILE_URLS = [
    "javascript:alert(document.cookie)",
    "JaVaScRiPt:alert(1)",
    " javascript:alert(1)",
    "\njavascript:alert(1)",
    "java\tscript:alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "vbscript:msgbox(1)",
    'https://x.example/"onmouseover="alert(1)',
]


def _hostile_history(tmp_path: Path, url: str) -> str:
    history = str(tmp_path / "h.sqlite3")
    store = open_store(history, spool_dir=tmp_path / "spool")
    ctx = {"ci_run_url": url, "wandb_url": url, "issue_url": url}
    store.append(failing("r-bad", "2026-08-28", context=ctx))
    store.append(failing("r-ok", "2026-08-29"))
    return history


def _hrefs(page: str) -> list[str]:
    return re.findall(r"""href\s*=\s*["']?([^"'>\s]*)""", page, re.I)


@pytest.mark.parametrize("url", HOSTILE_URLS, ids=repr)
def test_the_report_links_only_http_urls_from_a_shared_history(url, tmp_path):
    history = _hostile_history(tmp_path, url)
    out = tmp_path / "r.html"
    r = run_cli("report", "--history", history, "--out", str(out))
    assert r.returncode == 0, _clean(r)
    hrefs = [h for h in _hrefs(out.read_text()) if h != "data:,"]  # the page's own empty icon
    assert hrefs and all(h.startswith(("#", "https://", "http://")) for h in hrefs), hrefs
    assert "https://github.com/acme/canary/actions/runs/1234567" in hrefs  # the good run's links stay
    assert not any("script" in h.lower() or h.lower().startswith("data:") for h in hrefs)


@pytest.mark.parametrize("url", HOSTILE_URLS, ids=repr)
def test_the_job_summary_links_only_http_urls(url, tmp_path):
    from canary.report.after_run import after_run

    summary = tmp_path / "summary.md"
    r = failing("r-bad", context={"ci_run_url": url, "wandb_url": "https://wandb.ai/a/b/runs/(x)"})
    after_run(r, environ={"GITHUB_STEP_SUMMARY": str(summary)})
    md = summary.read_text()
    targets = re.findall(r"\]\(([^)]*)\)", md)
    assert targets == ["https://wandb.ai/a/b/runs/%28x%29"], targets
    assert "javascript" not in md.lower() and "data:" not in md


@pytest.mark.parametrize(
    "flag, var", [("--ci-run-url", "CANARY_CI_RUN_URL"), ("--wandb-url", "CANARY_WANDB_URL")], ids=str
)
def test_a_link_flag_or_variable_that_is_not_http_is_bad_input_before_training(flag, var, tmp_path):
    r = run_cli("run", "cpu", flag, "javascript:alert(1)", "--out", str(tmp_path / "runs"))
    assert r.returncode == 2 and f"{flag}=" in _clean(r) and "not an http(s) URL" in r.stderr
    r = run_cli("run", "cpu", "--out", str(tmp_path / "runs"), env={var: " JaVaScRiPt:alert(1)"})
    assert r.returncode == 2 and f"{var}=" in _clean(r)
    assert not (tmp_path / "runs").exists()


# ----------------------------------------------------------------------------- 10. environment knobs


@pytest.mark.parametrize(
    "var, value",
    [
        ("CANARY_GCS_RETRY_S", "nan"),
        ("CANARY_GCS_RETRY_S", "inf"),
        ("CANARY_GCS_RETRY_S", "1e400"),
        ("CANARY_GCS_RETRY_S", "-1"),
        ("CANARY_GCS_RETRY_S", "soon"),
        ("CANARY_NUDGE_SEED", "1.5"),
        ("CANARY_NUDGE_SEED", "99999999999999999999"),
        ("CANARY_NUM_PROCESSES", "0"),
        ("CANARY_PROCESS_ID", "NaN"),
    ],
)
def test_a_numeric_environment_setting_is_checked_at_start_up(var, value, tmp_path):
    """Any command, even one that never reads it: the setting is wrong wherever it would be read."""
    for args in (["history", "--history", f"gs://{BUCKET}/x"], ["list"]):
        r = run_cli(*args, env={var: value, "STORAGE_EMULATOR_HOST": f"http://127.0.0.1:{free_port()}"})
        assert r.returncode == 2 and r.stderr.startswith(f"canary: {var}="), r.stderr
        _clean(r)


def test_a_gcs_retry_of_nan_no_longer_hangs_the_history_write(tmp_path):
    """The write it used to hang: a run's record, into an unreachable bucket."""
    lanes = lanes_toml(tmp_path, [PY, "-c", "import sys; sys.exit(1)", "{entrypoint}"])
    r = canary_cli(
        "run",
        "cpu",
        "--history",
        f"gs://{BUCKET}/x",
        "--out",
        str(tmp_path / "runs"),
        tmp_path=tmp_path,
        CANARY_LANES=str(lanes),
        CANARY_GCS_RETRY_S="nan",
        STORAGE_EMULATOR_HOST=f"http://127.0.0.1:{free_port()}",
    )
    assert r.returncode == 2 and b"CANARY_GCS_RETRY_S='nan'" in r.stderr
    assert not (tmp_path / "runs").exists()


# ----------------------------------------------------------------------------- 12. paths and the index


def test_a_symlink_loop_as_history_is_bad_input_not_an_empty_history(tmp_path):
    (tmp_path / "a").symlink_to(tmp_path / "b")
    (tmp_path / "b").symlink_to(tmp_path / "a")
    (tmp_path / "loop").symlink_to(tmp_path / "loop")
    for target in ("loop", "a", "loop/history.sqlite3"):
        for args in (["history"], ["report", "--out", str(tmp_path / "r.html")]):
            r = run_cli(*args, "--history", str(tmp_path / target))
            out = _clean(r)
            assert r.returncode == 2 and "symlink loop" in out and "no runs" not in out, out


class _Answer500(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802
        self.send_response(500)
        self.end_headers()

    def log_message(self, *args):
        pass


def _bisect(index_url: str) -> object:
    # pip's own configuration (other indexes, wheel folders) left out: only this index is asked
    env = {
        "PIP_CONFIG_FILE": "/dev/null",
        "PIP_INDEX_URL": index_url,
        "PIP_EXTRA_INDEX_URL": None,
        "PIP_FIND_LINKS": None,
        "PIP_RETRIES": "0",
        "PIP_TIMEOUT": "10",
    }
    return run_cli(
        "bisect", "--package", "marin-haliax", "--old", "1.0", "--new", "2.0", "--lane", "tpu",
        "--python", sys.executable, env=env,
    )  # fmt: skip


def test_an_unreachable_package_index_is_not_a_package_that_is_not_published():
    r = _bisect(f"http://127.0.0.1:{free_port()}/simple")  # nothing listens
    out = _clean(r)
    assert r.returncode == 1 and "index unreachable" in out and "publishes nothing" not in out, out
    server = http.server.HTTPServer(("127.0.0.1", 0), _Answer500)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        r = _bisect(f"http://127.0.0.1:{server.server_port}/simple")
    finally:
        server.shutdown()
        server.server_close()
    out = _clean(r)
    assert r.returncode == 1 and "index unreachable" in out and "500" in out and "publishes nothing" not in out, out


def test_an_index_that_answers_404_still_publishes_nothing():
    class NotFound(_Answer500):
        def do_GET(self):  # noqa: N802
            self.send_response(404)
            self.end_headers()

    server = http.server.HTTPServer(("127.0.0.1", 0), NotFound)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        r = _bisect(f"http://127.0.0.1:{server.server_port}/simple")
    finally:
        server.shutdown()
        server.server_close()
    assert r.returncode == 2 and "publishes nothing of that name" in _clean(r)


# ----------------------------------------------------------------------------- beyond the issue


def test_a_record_whose_context_is_a_list_is_bad_input_to_history_import(tmp_path):
    d = tmp_path / "runs" / "r1"
    d.mkdir(parents=True)
    (d / "result.json").write_text(json.dumps(failing().to_dict() | {"context": ["x"]}))
    r = run_cli("history", "import", str(d), "--history", str(tmp_path / "h.sqlite3"))
    assert r.returncode == 2 and "context is a JSON list, not an object" in _clean(r)


def test_a_sqlite_row_that_is_no_record_is_skipped_with_a_warning(tmp_path):
    import sqlite3

    history = _hostile_history(tmp_path, "https://ok.example/")
    with sqlite3.connect(history) as conn:
        conn.execute("UPDATE runs SET record = '{torn' WHERE run_id = 'r-bad'")
    r = run_cli("history", "--history", history, "--json")
    out = _clean(r)
    assert r.returncode == 0 and [x["run_id"] for x in json.loads(r.stdout)["records"]] == ["r-ok"], out
    assert "warning:" in r.stderr and "'r-bad' is not a canary run record" in r.stderr


def test_a_write_keeps_the_index_entries_it_cannot_read(gcs, tmp_path):
    url, env, put, _ = gcs
    store = GcsStore(url)
    index = f"{parse_url(url)[1]}/index/tpu.json"
    runs = json.loads(store.bucket().blob(index).download_as_bytes())["runs"]
    put("index/tpu.json", json.dumps({"version": 1, "lane": "tpu", "runs": [{"lane": "tpu"}, *runs]}).encode())
    d = tmp_path / "runs" / "r-third"
    d.mkdir(parents=True)
    (d / "result.json").write_text(json.dumps(failing("r-third", "2026-08-30").to_dict()))
    r = run_cli("history", "import", str(d), "--history", url, env=env)
    assert r.returncode == 0, _clean(r)
    after = json.loads(store.bucket().blob(index).download_as_bytes())["runs"]
    assert after[0] == {"lane": "tpu"} and [e["run_id"] for e in after[1:]] == ["r-old", "r-new", "r-third"]
