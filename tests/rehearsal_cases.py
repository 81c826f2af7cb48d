"""The scheduled lane rehearsed end to end, the way .github/workflows/canary-lane.yml runs it.
Not collected by default: tests/test_rehearsal.py runs it inside a loopback-only namespace (the
Ray head needs one, see tests/netns.py).

The workflow's own step scripts (doctor, then the canary), read from the YAML and run with bash,
with the environment the workflow gives them, against local stand-ins for everything the job
talks to:

- a Ray head with 4 "TPU" (tests/ray_cases.py's), for the lane's ray launcher;
- fake-gcs-server for the lane's gs:// compilation cache and the gs:// history;
- the local GitHub REST server, for the issues;
- a shallow clone (``git clone --depth 1``, as actions/checkout makes one) of a repository with a
  few commits since the last pass, which the history already holds.

The lane has the tpu lane's settings (Ray with {TPU = 4}, four attempts, a gs:// cache, W&B),
except platform cpu and the cpu lane's sizes; the ferry's learning rate is absurd, so training
turns the loss to NaN: a deterministic failure, judged, recorded, filed once and commented once.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest
import yaml
from gcs_emulator import Emulator
from git_repos import shallow_clone, source_repo
from github_server import REPO, TOKEN, GitHubServer
from ray_cases import ray_head  # noqa: F401 (fixture)

from canary import extras
from canary.config import get_lane
from canary.history.gcs import GcsStore
from canary.record import RunRecord

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "canary-lane.yml"
CACHE_BUCKET, HISTORY_BUCKET = "canary-compilation-cache", "canary-history"
HISTORY = f"gs://{HISTORY_BUCKET}/runs"
STEPS = 4
COMMITS = [
    ("README.md", "the last pass ran here"),
    ("docs/notes.md", "notes"),
    ("canary/workload/model.py", "route tokens to experts by a new rule"),
    ("bench/b.py", "a bench"),
]
OLD_VERSIONS = {"jax": "0.0.1", "jaxlib": "0.0.1", "optax": "0.0.1", "ferry": "0" * 64}


def steps() -> list[dict]:
    return yaml.safe_load(WORKFLOW.read_text())["jobs"]["canary"]["steps"]


def step(step_id: str) -> dict:
    return next(s for s in steps() if s.get("id") == step_id)


@pytest.fixture(scope="module")
def gcs(tmp_path_factory):
    """fake-gcs-server with the cache and history buckets; the environment every process here
    (and the Ray head, started after it, and so its jobs) uses to reach it."""
    e = Emulator(tmp_path_factory.mktemp("gcs")).start()
    for b in (CACHE_BUCKET, HISTORY_BUCKET):
        e.create_bucket(b)
    env = {
        "STORAGE_EMULATOR_HOST": e.url,
        "NO_GCE_CHECK": "true",
        "GCSFS_EXPERIMENTAL_ZB_HNS_SUPPORT": "false",
        "CANARY_GCS_RETRY_S": "10",
    }
    os.environ.update(env)
    yield e
    e.stop()


@pytest.fixture(scope="module")
def stage(gcs, ray_head, tmp_path_factory):  # noqa: F811 - gcs first: the head inherits its environment
    tmp = tmp_path_factory.mktemp("rehearsal")
    src, shas = source_repo(tmp / "src", COMMITS)
    checkout = shallow_clone(src, tmp / "checkout")

    # The tpu lane's settings, except platform cpu (one device, no topology).
    tpu = tomllib.loads((ROOT / "lanes.toml").read_text())["lanes"]["tpu"]
    assert tpu["launcher"]["kind"] == "ray" and tpu["cache_dir"].startswith(f"gs://{CACHE_BUCKET}/")
    text = (ROOT / "lanes.toml").read_text()
    block = re.search(r"^\[lanes\.tpu\]\n.*?(?=^\[|\Z)", text, flags=re.S | re.M).group(0)
    block = block.replace('platform = "tpu"', 'platform = "cpu"').replace("devices = 4", "devices = 1")
    block = re.sub(r"^topology = .*\n", "", block, flags=re.M)
    lanes = tmp / "lanes.toml"
    lanes.write_text(block)
    lane = get_lane("tpu", str(lanes))
    assert (lane.platform, lane.launcher.kind, lane.attempts, lane.cache_dir) == (
        "cpu",
        "ray",
        tpu["attempts"],
        tpu["cache_dir"],
    )

    # The ferry with the cpu lane's sizes under [lanes.tpu], STEPS steps (so that a scheduled run is
    # a full run of its ferry, not a short one), and a learning rate that makes NaN. It is a ferry
    # of its own name (nan-canary), with the pinned gates under that name: the pinned ferry's name
    # on other contents would make each run an experiment, which no series counts or notifies.
    ferry_text = (ROOT / "ferries" / "moe-canary.toml").read_text()
    cpu = re.search(r"^\[lanes\.cpu\]\n.*?(?=^\[|\Z)", ferry_text, flags=re.S | re.M).group(0)
    cpu = re.sub(r"^steps = \d+$", f"steps = {STEPS}", cpu, flags=re.M)
    ferry_text = re.sub(
        r"^\[lanes\.tpu\]\n.*?(?=^\[|\Z)", cpu.replace("[lanes.cpu]", "[lanes.tpu]"), ferry_text, flags=re.S | re.M
    )
    ferry_text = re.sub(r"^learning_rate = .*$", "learning_rate = 1e30", ferry_text, flags=re.M)
    ferry_text = re.sub(r'^name = "moe-canary"$', 'name = "nan-canary"', ferry_text, count=1, flags=re.M)
    (tmp / "ferries").mkdir()
    ferry = tmp / "ferries" / "nan-canary.toml"
    ferry.write_text(ferry_text)
    (tmp / "gates").mkdir()
    gates_text = (ROOT / "gates" / "moe-canary.toml").read_text()
    (tmp / "gates" / "nan-canary.toml").write_text(gates_text.replace('ferry = "moe-canary"', 'ferry = "nan-canary"'))
    shutil.copy(ROOT / "gates" / "moe-canary.cpu.golden.json", tmp / "gates")  # named by the cpu lane's gates

    # The history holds the lane's last pass, at the first commit, with older versions.
    from canary.run.workload import versions

    passed = RunRecord(
        run_id="20260830T031700Z-tpu-0000",
        lane="tpu",
        ferry="nan-canary",
        ferry_version=1,
        verdict="pass",
        steps_completed=238,
        final_loss=5.79,
        gates=[],
        run_dir="",
        started_at="2026-08-30T03:17:00+00:00",
        commit=shas[0],
        classification="pass",
        versions={**versions(), **OLD_VERSIONS},
    )
    GcsStore(HISTORY).append(passed)

    gh = GitHubServer(TOKEN, REPO).__enter__()
    bin_dir = Path(sys.executable).parent  # `canary` and `python`, as after the workflow's install step
    assert (bin_dir / "canary").is_file()
    output = tmp / "github_output"
    env = {
        # what the workflow's env: blocks give the steps, here
        "LANE": "tpu",
        "COLD": "false",
        "STEPS": str(STEPS),
        "FERRY": str(ferry),
        # the ferry's name finds its gates and its watched paths
        "CANARY_FERRIES_PATH": str(ferry.parent),
        "CANARY_GATES_PATH": str(tmp / "gates"),
        "CANARY_HISTORY": HISTORY,
        "RAY_ADDRESS": ray_head,
        "WANDB_MODE": "online",
        "WANDB_API_KEY": "",
        "GITHUB_TOKEN": TOKEN,
        # what GitHub Actions sets
        "GITHUB_ACTIONS": "true",
        "GITHUB_OUTPUT": str(output),
        "GITHUB_REPOSITORY": REPO,
        "GITHUB_API_URL": gh.url,
        "GITHUB_SERVER_URL": "https://github.com",
        "GITHUB_RUN_ID": "4242",
        "GITHUB_RUN_ATTEMPT": "1",
        "GITHUB_EVENT_NAME": "schedule",
        "GITHUB_WORKFLOW": "canary-tpu",
        "GITHUB_SHA": shas[-1],
        # the rehearsal's own: its lanes file, its code, no user history or spool
        "CANARY_LANES": str(lanes),
        "PYTHONPATH": str(ROOT),
        "CANARY_SPOOL_DIR": str(tmp / "spool"),
        "CANARY_NOTIFY_SPOOL": str(tmp / "notify-spool"),
        "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}",
    }
    yield {"tmp": tmp, "checkout": checkout, "shas": shas, "env": env, "gh": gh, "output": output, "passed": passed}
    gh.__exit__(None, None, None)


def run_step(stage: dict, step_id: str) -> tuple[subprocess.CompletedProcess, float]:
    """The step's script from the workflow, with bash as Actions runs it (-e, -o pipefail)."""
    s = step(step_id)
    missing = set(s.get("env", {})) - set(stage["env"])
    assert not missing, f"the rehearsal does not set {missing}, which the workflow's {step_id} step gets"
    t0 = time.monotonic()
    r = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", s["run"]],
        cwd=stage["checkout"],
        env={**os.environ, **stage["env"]},
        capture_output=True,
        text=True,
        timeout=900,
    )
    return r, time.monotonic() - t0


