"""Command ferries: a team's own trainer (here a stand-in for a levanter entry point) launched,
judged, fingerprinted, recorded and notified like the built-in workload."""

import json
import sys
from pathlib import Path

import pytest
from conftest import ROOT, run_cli
from github_server import REPO, TOKEN, github  # noqa: F401 (fixture)

from canary.config import CommandFerry, get_lane, load_ferry
from canary.errors import ConfigError
from canary.ferries import command as command_ferry
from canary.formats.spec import CacheSpec
from canary.history import backend
from canary.run.runner import RunOptions, run_canary

EXAMPLE = ROOT / "ferries" / "examples" / "levanter-standin.toml"
GATES = ROOT / "gates" / "examples" / "levanter-standin.toml"
STANDIN = ROOT / "tests" / "trainers" / "levanter_standin.py"

# The shape teams write, as documented: `python3`, the placeholders, the optional keys.
DOCUMENTED = """
name = "my-trainer"
version = 1
kind = "command"
description = "..."
[command]
argv = ["python3", "{ferry_dir}/train.py", "--steps", "{steps}"]
tracker_metrics = "{run_dir}/tracker_metrics.jsonl"
metrics = "{run_dir}/metrics.jsonl"
workdir = "{ferry_dir}"
env = { NAME = "value", RUN = "{run_id}" }
[lanes.cpu]
steps = 30
"""


