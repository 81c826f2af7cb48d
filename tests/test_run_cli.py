"""`canary run`, `canary gate` and `canary list` end to end, through the real command line."""

import hashlib
import json
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, run_cli

QUICK_GATES = """
ferry = "moe-canary"
[lanes.cpu]
min_steps = 200
max_final_loss = 6.6
"""


def _ferry(tmp_path, name="f.toml", **replace):
    text = (ROOT / "ferries" / "moe-canary.toml").read_text()
    for old, new in replace.items():
        assert old in text
        text = text.replace(old, new)
    p = tmp_path / name
    p.write_text(text)
    return p


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory):
    """One short real training run shared by the tests below."""
    tmp = tmp_path_factory.mktemp("quick")
    gates = tmp / "gates.toml"
    gates.write_text(QUICK_GATES)
    proc = run_cli("run", "cpu", "--steps", "30", "--gates", str(gates), "--out", str(tmp / "runs"), "--json")
    return proc, gates


@pytest.mark.slow
def test_run_cpu_trains_writes_a_run_directory_and_passes(quick_run):
    proc, gates = quick_run
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = json.loads(proc.stdout)
    for key in ("run_id", "lane", "ferry", "verdict", "steps_completed", "final_loss", "gates", "run_dir"):
        assert key in result
    assert (result["lane"], result["ferry"], result["verdict"], result["steps_completed"]) == (
        "cpu",
        "moe-canary",
        "pass",
        30,
    )
    assert {g["name"] for g in result["gates"]} == {"min_steps", "max_final_loss", "finite_loss"}
    pinned = ROOT / "ferries" / "moe-canary.toml"
    assert (result["ferry_path"], result["ferry_sha256"]) == (
        str(pinned),
        hashlib.sha256(pinned.read_bytes()).hexdigest(),
    )
    assert result["gates_path"] == str(gates.resolve())
    assert result["gates_sha256"] == hashlib.sha256(gates.read_bytes()).hexdigest()
    assert all(set(g) >= {"name", "value", "threshold", "status"} for g in result["gates"])

    run_dir = Path(result["run_dir"])
    steps = [json.loads(line) for line in (run_dir / "metrics.jsonl").read_text().splitlines()]
    assert [s["_step"] for s in steps] == list(range(30))  # each step recorded once, in order
    for name in (
        "train/loss",
        "train/cross_entropy_loss",
        "global_step",
        "throughput/tokens_per_second",
        "throughput/examples_per_second",
        "throughput/duration",
        "train/router/load_balancing_loss",
        "train/router/router_z_loss",
    ):
        assert name in steps[-1], name
    tracker = [json.loads(line) for line in (run_dir / "tracker_metrics.jsonl").read_text().splitlines()]
    assert len(tracker) == 1 and set(tracker[0]) == {"config", "summary"}
    assert tracker[0]["summary"]["_step"] == 29
    log = (run_dir / "train.log").read_text()
    assert "compiled the train step" in log
    assert "ragged_dot=auto (grouped)" in log
    assert json.loads((run_dir / "result.json").read_text())["run_id"] == result["run_id"]

    # The loss falls toward the corpus's known entropy floor.
    losses = [s["train/loss"] for s in steps]
    floor = tracker[0]["summary"]["data/entropy_floor"]
    assert 0.5 < floor < losses[-1]
    assert losses[-1] < losses[0] - 0.3
    assert (losses[-1] - floor) < 0.9 * (losses[0] - floor)


@pytest.mark.slow
def test_gate_on_the_run_directory_agrees(quick_run):
    proc, gates = quick_run
    result = json.loads(proc.stdout)
    g = run_cli("gate", result["run_dir"], "--gates", str(gates), "--json")
    assert g.returncode == 0, g.stderr
    judged = json.loads(g.stdout)
    assert judged["verdict"] == "pass" and judged["lane"] == "cpu" and judged["steps_completed"] == 30
    # Without --gates, the run directory is judged by the gates file its record names.
    recorded = json.loads(run_cli("gate", result["run_dir"], "--json").stdout)
    assert {g["name"]: g["threshold"] for g in recorded["gates"]}["max_final_loss"] == 6.6
    # Against the real cpu gates (200 steps, loss <= 4.0), the run directory is judged as the quick
    # run it was: the step gate follows --steps 30 and the loss is shown but not judged.
    quick = json.loads(run_cli("gate", result["run_dir"], "--gates", "moe-canary", "--json").stdout)
    by_name = {g["name"]: g for g in quick["gates"]}
    assert by_name["min_steps"]["threshold"] == 30 and by_name["max_final_loss"]["status"] == "SKIP"
    # Its tracker file alone names the lane and the steps asked for: the same run, the same verdict.
    tracker = run_cli("gate", str(Path(result["run_dir"]) / "tracker_metrics.jsonl"), "--gates", "moe-canary", "--json")
    assert tracker.returncode == 0, tracker.stderr
    alone = json.loads(tracker.stdout)
    assert (alone["lane"], alone["verdict"], alone["steps_completed"]) == ("cpu", quick["verdict"], 30)
    assert [(g["name"], g["status"], g["threshold"]) for g in alone["gates"]][:2] == [
        (g["name"], g["status"], g["threshold"]) for g in quick["gates"]
    ][:2]
    # Its metrics file inside the run directory is judged as that run: the same verdict again.
    inside = json.loads(
        run_cli("gate", str(Path(result["run_dir"]) / "metrics.jsonl"), "--gates", "moe-canary", "--json").stdout
    )
    assert inside["gates"] == quick["gates"] and inside["notes"][0].endswith("judged as that run")
    # A bare copy of it carries no request, so it is judged as a full run: it fails, with a table.
    bare = Path(result["run_dir"]).parent / "copied-metrics.jsonl"
    shutil.copy(Path(result["run_dir"]) / "metrics.jsonl", bare)
    strict = run_cli("gate", str(bare), "--lane", "cpu")
    assert strict.returncode == 1
    assert "min_steps" in strict.stdout and "FAIL" in strict.stdout


