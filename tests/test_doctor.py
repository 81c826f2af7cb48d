"""`canary doctor LANE` against real stand-ins (a fake GCS server, the local GitHub server, real
git checkouts), and the setup errors `canary run` stops on before any attempt (exit 2)."""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest
from gcs_emulator import Emulator, free_port
from git_repos import shallow_clone, source_repo
from github_server import REPO, TOKEN, github  # noqa: F401 (fixture)

from canary import doctor, extras
from canary.doctor import DoctorOptions, diagnose
from canary.errors import ConfigError
from canary.record import RunRecord

TPU_LIKE = """
[lanes.tpu]
platform = "cpu"
launcher = {{ kind = "ray", resources = {{ TPU = 4 }}{address} }}
attempts = 4
cache_dir = "{cache}"
wandb = "offline"
"""


def _lanes(tmp_path: Path, cache: str, address: str = "") -> str:
    p = tmp_path / "lanes.toml"
    p.write_text(TPU_LIKE.format(cache=cache, address=f', address = "{address}"' if address else ""))
    return str(p)


def _checks(report) -> dict:
    return {c.name: c for c in report.checks}


def test_the_cpu_lane_is_ready_and_the_json_has_every_check(cli, tmp_path):
    r = cli("doctor", "cpu", "--json", "--history", str(tmp_path / "h.sqlite3"))
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["lane"] == "cpu" and out["ok"] is True
    assert [c["name"] for c in out["checks"]] == list(doctor.CHECKS)
    assert all(set(c) == {"name", "ok", "detail", "fix"} for c in out["checks"])
    assert not (tmp_path / "h.sqlite3").exists()  # checked by its directory, not created


def test_bad_input_exits_2(cli, tmp_path):
    assert cli("doctor", "nope").returncode == 2
    r = cli("doctor", "cpu", "--history", "s3://b/p")
    assert r.returncode == 2 and "s3://b/p" in r.stderr and "Traceback" not in r.stderr


def test_a_ray_lane_without_an_address_fails_the_launcher_check(cli, tmp_path):
    lanes = _lanes(tmp_path, str(tmp_path / "cache"))
    r = cli(
        "doctor",
        "tpu",
        "--json",
        "--history",
        str(tmp_path / "h.sqlite3"),
        env={"CANARY_LANES": lanes, "RAY_ADDRESS": ""},
    )
    assert r.returncode == 1, r.stderr
    launcher = next(c for c in json.loads(r.stdout)["checks"] if c["name"] == "launcher")
    assert launcher["ok"] is False and "--ray-address" in launcher["detail"] and "RAY_ADDRESS" in launcher["fix"]


@pytest.mark.slow
def test_a_ray_address_nobody_answers_at(tmp_path, monkeypatch):
    monkeypatch.setenv("CANARY_LANES", _lanes(tmp_path, str(tmp_path / "cache"), f"http://127.0.0.1:{free_port()}"))
    c = _checks(diagnose(DoctorOptions("tpu", history=str(tmp_path / "h.sqlite3"))))["launcher"]
    assert not c.ok and "did not answer" in c.detail and "8265" in c.fix


def test_a_local_cache_gets_a_probe_written_and_deleted(tmp_path, monkeypatch):
    cache = tmp_path / "cache"
    cache.mkdir()
    monkeypatch.setenv("CANARY_LANES", _lanes(tmp_path, str(cache)))
    c = _checks(diagnose(DoctorOptions("tpu", history=str(tmp_path / "h.sqlite3"))))["cache"]
    assert c.ok and "wrote and deleted a probe file" in c.detail and list(cache.iterdir()) == []
    blocked = tmp_path / "file"
    blocked.write_text("a file where a directory should be")
    c = _checks(diagnose(DoctorOptions("tpu", history=str(tmp_path / "h.sqlite3"), cache_dir=str(blocked / "x"))))
    assert not c["cache"].ok