def _ferry(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "ferry.toml"
    p.write_text(text)
    return p


def _standin_ferry(
    tmp_path: Path, *, metrics: bool = True, tracker: str = "{run_dir}/out/tracker_metrics.jsonl"
) -> Path:
    """The stand-in writes under {run_dir}/out; canary copies what the ferry names."""
    lines = [
        'name = "levanter-standin"',
        "version = 1",
        'kind = "command"',
        "[command]",
        f'argv = ["{{python}}", "{STANDIN}", "--steps", "{{steps}}", "--out", "{{run_dir}}/out"]',
        f'tracker_metrics = "{tracker}"',
    ]
    if metrics:
        lines.append('metrics = "{run_dir}/out/metrics.jsonl"')
    lines += ["[lanes.cpu]", "steps = 12"]
    return _ferry(tmp_path, "\n".join(lines) + "\n")


def _run(tmp_path, ferry=EXAMPLE, gates=GATES, monkeypatch=None, mode=None, **kw):
    if monkeypatch is not None and mode is not None:
        monkeypatch.setenv("STANDIN_MODE", mode)
    opts = RunOptions(
        lane="cpu",
        ferry=str(ferry),
        gates=str(gates),
        out=tmp_path / "runs",
        history=str(tmp_path / "history.sqlite3"),
        **kw,
    )
    return run_canary(opts)


# ----------------------------------------------------------------------------- the ferry file


def test_the_documented_shape_loads(tmp_path):
    ferry, _ = load_ferry(str(_ferry(tmp_path, DOCUMENTED)))
    assert isinstance(ferry, CommandFerry)
    assert ferry.kind == "command" and ferry.lane("cpu").steps == 30
    assert ferry.command.env == {"NAME": "value", "RUN": "{run_id}"}


def test_the_pinned_ferry_is_the_builtin_kind():
    ferry, _ = load_ferry("moe-canary")
    assert ferry.kind == "builtin"


@pytest.mark.parametrize(
    "edit, message",
    [
        (('"--steps", "{steps}"', '"--steps", "{step}"'), "command.argv.3: unknown placeholder {step}"),
        (
            ('tracker_metrics = "{run_dir}/tracker_metrics.jsonl"', 'tracker_metrics = "http://x/t.jsonl"'),
            "tracker_metrics: http:// is not supported",
        ),
        (('kind = "command"', 'kind = "levanter"'), "kind: 'levanter' is not a ferry kind"),
        (("[lanes.cpu]\nsteps = 30", "[lanes.cpu]\nsteps = 0"), "lanes.cpu.steps"),
        (("steps = 30\n", "steps = 30\n[model]\nhidden = 32\n"), "model: unknown key"),
        (('tracker_metrics = "{run_dir}/tracker_metrics.jsonl"\n', ""), "command.tracker_metrics: Field required"),
        (
            ('env = { NAME = "value", RUN = "{run_id}" }', 'env = { NAME = "{who}" }'),
            "command.env.NAME: unknown placeholder",
        ),
    ],
)
def test_a_bad_command_ferry_names_its_key(tmp_path, edit, message):
    text = DOCUMENTED.replace(*edit)
    assert text != DOCUMENTED
    with pytest.raises(ConfigError) as e:
        load_ferry(str(_ferry(tmp_path, text)))
    assert message in str(e.value)
    assert str(tmp_path / "ferry.toml") in str(e.value)


def test_shell_parameters_are_not_placeholders(tmp_path):
    text = DOCUMENTED.replace('"--steps", "{steps}"', '"--steps", "{steps}", "--home", "${HOME}"')
    ferry, _ = load_ferry(str(_ferry(tmp_path, text)))
    placeholders = command_ferry.Placeholders("/f", "/r", "id", 1, 30, "cpu")
    assert [placeholders.fill(arg) for arg in ferry.command.argv] == [
        "python3",
        "/f/train.py",
        "--steps",
        "30",
        "--home",
        "${HOME}",
    ]


def test_lowering_a_command_ferry_is_bad_input(tmp_path):
    r = run_cli("lower", "--ferry", str(EXAMPLE), "--platform", "tpu")
    assert r.returncode == 2
    assert "command ferry" in r.stderr and "no built-in model to lower" in r.stderr


def test_kernel_flags_are_refused_for_a_command_ferry(tmp_path):
    with pytest.raises(ConfigError, match="--ragged-dot: ferry 'levanter-standin' runs its own trainer"):
        _run(tmp_path, ragged_dot="xla")
    assert not (tmp_path / "runs").exists()


# ----------------------------------------------------------------------------- the environment


def test_the_trainer_gets_the_run_the_cache_mode_and_the_lanes_env():
    ferry, _ = load_ferry(str(EXAMPLE))
    lane = get_lane("cpu")
    placeholders = command_ferry.Placeholders("/f", "/runs/r1/attempt-2", "r1", 2, 7, "cpu")
    cold = command_ferry.trainer_env(ferry, lane, placeholders, CacheSpec(mode="cold"))
    assert cold["JAX_ENABLE_COMPILATION_CACHE"] == "false" and "JAX_COMPILATION_CACHE_DIR" not in cold
    assert {k: cold[k] for k in ("CANARY_RUN_DIR", "CANARY_RUN_ID", "CANARY_STEPS", "CANARY_LANE")} == {
        "CANARY_RUN_DIR": "/runs/r1/attempt-2",
        "CANARY_RUN_ID": "r1",
        "CANARY_STEPS": "7",
        "CANARY_LANE": "cpu",
    }
    warm = command_ferry.trainer_env(ferry, lane, placeholders, CacheSpec(mode="warm", dir="gs://b/cache"))
    assert warm["JAX_COMPILATION_CACHE_DIR"] == "gs://b/cache" and warm["JAX_ENABLE_COMPILATION_CACHE"] == "true"
    request = command_ferry.attempt_request(ferry, lane, placeholders, CacheSpec(mode="cold"), name="r1-attempt-2")
    assert request.argv == [
        sys.executable,
        "/f/../../tests/trainers/levanter_standin.py",
        "--steps",
        "7",
        "--out",
        "/runs/r1/attempt-2",
    ]
    assert request.timeout_s == lane.timeout_s and request.log_path == Path("/runs/r1/attempt-2/train.log")


def test_the_ray_launcher_forwards_the_lanes_variables_to_a_command_ferry(monkeypatch):
    from canary.launchers.ray import forwarded_env

    env = {"XLA_FLAGS": "--xla_dump_to=/tmp/d", "LIBTPU_INIT_ARGS": "--x", "NCCL_DEBUG": "INFO", "HOME": "/root"}
    assert forwarded_env(env) == {k: env[k] for k in ("XLA_FLAGS", "LIBTPU_INIT_ARGS", "NCCL_DEBUG")}


# ----------------------------------------------------------------------------- end to end (library)


@pytest.mark.slow
def test_a_passing_trainer_passes_and_is_recorded(tmp_path, monkeypatch):
    record = _run(tmp_path, monkeypatch=monkeypatch, mode="ok")
    assert record.verdict == "pass" and record.steps_completed == 30
    assert record.final_loss == pytest.approx(2.4402, abs=1e-4)
    assert record.ferry == "levanter-standin" and record.signature is None
    run_dir = Path(record.run_dir)
    for name in ("result.json", "tracker_metrics.jsonl", "metrics.jsonl", "train.log"):
        assert (run_dir / name).is_file(), name
    [stored] = backend(str(tmp_path / "history.sqlite3")).records(lane="cpu")
    assert stored.run_id == record.run_id and stored.verdict == "pass"


@pytest.mark.slow
def test_a_loss_over_the_gate_fails_as_a_gate_regression(tmp_path, monkeypatch):
    record = _run(tmp_path, monkeypatch=monkeypatch, mode="high-loss")
    assert record.verdict == "fail"
    assert record.signature.kind == "gate_regression"
    assert [g["name"] for g in record.gates if g["status"] == "FAIL"] == ["max_final_loss"]


@pytest.mark.slow
def test_a_crash_midway_is_a_runtime_crash_with_the_trainers_traceback(tmp_path, monkeypatch):
    record = _run(tmp_path, monkeypatch=monkeypatch, mode="crash-at:5")
    assert record.verdict == "fail" and record.steps_completed == 5
    assert record.signature.kind == "runtime_crash"
    assert "stand-in trainer crashed at step 5" in record.signature.message
    assert "levanter_standin.py" in record.error


@pytest.mark.slow
@pytest.mark.parametrize("mode, words", [("no-summary", "wrote no summary"), ("empty-summary", "is empty")])
def test_a_missing_or_empty_summary_fails_with_its_own_kind(tmp_path, monkeypatch, mode, words):
    record = _run(tmp_path, monkeypatch=monkeypatch, mode=mode)
    assert record.verdict == "fail"
    assert record.signature.kind == "missing_summary"
    assert words in record.error
    summary_gate = [g for g in record.gates if g["name"] == "summary"]
    assert summary_gate and summary_gate[0]["status"] == "FAIL"
    again = _run(tmp_path, monkeypatch=monkeypatch, mode="no-summary")
    assert again.signature.fingerprint == record.signature.fingerprint  # one identity for one failure


@pytest.mark.slow
def test_the_summary_alone_counts_steps_as_levanter_writes_them(tmp_path, monkeypatch):
    """``_step`` is 0-based: a summary with ``_step`` 11 is 12 steps."""
    record = _run(tmp_path, ferry=_standin_ferry(tmp_path, metrics=False), monkeypatch=monkeypatch, mode="ok")
    summary = json.loads((Path(record.run_dir) / "tracker_metrics.jsonl").read_text())["summary"]
    assert summary["_step"] == 11
    assert record.steps_completed == 12
    assert not (Path(record.run_dir) / "metrics.jsonl").exists()


@pytest.mark.slow
def test_cold_reaches_the_trainers_environment(tmp_path, monkeypatch):
    cold = _run(tmp_path, monkeypatch=monkeypatch, mode="ok", cache=CacheSpec(mode="cold"))
    env = json.loads((Path(cold.run_dir) / "tracker_metrics.jsonl").read_text())["config"]["env"]
    assert env["JAX_ENABLE_COMPILATION_CACHE"] == "false" and env["JAX_COMPILATION_CACHE_DIR"] is None
    warm = _run(tmp_path, monkeypatch=monkeypatch, mode="ok", cache=CacheSpec(mode="warm", dir=str(tmp_path / "c")))
    env = json.loads((Path(warm.run_dir) / "tracker_metrics.jsonl").read_text())["config"]["env"]
    assert env["JAX_COMPILATION_CACHE_DIR"] == str(tmp_path / "c")
    assert env["CANARY_RUN_ID"] == warm.run_id and env["CANARY_RUN_DIR"].endswith("attempt-1")


@pytest.mark.slow
def test_a_summary_in_gcs_is_fetched(tmp_path, monkeypatch):
    """``tracker_metrics`` as a gs:// URL, against a real fake-gcs-server."""
    from gcs_emulator import Emulator

    emu = Emulator(tmp_path / "gcs").start()
    try:
        monkeypatch.setenv("STORAGE_EMULATOR_HOST", emu.url)
        client = emu.client() if hasattr(emu, "client") else None
        from canary.history.gcs import _default_client

        client = client or _default_client()
        bucket = client.create_bucket("trainer-out")
        summary = {"summary": {"_step": 11, "train/loss": 2.5}}
        bucket.blob("canary/r9/1/tracker_metrics.jsonl").upload_from_string(json.dumps(summary) + "\n")
        ferry, path = load_ferry(
            str(
                _standin_ferry(
                    tmp_path, metrics=False, tracker="gs://trainer-out/canary/{run_id}/{attempt}/tracker_metrics.jsonl"
                )
            )
        )
        attempt_dir = tmp_path / "a1"
        attempt_dir.mkdir()
        placeholders = command_ferry.placeholders_for(path, attempt_dir, run_id="r9", attempt=1, steps=12, lane="cpu")
        assert command_ferry.collect(ferry, placeholders) is None
        assert json.loads((attempt_dir / "tracker_metrics.jsonl").read_text()) == summary
        missing = command_ferry.placeholders_for(path, attempt_dir, run_id="r9", attempt=2, steps=12, lane="cpu")
        assert "wrote no summary at gs://trainer-out/canary/r9/2/tracker_metrics.jsonl" in command_ferry.collect(
            ferry, missing
        )
    finally:
        emu.stop()


# ----------------------------------------------------------------------------- end to end (the CLI)


@pytest.mark.slow
def test_canary_run_with_a_command_ferry_passes_and_a_crash_exits_1(tmp_path):
    args = ("run", "cpu", "--ferry", str(EXAMPLE), "--gates", str(GATES), "--out", str(tmp_path / "runs"), "--json")
    ok = run_cli(*args, env={"STANDIN_MODE": "ok"})
    assert ok.returncode == 0, ok.stderr
    assert json.loads(ok.stdout)["verdict"] == "pass"
    crash = run_cli(*args, env={"STANDIN_MODE": "crash-at:3"})
    assert crash.returncode == 1, crash.stderr
    assert json.loads(crash.stdout)["signature"]["kind"] == "runtime_crash"


@pytest.mark.slow
def test_a_failing_command_ferry_is_notified_once(github, tmp_path):  # noqa: F811 (fixture)
    env = {
        "STANDIN_MODE": "high-loss",
        "GITHUB_TOKEN": TOKEN,
        "GITHUB_API_URL": github.url,
        "CANARY_NOTIFY_SPOOL": str(tmp_path / "spool"),
        "GITHUB_REPOSITORY": "",
        "CANARY_HISTORY": str(tmp_path / "history.sqlite3"),
    }
    args = (
        "run",
        "cpu",
        "--ferry",
        str(EXAMPLE),
        "--gates",
        str(GATES),
        "--out",
        str(tmp_path / "runs"),
        "--notify",
        "github",
        "--repo",
        REPO,
    )
    first = run_cli(*args, env=env)
    assert first.returncode == 1, first.stderr
    [issue] = github.state.issues()
    assert "levanter-standin" in issue["body"] or "levanter-standin" in issue["title"]
    second = run_cli(*args, env=env)
    assert second.returncode == 1
    assert len(github.state.issues()) == 1  # a recurrence is a comment, not a second issue
    assert len(github.state.comments(issue["number"])) >= 1


@pytest.mark.slow
@pytest.mark.parametrize("both", [False, True])
def test_a_run_reads_its_ferry_lanes_gates_and_golden_once(tmp_path, monkeypatch, both):
    """``run_canary`` reads each reviewed file once and hands the loaded objects on; so does
    ``--cache both`` for all its passes."""
    import canary.golden.store
    import canary.textio
    from canary.run.consistency import run_both

    golden = ROOT / "gates" / "moe-canary.cpu.golden.json"
    gates = tmp_path / "gates.toml"
    gates.write_text(GATES.read_text().replace("[lanes.cpu]\n", f'[lanes.cpu]\ngolden = "{golden}"\n'))
    reads: list[str] = []
    real = canary.textio.read_bytes

    def counted(path, *args, **kw):
        reads.append(Path(path).name)
        return real(path, *args, **kw)

    monkeypatch.setattr(canary.textio, "read_bytes", counted)
    monkeypatch.setattr(canary.golden.store, "read_bytes", counted)
    monkeypatch.setenv("STANDIN_MODE", "ok")
    if both:
        opts = RunOptions(lane="cpu", ferry=str(EXAMPLE), gates=str(gates), out=tmp_path / "runs", record_history=False)
        record = run_both(opts)
        assert [a.number for a in record.attempts] == [1, 2, 3]  # cold, warm, warm again: nothing was cached
    else:
        record = _run(tmp_path, gates=gates)
    assert record.gates_path == str(gates.resolve())
    assert {name: reads.count(name) for name in (EXAMPLE.name, "lanes.toml", gates.name, golden.name)} == {
        EXAMPLE.name: 1,
        "lanes.toml": 1,
        gates.name: 1,
        golden.name: 1,
    }
