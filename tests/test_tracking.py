"""W&B tracking: the mode a run gets, offline logging under levanter's names, and W&B being
unavailable (not installed, or its server unreachable) never failing a canary."""

from __future__ import annotations

import json
import socket
import struct
import sys
from pathlib import Path

import pytest

from canary.formats.directory import WANDB_FILE
from canary.workload import tracking
from canary.workload.tracking import open_tracker, resolve_mode, run_context

KEY = "k" * 40


@pytest.mark.parametrize(
    "lane, env, expected",
    [
        ("off", {"WANDB_MODE": "online", "WANDB_API_KEY": KEY}, "off"),
        ("offline", {}, "offline"),
        ("offline", {"WANDB_API_KEY": KEY}, "offline"),
        ("offline", {"WANDB_MODE": "online", "WANDB_API_KEY": KEY}, "online"),
        ("offline", {"WANDB_MODE": "online"}, "offline"),  # no key, no upload
        ("online", {"WANDB_API_KEY": KEY}, "online"),
        ("online", {}, "offline"),
        ("online", {"WANDB_MODE": "offline", "WANDB_API_KEY": KEY}, "offline"),
        ("online", {"WANDB_MODE": "disabled", "WANDB_API_KEY": KEY}, "off"),
    ],
)
def test_mode_comes_from_the_lane_and_the_environment(lane, env, expected):
    assert resolve_mode(lane, env) == expected


def _open(tmp_path: Path, environ: dict, lane_mode: str = "offline"):
    return open_tracker(
        lane_mode,
        tmp_path,
        project="canary-test",
        group="moe-canary",
        lane="cpu",
        name="r1",
        config={"steps": 3},
        environ=environ,
        log=lambda s: None,
    )


def test_wandb_not_installed_turns_tracking_off_and_says_why(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "wandb", None)  # what `import wandb` meets when it is absent
    t = _open(tmp_path, {})
    t.log({"train/loss": 1.0}, step=0)
    t.finish({"train/loss": 1.0})
    info = json.loads((tmp_path / WANDB_FILE).read_text())
    assert info["mode"] == "off" and info["error"].startswith("ModuleNotFoundError")
    assert run_context(tmp_path) == {"wandb": info}


def test_tracking_off_writes_nothing(tmp_path):
    assert _open(tmp_path, {}, lane_mode="off").mode == "off"
    assert not (tmp_path / WANDB_FILE).exists() and run_context(tmp_path) == {}


def wandb_records(run_file: Path):
    """The protobuf records of a .wandb file: a 7-byte header, then leveldb-log framed chunks
    (checksum, length, type; FULL=1 FIRST=2 MIDDLE=3 LAST=4) in 32 KiB blocks."""
    from wandb.proto import wandb_internal_pb2 as pb

    data, pos, block, buf = run_file.read_bytes(), 7, 32768, b""
    assert data[:4] == b":W&B"
    while pos + 7 <= len(data):
        if block - pos % block < 7:
            pos += block - pos % block
            continue
        _, length, kind = struct.unpack("<IHB", data[pos : pos + 7])
        if length == 0 and kind == 0:
            break
        buf += data[pos + 7 : pos + 7 + length]
        pos += 7 + length
        if kind in (1, 4):
            rec = pb.Record()
            rec.ParseFromString(buf)
            yield rec
            buf = b""


def _gates(tmp_path: Path) -> Path:
    g = tmp_path / "gates.toml"
    g.write_text("[lanes.cpu]\nmin_steps = 200\nmax_final_loss = 10.0\n")
    return g


def _cpu_lane_with_wandb(tmp_path: Path, mode: str) -> Path:
    p = tmp_path / "lanes.toml"
    p.write_text(f'[lanes.cpu]\nplatform = "cpu"\nwandb = "{mode}"\nwandb_project = "canary-test"\n')
    return p


@pytest.mark.slow
def test_a_canary_logs_every_step_to_an_offline_wandb_run(cli, tmp_path):
    env = {"CANARY_LANES": str(_cpu_lane_with_wandb(tmp_path, "offline")), "WANDB_MODE": "", "WANDB_API_KEY": ""}
    r = cli(
        "run",
        "cpu",
        "--steps",
        "3",
        "--gates",
        str(_gates(tmp_path)),
        "--out",
        str(tmp_path / "runs"),
        "--json",
        env=env,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(r.stdout)
    wb = result["context"]["wandb"]
    assert wb["mode"] == "offline" and "wandb_url" not in result["context"]
    assert Path(wb["dir"]).is_relative_to(Path(result["run_dir"]) / "attempt-1" / "wandb")
    (run_file,) = Path(wb["dir"]).glob("run-*.wandb")
    records = list(wandb_records(run_file))
    run = next(r.run for r in records if r.WhichOneof("record_type") == "run")
    assert (run.project, run.run_group, run.display_name) == ("canary-test", "moe-canary", result["run_id"])
    assert list(run.tags) == ["canary", "cpu"]
    steps = [
        {i.key or "/".join(i.nested_key): json.loads(i.value_json) for i in r.history.item}
        for r in records
        if r.WhichOneof("record_type") == "history"
    ]
    assert [s["global_step"] for s in steps] == [0, 1, 2]
    for name in (
        "train/loss",
        "train/cross_entropy_loss",
        "throughput/tokens_per_second",
        "throughput/examples_per_second",
        "throughput/duration",
        "train/router/load_balancing_loss",
        "train/router/router_z_loss",
    ):
        assert all(isinstance(s[name], float) for s in steps), name
    assert steps[-1]["train/loss"] == pytest.approx(result["final_loss"])


@pytest.mark.slow
def test_wandb_server_unreachable_never_fails_a_canary(cli, tmp_path):
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        dead = f"http://127.0.0.1:{s.getsockname()[1]}"
    env = {
        "CANARY_LANES": str(_cpu_lane_with_wandb(tmp_path, "offline")),
        "WANDB_MODE": "online",
        "WANDB_API_KEY": KEY,
        "WANDB_BASE_URL": dead,
        "WANDB_INIT_TIMEOUT": "3",
    }
    r = cli(
        "run",
        "cpu",
        "--steps",
        "3",
        "--gates",
        str(_gates(tmp_path)),
        "--out",
        str(tmp_path / "runs"),
        "--json",
        env=env,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(r.stdout)
    assert result["verdict"] == "pass" and result["steps_completed"] == 3
    wb = result["context"]["wandb"]
    assert wb["mode"] == "off" and dead.split("//")[1] in wb["error"]
    log = (Path(result["run_dir"]) / "train.log").read_text()
    assert "W&B tracking is off for this run" in log


def test_the_harness_reads_tracking_without_importing_wandb():
    import subprocess

    code = "import sys, canary.run.runner; print('wandb' in sys.modules, 'jax' in sys.modules)"
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env={"PYTHONPATH": str(Path(tracking.__file__).parents[2])},
    ).stdout.split()
    assert out == ["False", "False"]