def test_packages_name_the_extra_that_is_missing():
    gone = {"ray", "gcsfs"}

    def find_spec(name):
        if name in gone:
            return None
        return object()

    need = extras.lane_needs("ray", "gs://b/c", "gs://b/h", "offline")
    assert [n.extra for n in need] == ["ray", "gcs", "gcs", "wandb"]
    assert extras.missing(extras.RAY, find_spec) == ["ray"]
    with pytest.raises(
        ConfigError,
        match=r"lane 'tpu' needs the Ray launcher, but ray cannot be imported.*"
        r"canary\[lanes\].*'ray' extra",
    ):
        extras.require(extras.RAY, "lane 'tpu'", find_spec)
    assert extras.lane_needs("local", None, "/x/h.sqlite3", "off") == []


# A `canary` whose import system cannot find some packages, as after a plain `pip install -e .`.
WITHOUT = """
import sys, importlib.abc
class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {blocked!r} or name.startswith("google.cloud"):
            raise ModuleNotFoundError(name)
sys.meta_path.insert(0, Block())
from canary.cli import main
sys.argv = ["canary"] + sys.argv[1:]
main()
"""


def _without(tmp_path, blocked, *args, env=None):
    import os
    import subprocess

    from conftest import ROOT

    script = tmp_path / "without.py"
    script.write_text(WITHOUT.format(blocked=set(blocked)))
    return subprocess.run(
        [sys.executable, str(script), *args],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, "PYTHONPATH": str(ROOT), **(env or {})},
    )


def test_doctor_packages_fails_on_a_plain_install(tmp_path):
    lanes = _lanes(tmp_path, "gs://canary-cache/tpu", "http://127.0.0.1:9")
    r = _without(
        tmp_path,
        {"ray", "etils", "gcsfs", "wandb"},
        "doctor",
        "tpu",
        "--json",
        "--history",
        "gs://h/p",
        env={"CANARY_LANES": lanes, "STORAGE_EMULATOR_HOST": "http://127.0.0.1:9"},
    )
    assert r.returncode == 1, r.stderr
    checks = {c["name"]: c for c in json.loads(r.stdout)["checks"]}
    assert not checks["packages"]["ok"] and "canary[lanes]" in checks["packages"]["fix"]
    assert "ray" in checks["packages"]["detail"] and "google.cloud.storage" in checks["packages"]["detail"]
    assert not checks["cache"]["ok"] and not checks["history"]["ok"] and not checks["launcher"]["ok"]


# ----------------------------------------------------------------------------- setup errors


def test_run_without_a_ray_address_exits_2_before_any_attempt(cli, tmp_path):
    history = tmp_path / "h.sqlite3"
    lanes = _lanes(tmp_path, str(tmp_path / "cache"))
    r = cli(
        "run",
        "tpu",
        "--out",
        str(tmp_path / "runs"),
        "--history",
        str(history),
        "--json",
        env={"CANARY_LANES": lanes, "RAY_ADDRESS": ""},
        timeout=120,
    )
    assert r.returncode == 2, r.stdout + r.stderr
    assert "--ray-address" in r.stderr and "RAY_ADDRESS" in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "runs").exists() and not history.exists()  # no attempt, nothing recorded


def test_run_without_the_ray_package_exits_2_naming_the_extra(tmp_path):
    lanes = _lanes(tmp_path, str(tmp_path / "cache"), "http://127.0.0.1:9")
    r = _without(
        tmp_path, {"ray"}, "run", "tpu", "--out", str(tmp_path / "runs"), "--no-history", env={"CANARY_LANES": lanes}
    )
    assert r.returncode == 2 and "ray cannot be imported" in r.stderr and "canary[lanes]" in r.stderr, r.stderr
    assert not (tmp_path / "runs").exists()


@pytest.mark.slow
def test_run_with_a_gs_history_without_the_package_or_credentials_exits_2(tmp_path, cli):
    r = _without(tmp_path, set(), "run", "cpu", "--out", str(tmp_path / "runs"), "--history", "gs://b/p")
    assert r.returncode == 2 and "google.cloud.storage" in r.stderr and "canary[lanes]" in r.stderr, r.stderr
    r = cli(
        "run",
        "cpu",
        "--out",
        str(tmp_path / "runs"),
        "--history",
        "gs://b/p",
        env={
            "GOOGLE_APPLICATION_CREDENTIALS": "",
            "HOME": str(tmp_path),
            "NO_GCE_CHECK": "true",
            "CLOUDSDK_CONFIG": str(tmp_path / "gcloud"),
            "STORAGE_EMULATOR_HOST": "",
        },
    )
    assert r.returncode == 2 and "no Google Cloud credentials found" in r.stderr, r.stderr
    assert not (tmp_path / "runs").exists()


