"""The lane schema's launcher settings, the command launcher (real child processes), and the
ray launcher's pure parts (the Ray cluster cases are in ray_cases.py)."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest

from canary.config import LanesFile, get_lane, load_lanes, load_model
from canary.errors import ConfigError
from canary.launchers import BACKENDS, AttemptRequest, entrypoint_argv, for_lane
from canary.launchers import command as command_mod
from canary.launchers.ray import forwarded_env, job_runtime_env, outcome_for, resolve_address


def _lanes(tmp_path: Path, text: str) -> Path:
    p = tmp_path / "lanes.toml"
    p.write_text(text)
    return p


def _request(tmp_path: Path, code: str, timeout_s: float = 60, env: dict | None = None) -> AttemptRequest:
    return AttemptRequest(
        argv=[sys.executable, "-c", code],
        env=env or {},
        cwd=tmp_path,
        log_path=tmp_path / "attempt" / "train.log",
        timeout_s=timeout_s,
        poll_interval=0.05,
        name="r1-attempt-1",
    )


def test_the_shipped_lanes_load_with_their_launchers():
    lanes, _ = load_lanes()
    assert {"cpu", "tpu", "gpu"} <= set(lanes)
    assert lanes["cpu"].launcher.kind == "local" and lanes["cpu"].wandb == "off"
    assert lanes["tpu"].launcher.kind == "ray" and lanes["tpu"].launcher.resources == {"TPU": 4}
    assert lanes["gpu"].launcher.resources == {"GPU": 8}
    assert lanes["tpu"].wandb == lanes["gpu"].wandb == "offline"
    assert set(BACKENDS) == {"local", "ray", "command"}


@pytest.mark.parametrize(
    "launcher, key, words",
    [
        ('{ kind = "command" }', "lanes.x.launcher.command", "needs an argv list"),
        (
            '{ kind = "command", command = ["srun", "python"] }',
            "lanes.x.launcher.command",
            "no argument contains {entrypoint}",
        ),
        (
            '{ kind = "local", command = ["sh", "-c", "{entrypoint}"] }',
            "lanes.x.launcher.command",
            "only a command launcher",
        ),
        ('{ kind = "local", address = "http://h:8265" }', "lanes.x.launcher.address", "only a ray launcher"),
        ('{ kind = "ray", resource = { TPU = 4 } }', "lanes.x.launcher.resource", "unknown key"),
        ('{ kind = "slurm" }', "lanes.x.launcher.kind", "'local', 'ray' or 'command'"),
    ],
)
def test_bad_launcher_settings_name_the_key(tmp_path, launcher, key, words):
    p = _lanes(tmp_path, f"[lanes.x]\nlauncher = {launcher}\n")
    with pytest.raises(ConfigError) as e:
        load_model(LanesFile, p)
    assert f"  {key}:" in str(e.value) and words in str(e.value)


def test_bad_wandb_setting_names_the_key(tmp_path):
    with pytest.raises(ConfigError, match=r"lanes\.x\.wandb: .*'off', 'offline' or 'online'"):
        load_model(LanesFile, _lanes(tmp_path, '[lanes.x]\nwandb = "yes"\n'))


def test_entrypoint_argv_swaps_in_the_lanes_interpreter(tmp_path):
    req = _request(tmp_path, "pass")
    assert entrypoint_argv(req) == req.argv
    assert entrypoint_argv(req, "/opt/py/bin/python")[0] == "/opt/py/bin/python"
    assert entrypoint_argv(req, "/opt/py/bin/python")[1:] == req.argv[1:]
    own = AttemptRequest(argv=["bash", "train.sh"], env={}, cwd=tmp_path, log_path=tmp_path / "log", timeout_s=5)
    assert entrypoint_argv(own, "/opt/py/bin/python") == ["bash", "train.sh"]  # a command ferry's own program


def test_command_template_gets_the_quoted_entrypoint_with_its_env(tmp_path):
    req = _request(tmp_path, "print('a b')", env={"JAX_PLATFORMS": "cpu"})
    argv = command_mod.render(["srun", "-J", "{name}", "sh", "-c", "{entrypoint}", '{"keep": 1}'], req)
    assert argv[:5] == ["srun", "-J", "r1-attempt-1", "sh", "-c"]
    assert shlex.split(argv[5]) == ["env", "JAX_PLATFORMS=cpu", *req.argv]
    assert argv[6] == '{"keep": 1}'


def test_command_launcher_runs_through_a_site_cli(tmp_path):
    code = "import os; print('on the job', os.environ['CANARY_MARK'])"
    req = _request(tmp_path, code, env={"CANARY_MARK": "m1"})
    out = command_mod.CommandLauncher(["sh", "-c", "echo site-cli; {entrypoint}"]).launch(req)
    assert out.outcome == "succeeded", out
    log = req.log_path.read_text()
    assert "site-cli" in log and "on the job m1" in log


def test_command_launcher_passes_failure_and_timeout_through(tmp_path):
    fails = command_mod.CommandLauncher(["sh", "-c", "{entrypoint}"]).launch(
        _request(tmp_path, "import sys; sys.exit(7)")
    )
    assert (fails.outcome, fails.exit_code) == ("failed", 7)
    slow = command_mod.CommandLauncher(["sh", "-c", "{entrypoint}"], grace_s=1).launch(
        _request(tmp_path, "import time; time.sleep(60)", timeout_s=0.5)
    )
    assert slow.outcome == "timeout"


def test_a_command_lane_runs_through_the_cli_registry(tmp_path):
    p = _lanes(tmp_path, '[lanes.site]\nlauncher = { kind = "command", command = ["sh", "-c", "{entrypoint}"] }\n')
    launcher = for_lane(get_lane("site", str(p)))
    assert isinstance(launcher, command_mod.CommandLauncher)


def test_ray_address_on_a_lane_that_is_not_ray_is_bad_input(tmp_path):
    with pytest.raises(ConfigError, match=r"--ray-address http://h:8265: lane 'cpu' does not launch through Ray"):
        for_lane(get_lane("cpu"), ray_address="http://h:8265")


def test_ray_address_flag_then_env_then_lane():
    assert resolve_address("http://flag", {"RAY_ADDRESS": "http://env"}, "http://lane") == "http://flag"
    assert resolve_address(None, {"RAY_ADDRESS": "http://env"}, "http://lane") == "http://env"
    assert resolve_address(None, {}, "http://lane") == "http://lane"
    assert resolve_address(None, {}, None) is None


@pytest.mark.parametrize(
    "status, error_type, ran, expected",
    [
        ("SUCCEEDED", None, True, "succeeded"),
        ("FAILED", "JOB_ENTRYPOINT_COMMAND_ERROR", True, "failed"),
        ("FAILED", "JOB_SUPERVISOR_ACTOR_START_TIMEOUT", False, "never_started"),
        ("FAILED", "JOB_SUPERVISOR_ACTOR_UNSCHEDULABLE", False, "never_started"),
        ("FAILED", "RUNTIME_ENV_SETUP_FAILURE", False, "never_started"),
        ("FAILED", None, False, "never_started"),
        ("FAILED", None, True, "failed"),
        ("FAILED", "JOB_SUPERVISOR_ACTOR_DIED", True, "lost"),
        ("STOPPED", None, True, "stopped"),
        ("STOPPED", None, False, "stopped"),
    ],
)
def test_ray_job_states_map_to_outcomes(status, error_type, ran, expected):
    assert outcome_for(status, error_type, ran) == expected


def test_ray_job_env_forwards_what_training_needs_and_nothing_else():
    env = forwarded_env(
        {
            "XLA_FLAGS": "--x",
            "NCCL_DEBUG": "INFO",
            "JAX_TRACEBACK_FILTERING": "off",
            "WANDB_API_KEY": "k",
            "HOME": "/root",
            "AWS_SECRET_ACCESS_KEY": "s",
            "GITHUB_TOKEN": "t",
            "CANARY_HISTORY": "gs://b/p",
        }
    )
    assert env == {"XLA_FLAGS": "--x", "NCCL_DEBUG": "INFO", "JAX_TRACEBACK_FILTERING": "off", "WANDB_API_KEY": "k"}
    rt = job_runtime_env({"pip": ["canary"], "env_vars": {"A": "lane"}}, {"A": "attempt", "B": "b"})
    assert rt == {"pip": ["canary"], "env_vars": {"A": "lane", "B": "b"}}


def test_cli_rejects_ray_address_for_a_local_lane(cli, tmp_path):
    r = cli("run", "cpu", "--ray-address", "http://127.0.0.1:9", "--out", str(tmp_path))
    assert r.returncode == 2 and "does not launch through Ray" in r.stderr
    assert not any(tmp_path.iterdir())  # no run directory for bad input


def test_canary_list_shows_each_lanes_launcher_and_tracking(cli):
    import json

    from canary.commands.list import launcher_cell

    r = cli("list", "--json")
    assert r.returncode == 0, r.stderr
    lanes = json.loads(r.stdout)["lanes"]
    assert lanes["tpu"]["launcher"]["resources"] == {"TPU": 4} and lanes["tpu"]["wandb"] == "offline"
    assert [launcher_cell(lanes[n]["launcher"]) for n in ("cpu", "tpu", "gpu")] == ["local", "ray TPU=4", "ray GPU=8"]
    site = {"kind": "command", "command": ["srun", "sh", "-c", "{entrypoint}"]}
    assert launcher_cell(site) == "command srun sh -c {entrypoint}"
    assert "ray" in cli("list").stdout


def test_the_command_lane_example_in_lanes_toml_is_a_valid_lane():
    import tomllib

    from canary.config import project_root

    text = (project_root() / "lanes.toml").read_text()
    example = "\n".join(line[4:] for line in text.splitlines() if line.startswith("#   "))
    lane = LanesFile.model_validate(tomllib.loads(example)).lanes["slurm-gpu"]
    assert lane.launcher.kind == "command" and "{entrypoint}" in lane.launcher.command


def test_cpu_workloads_get_the_malloc_tunables_and_keep_the_callers_own():
    from canary.ferries.builtin import CPU_MALLOC_TUNABLES, cpu_allocator_env, workload_env

    ours = ":".join(CPU_MALLOC_TUNABLES)
    assert "glibc.malloc.mmap_max=0" in CPU_MALLOC_TUNABLES
    assert cpu_allocator_env({}) == {"GLIBC_TUNABLES": ours}
    assert cpu_allocator_env({"GLIBC_TUNABLES": "glibc.malloc.arena_max=2"}) == {
        "GLIBC_TUNABLES": f"glibc.malloc.arena_max=2:{ours}"
    }
    # the caller's own choice of a tunable wins; the others are still added
    env = cpu_allocator_env({"GLIBC_TUNABLES": "glibc.malloc.hugetlb=0:glibc.malloc.mmap_max=65536"})
    assert env["GLIBC_TUNABLES"].split(":") == [
        "glibc.malloc.hugetlb=0",
        "glibc.malloc.mmap_max=65536",
        "glibc.malloc.trim_threshold=1073741824",
    ]
    assert workload_env(get_lane("cpu"), {})["GLIBC_TUNABLES"] == ours
    assert "GLIBC_TUNABLES" not in workload_env(get_lane("tpu"), {})


def test_the_local_launcher_hands_the_workload_its_environment(tmp_path):
    from canary.ferries.builtin import workload_env
    from canary.launchers.local import LocalLauncher

    env = workload_env(get_lane("cpu"), {})
    code = "import os; print('TUNABLES=' + os.environ['GLIBC_TUNABLES'], 'PLATFORMS=' + os.environ['JAX_PLATFORMS'])"
    outcome = LocalLauncher().launch(_request(tmp_path, code, env=env))
    assert outcome.outcome == "succeeded"
    assert f"TUNABLES={env['GLIBC_TUNABLES']} PLATFORMS=cpu" in outcome.log_path.read_text()