def _attempts(result: dict) -> str:
    """What each attempt did, and the end of its log: the message of a failed assertion."""
    out = []
    for a in result["attempts"]:
        log = Path(a["log_path"]).read_text(errors="replace")[-3000:] if Path(a["log_path"]).is_file() else ""
        out.append(f"attempt {a['number']}: {a['outcome']} {a['detail']}\n{log}")
    return "\n".join(out)


def test_the_workflow_installs_what_the_lane_needs():
    install = next(s for s in steps() if s.get("name") == "Install canary")["run"]
    named = set(re.search(r"pip install -e '\.\[([a-z,]+)\]'", install).group(1).split(","))
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    installed = set(named)
    for extra in named:  # an extra naming canary's own extras installs those too
        for req in pyproject[extra]:
            m = re.fullmatch(r"canary\[([a-z,]+)\]", req)
            if m:
                installed |= set(m.group(1).split(","))
    lane = get_lane("tpu", str(ROOT / "lanes.toml"))
    needs = extras.lane_needs(lane.launcher.kind, lane.cache_dir, "gs://canary-history/runs", lane.wandb)
    assert {n.extra for n in needs} <= installed
    assert all(not extras.missing(n) for n in needs)  # and this environment has them


def test_doctor_then_two_scheduled_runs(stage):
    env, tmp = stage["env"], stage["tmp"]
    figures = {}

    # 1. The doctor step: every check passes, and doctor.json is left for the artifact.
    r, figures["doctor_s"] = run_step(stage, "doctor")
    assert r.returncode == 0, r.stdout + r.stderr
    report = json.loads((stage["checkout"] / "doctor.json").read_text())
    assert report["lane"] == "tpu" and report["ok"] is True, report
    checks = {c["name"]: c for c in report["checks"]}
    assert list(checks) == ["packages", "cache", "history", "launcher", "github", "git"]
    assert "wrote and deleted a probe object" in checks["cache"]["detail"]
    assert (
        "1 recent run of tpu/nan-canary" in checks["history"]["detail"]
        and env["RAY_ADDRESS"] in checks["launcher"]["detail"]
    )
    assert REPO in checks["github"]["detail"] and "shallow" in checks["git"]["detail"]
    (tmp / "doctor.json").write_text(json.dumps(report, indent=2))

    # 2. Two scheduled runs: the first lowers cold into the empty gs:// cache, the second is served from it.
    results = []
    for n in (1, 2):
        r, figures[f"run{n}_s"] = run_step(stage, "canary")
        assert r.returncode == 1, r.stdout + r.stderr  # the canary failed: the step fails the job
        result = json.loads((stage["checkout"] / "result.json").read_text())
        assert f"run_dir={result['run_dir']}" in stage["output"].read_text().splitlines()
        results.append(result)
    for result in results:
        # one attempt (the NaN is the gates' verdict, not a crash to retry): unconfirmed by itself
        assert result["verdict"] == "fail" and result["classification"] == "unconfirmed", _attempts(result)
        assert result["signature"]["kind"] == "nan" and len(result["attempts"]) == 1
        assert result["attempts"][0]["job_id"].startswith("canary-")  # through Ray
        assert result["cache"]["dir"] == "gs://canary-compilation-cache/ttl=30d/tpu"
        assert result["context"]["history"]["status"] == "stored"
        assert result["notify"]["delivered"] is True
    cold, warm = results[0]["cache"], results[1]["cache"]
    assert cold["requests"] > 0 and cold["hits"] == 0 and not cold["errors"], cold
    assert warm["requests"] > 0 and warm["hits"] == warm["requests"] and not warm["errors"], warm

    # 3. The records are in the GCS history.
    stored = {r.run_id: r for r in GcsStore(HISTORY).records(lane="tpu")}
    assert set(stored) == {stage["passed"].run_id, results[0]["run_id"], results[1]["run_id"]}
    assert stored[results[1]["run_id"]].commit == stage["shas"][-1]

    # 4. Exactly one issue: opened by the first run, commented by the second.
    issues = stage["gh"].state.issues()
    assert len(issues) == 1, [i["title"] for i in issues]
    issue = issues[0]
    assert issue["title"].startswith("[canary-tpu] ") and {lb["name"] for lb in issue["labels"]} == {"canary", "bug"}
    comments = stage["gh"].state.comments(issue["number"])
    assert len(comments) == 1 and results[1]["run_id"] in comments[0]["body"]

    # 5. The regression window, from the shallow clone deepened to the last pass: three commits,
    #    the one touching the ferry's watched paths first, and the version changes since.
    shas = stage["shas"]
    for body in (issue["body"], comments[0]["body"]):
        window = body.split("### Regression window", 1)[1].split("###", 1)[0]
        assert "3 commits since the last pass" in window and "1 touches watched paths" in window, window
        listed = re.findall(r"^- (?:\*\*watched\*\* )?`([0-9a-f]{12})`", window, flags=re.M)
        assert listed == [shas[2][:12], shas[3][:12], shas[1][:12]], window
        assert "- jax: `0.0.1` → `" in window and "- ferry content sha256: `000000000000` → `" in window
    hist = subprocess.run(
        ["canary", "history", "--lane", "tpu", "--history", HISTORY, "--json"],
        cwd=stage["checkout"],
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert hist.returncode == 0, hist.stderr
    [series] = json.loads(hist.stdout)["series"]
    w = series["window"]
    assert [c["sha"] for c in w["commits"]] == [shas[2], shas[3], shas[1]]
    assert {v["name"] for v in w["versions"]} >= {"jax", "jaxlib", "optax", "ferry"}

    (tmp / "figures.json").write_text(json.dumps(figures))
    print("rehearsal figures:", json.dumps(figures), "doctor:", json.dumps(report))