# ----------------------------------------------------------------------------- gs://, GitHub, git


@pytest.fixture
def gcs(tmp_path, monkeypatch):
    e = Emulator(tmp_path / "gcs").start()
    for b in ("cache", "history"):
        e.create_bucket(b)
    for k, v in {
        "STORAGE_EMULATOR_HOST": e.url,
        "NO_GCE_CHECK": "true",
        "CANARY_GCS_RETRY_S": "1",
        "GCSFS_EXPERIMENTAL_ZB_HNS_SUPPORT": "false",
    }.items():
        monkeypatch.setenv(k, v)
    yield e
    e.stop()


@pytest.mark.slow
def test_gs_cache_and_history_probes_leave_nothing(gcs, tmp_path, monkeypatch):
    monkeypatch.setenv("CANARY_LANES", _lanes(tmp_path, "gs://cache/ttl=30d/tpu"))
    c = _checks(diagnose(DoctorOptions("tpu", history="gs://history/runs")))
    assert c["cache"].ok and "wrote and deleted a probe object" in c["cache"].detail, c["cache"]
    assert c["history"].ok and "wrote and deleted gs://history/runs/doctor/" in c["history"].detail, c["history"]
    from google.auth.credentials import AnonymousCredentials
    from google.cloud import storage

    client = storage.Client(
        project="canary", credentials=AnonymousCredentials(), client_options={"api_endpoint": gcs.url}
    )
    assert [b.name for b in client.list_blobs("cache")] == [] and [b.name for b in client.list_blobs("history")] == []
    gcs.stop()  # an outage
    c = _checks(diagnose(DoctorOptions("tpu", history="gs://history/runs")))
    assert not c["history"].ok and not c["cache"].ok and "gs://history/runs" in c["history"].detail


def test_github_check(github, monkeypatch, tmp_path):
    monkeypatch.setenv("GITHUB_API_URL", github.url)
    monkeypatch.delenv("GITHUB_TOKEN", raising=False)
    opts = DoctorOptions("cpu", history=str(tmp_path / "h"), notify="github", repo=REPO)
    assert "GITHUB_TOKEN is not set" in _checks(diagnose(opts))["github"].detail
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_" + "W" * 36)
    c = _checks(diagnose(opts))["github"]
    assert not c.ok and "401" in c.detail and "W" * 36 not in c.detail
    monkeypatch.setenv("GITHUB_TOKEN", TOKEN)
    c = _checks(diagnose(opts))["github"]
    assert c.ok and REPO in c.detail
    assert not _checks(diagnose(DoctorOptions("cpu", history=str(tmp_path / "h"), notify="github", repo="acme/other")))[
        "github"
    ].ok
    assert _checks(diagnose(DoctorOptions("cpu", history=str(tmp_path / "h"))))["github"].ok  # not asked


def _passed_at(commit: str | None) -> RunRecord:
    return RunRecord(
        run_id="p1",
        lane="cpu",
        ferry="moe-canary",
        ferry_version=1,
        verdict="pass",
        steps_completed=200,
        final_loss=2.6,
        gates=[],
        run_dir="",
        started_at="2026-08-26T03:00:00+00:00",
        commit=commit,
        classification="pass",
    )