@pytest.mark.slow
def test_the_grouped_matmul_can_be_chosen_by_name(tmp_path):
    proc = run_cli(
        "run", "cpu", "--steps", "3", "--ragged-dot", "xla", "--no-history", "--out", str(tmp_path), "--json"
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    attempt = Path(json.loads(proc.stdout)["run_dir"]) / "attempt-1"
    spec = json.loads((attempt / "spec.json").read_text())
    assert spec["ragged_dot"] == "xla" and "attention" not in spec
    log = (attempt / "train.log").read_text()
    assert "ragged_dot=xla, tiling=per-shape, jax" in log


@pytest.mark.slow
def test_a_local_ferries_directory_is_named_as_an_override(tmp_path):
    (tmp_path / "ferries").mkdir()
    local = _ferry(tmp_path / "ferries", "moe-canary.toml", **{"learning_rate = 3e-3": "learning_rate = 2e-3"})
    proc = run_cli("run", "cpu", "--steps", "2", "--no-history", "--out", str(tmp_path / "runs"), cwd=tmp_path)
    assert proc.returncode in (0, 1), proc.stdout + proc.stderr
    assert "ferry: ./ferries/moe-canary.toml (local override of the pinned ferry)" in proc.stdout
    assert "gates:" not in proc.stdout  # the pinned gates: nothing to say
    (run_dir,) = (tmp_path / "runs").iterdir()
    record = json.loads((run_dir / "result.json").read_text())
    assert record["ferry_path"] == str(local.resolve())
    assert record["ferry_sha256"] == hashlib.sha256(local.read_bytes()).hexdigest()


def test_gate_on_a_levanter_tracker_file(tmp_path):
    f = tmp_path / "tracker_metrics.jsonl"
    f.write_text(json.dumps({"config": {}, "summary": {"_step": 237, "train": {"loss": 5.7976}}}) + "\n")
    proc = run_cli("gate", str(f), "--lane", "tpu", "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["steps_completed"] == 238
    f.write_text(json.dumps({"config": {}, "summary": {"_step": 237, "train/loss": "NaN"}}) + "\n")
    proc = run_cli("gate", str(f), "--lane", "tpu")
    assert proc.returncode == 1 and "FAIL" in proc.stdout


def test_bad_input_exits_2_with_a_message_and_no_traceback(tmp_path):
    cases = [
        (["run", "tpu9"], "unknown lane 'tpu9'"),
        (["run", "cpu", "--ferry", "nope"], "unknown ferry 'nope'"),
        (
            ["run", "cpu", "--ferry", str(_ferry(tmp_path, **{"layers = 4": "layers = 4\nlayerz = 2"}))],
            "model.layerz: unknown key",
        ),
        (["gate", str(tmp_path / "missing")], "no run directory or metrics file"),
        (["gate", str(tmp_path / "missing.jsonl"), "--lane", "cpu"], "no run directory"),
        (["gate", str(tmp_path / "garbage.jsonl")], "JSON line"),
    ]
    (tmp_path / "garbage.jsonl").write_text("Traceback (most recent call last):\n  oops\n")
    for args, message in cases:
        proc = run_cli(*args, "--out", str(tmp_path / "runs")) if args[0] == "run" else run_cli(*args)
        assert proc.returncode == 2, (args, proc.stdout, proc.stderr)
        assert message in proc.stderr, (args, proc.stderr)
        assert "Traceback" not in proc.stderr
        assert proc.stderr.startswith("canary: "), (args, proc.stderr[:80])  # no blank line before it


@pytest.mark.slow  # two runs whose workload imports JAX and traces the model
def test_a_training_crash_is_a_failed_canary_not_a_harness_crash(tmp_path):
    # head_dim 31 cannot be split into rotary halves: the workload raises while tracing.
    ferry = _ferry(tmp_path, **{"head_dim = 32": "head_dim = 31"})
    proc = run_cli("run", "cpu", "--ferry", str(ferry), "--steps", "3", "--out", str(tmp_path / "runs"), "--json")
    assert proc.returncode == 1, proc.stderr
    result = json.loads(proc.stdout)
    assert result["verdict"] == "fail" and result["attempts"][0]["outcome"] == "failed"
    assert "Traceback" in result["error"] and "Error" in result["error"]
    assert "Traceback" not in proc.stderr  # the harness itself did not crash
    human = run_cli("run", "cpu", "--ferry", str(ferry), "--steps", "3", "--out", str(tmp_path / "runs"))
    assert human.returncode == 1 and "training failed" in human.stdout


@pytest.mark.slow
def test_a_diverging_run_fails_the_finite_gate_naming_the_first_bad_step(tmp_path):
    ferry = _ferry(tmp_path, **{"learning_rate = 3e-3": "learning_rate = 1e30"})
    proc = run_cli("run", "cpu", "--ferry", str(ferry), "--steps", "6", "--out", str(tmp_path / "runs"), "--json")
    assert proc.returncode == 1
    finite = {g["name"]: g for g in json.loads(proc.stdout)["gates"]}["finite_loss"]
    assert finite["status"] == "FAIL" and "first non-finite train/loss at step" in finite["detail"]


def test_a_hung_workload_is_killed_at_the_lane_timeout(tmp_path):
    lanes = (ROOT / "lanes.toml").read_text().replace("timeout_s = 900", "timeout_s = 1")
    (tmp_path / "lanes.toml").write_text(lanes)
    proc = run_cli(
        "run",
        "cpu",
        "--steps",
        "200",
        "--out",
        str(tmp_path / "runs"),
        "--json",
        env={"CANARY_LANES": str(tmp_path / "lanes.toml")},
        own_process=True,
    )  # starts and kills a workload
    assert proc.returncode == 1
    attempt = json.loads(proc.stdout)["attempts"][0]
    assert attempt["outcome"] == "timeout" and "killed" in attempt["detail"]


def test_list_shows_lanes_and_ferries():
    proc = run_cli("list", "--json")
    assert proc.returncode == 0
    inv = json.loads(proc.stdout)
    assert set(inv["lanes"]) == {"cpu", "tpu", "gpu"}
    ferries = {f["name"]: f for f in inv["ferries"]}
    assert {"moe-canary", "grug-moe-canary"} <= set(ferries)
    ferry = ferries["moe-canary"]
    assert ferry["lanes"]["tpu"]["gates"]["max_final_loss"] == 8.0
    human = run_cli("list", env={"COLUMNS": "120"})
    assert "moe-canary" in human.stdout and "v6e-4" in human.stdout
    # a lane that sets no vocab or dtype shows the ferry's own, marked, never the section's name
    tpu = next(line for line in human.stdout.splitlines() if line.split()[:1] == ["tpu"] and "megablox" in line)
    assert f"{ferry['model']['vocab_size']}*" in tpu and f"{ferry['trainer']['compute_dtype']}*" in tpu
    assert " model " not in tpu and " trainer " not in tpu and "* inherited" in human.stdout


def test_help_explains_every_command():
    proc = run_cli("--help")
    assert proc.returncode == 0
    for name in ("run", "gate", "list"):
        assert name in proc.stdout
    run_help = run_cli("run", "--help").stdout
    for flag in ("--steps", "--ferry", "--out", "--json", "Exit status"):
        assert flag in run_help


def test_run_without_a_lane_is_the_cpu_lane_and_its_help_says_so(tmp_path):
    from click.testing import CliRunner

    from canary.cli import cli

    r = CliRunner().invoke(cli, ["run", "--help"])
    assert r.exit_code == 0 and "[LANE]" in r.output and "default cpu" in r.output
    gates = tmp_path / "gates.toml"
    gates.write_text(QUICK_GATES.replace("[lanes.cpu]", "[lanes.tpu]"))
    r = CliRunner().invoke(cli, ["run", "--gates", str(gates), "--out", str(tmp_path / "runs")])
    assert r.exit_code == 2 and "Missing argument" not in r.output
    assert "no lane 'cpu'" in r.output  # the lane it chose, judged against gates that lack it
    assert not (tmp_path / "runs").exists()


def test_the_progress_bar_says_compiling_until_the_first_step_then_training():
    import io

    from rich.console import Console
    from rich.progress import Progress

    from canary.commands.run import RichProgress

    for attempts, prefix in ((1, ""), (3, "attempt 2/3 ")):
        p = Progress(console=Console(file=io.StringIO()))
        bar = RichProgress(p)
        bar.attempt_started(2 if attempts > 1 else 1, attempts, 200)
        [task] = p.tasks
        assert task.description == f"{prefix}compiling" and task.completed == 0
        bar.step({"global_step": 0, "train/loss": 11.8, "throughput/tokens_per_second": 1234.0})
        assert task.description == f"{prefix}training" and task.completed == 1
        assert task.fields["loss"] == "11.8000" and task.fields["tps"] == "1,234"