def test_git_check_on_full_shallow_and_no_checkout(tmp_path):
    src, shas = source_repo(tmp_path / "src", [("a", "one"), ("b", "two"), ("c", "three")])
    clone = shallow_clone(src, tmp_path / "clone")
    full = doctor.check_git(str(src), "cpu", [_passed_at(shas[0])])
    assert full.ok and "is in the checkout" in full.detail
    shallow = doctor.check_git(str(clone), "cpu", [_passed_at(shas[0])])
    assert shallow.ok and "fetches history from origin" in shallow.detail
    import shutil

    shutil.rmtree(src)  # the remote is gone: the window could not be had
    assert not doctor.check_git(str(clone), "cpu", [_passed_at(shas[0])]).ok
    assert doctor.check_git(str(clone), "cpu", []).ok  # no last pass: nothing to reach back to
    none = doctor.check_git(str(tmp_path), "cpu", [])
    assert not none.ok and "fetch-depth: 0" in none.fix
    # a laptop's run outside a checkout tells nobody: no commit is missing anyone
    local = doctor.check_git(str(tmp_path), "cpu", [], notify=None)
    assert local.ok and "not a git checkout" in local.detail and "--notify github" in local.detail


def test_the_history_and_git_checks_read_the_runs_ferrys_series(tmp_path):
    """doctor --ferry: the last pass the git check reaches back to is the series' (lane, ferry):
    another ferry's pass on the lane is not it, and neither is a short run's."""
    from dataclasses import replace

    from canary.history.sqlite import SqliteStore

    src, shas = source_repo(tmp_path / "src", [("a", "one"), ("b", "two")])
    other = replace(_passed_at(shas[1]), run_id="p2", ferry="levanter-standin", started_at="2026-08-27T03:00:00+00:00")
    short = replace(
        _passed_at(shas[1]), run_id="p3", steps_requested=10, ferry_steps=200, started_at="2026-08-28T03:00:00+00:00"
    )
    records = [_passed_at(shas[0]), other, short]
    ours = doctor.check_git(str(src), "cpu", records, ferry="moe-canary")
    assert ours.ok and f"last pass's commit {shas[0][:12]} (p1)" in ours.detail
    theirs = doctor.check_git(str(src), "cpu", records, ferry="levanter-standin")
    assert "(p2)" in theirs.detail
    store = SqliteStore(tmp_path / "h.sqlite3")
    for r in records:
        r.started_at = datetime.now(UTC).isoformat()
        store.append(r)
    c = _checks(diagnose(DoctorOptions("cpu", history=str(tmp_path / "h.sqlite3"), checkout=str(src))))
    assert c["history"].ok and "2 recent runs of cpu/moe-canary" in c["history"].detail


def test_packages_check_names_the_levanter_extra_for_a_stack_ferry():
    from canary import doctor, extras
    from canary.config import get_lane

    lane = get_lane("cpu")
    ok = doctor.check_packages(lane, None, "/tmp/h.sqlite3", "levanter")
    assert ok.ok and "levanter's grug MoE" in ok.detail  # the test extra installs it
    need = extras.Need(extras.LEVANTER.what, ("levanter_not_installed_here",), "levanter")
    assert extras.missing(need) == ["levanter_not_installed_here"]
    assert "pip install 'canary[levanter]'" in need.fix() and "lanes" not in need.fix()
    assert doctor.check_packages(lane, None, "/tmp/h.sqlite3").detail.startswith("the default install")


def test_a_missing_extra_names_the_distribution_and_this_interpreters_pip_once(monkeypatch):
    """The fix installs with the pip of the interpreter canary runs in (a bare `pip` is often
    another environment's), names GitPython rather than its module `git`, and says the lanes
    extra once however many of its parts are missing."""
    import shlex
    import sys

    from canary import extras
    from canary.errors import ConfigError

    pip = f"{shlex.quote(sys.executable)} -m pip install"
    with pytest.raises(ConfigError) as e:
        extras.require(extras.LEVANTER, "ferry 'grug-moe-canary'", find_spec=lambda name: None)
    said = str(e.value)
    assert "GitPython (module git) cannot be imported" in said and f"{pip} -e '.[levanter]'" in said
    line = extras.fixes([extras.RAY, extras.GCS_CACHE, extras.GCS_HISTORY, extras.WANDB])
    assert line.count("canary[lanes]") == 1 and line.endswith("or just the 'ray', 'gcs' and 'wandb' extras"), line
