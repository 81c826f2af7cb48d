"""`canary lower` and `canary repro` off their hardware: the incident's kernel failure caught by
cross-lowering on a CPU (no TPU, no libtpu), and the failure parsed into its parts."""

import json
import subprocess
import sys

import pytest

from canary.config import load_ferry, load_lanes
from canary.errors import ConfigError
from canary.run.lowering import LowerOptions, parse_block_shape_error, plan
from canary.workload.program import short_error
from tests.conftest import ROOT

INCIDENT = """ValueError: The Pallas TPU lowering currently requires that the last two
dimensions of your block shape are divisible by 8 and 128 respectively, or be
equal to the respective dimensions of the overall array. Block spec for outputs
in pallas_call kernel at .../pallas/ops/tpu/megablox/gmm.py:393 has block shape
(Blocked(block_size=512), Blocked(block_size=32)), array shape (524288, 128)"""


# ----------------------------------------------------------------------------- pure parts


def test_parses_the_incidents_error_as_printed():
    p = parse_block_shape_error(INCIDENT)
    assert p == {
        "kernel": "megablox/gmm",
        "location": ".../pallas/ops/tpu/megablox/gmm.py:393",
        "operand": "outputs",
        "block_shape": [512, 32],
        "array_shape": [524288, 128],
    }


def test_parses_squeezed_dims_and_ignores_other_errors():
    text = (
        "Block spec for args[3] in pallas_call kernel at /x/k.py:7 has block shape "
        "(Squeezed(), Blocked(block_size=16), Blocked(block_size=64)), array shape (4, 40, 256), and index_map {...}"
    )
    p = parse_block_shape_error(text)
    assert p["block_shape"] == [None, 16, 64] and p["array_shape"] == [4, 40, 256] and p["operand"] == "args[3]"
    assert parse_block_shape_error("RESOURCE_EXHAUSTED: out of memory while compiling") is None


def test_short_error_drops_the_index_map_jaxpr():
    e = ValueError("Block spec for outputs ... array shape (8, 128), and index_map { lambda ; a:i32[]. let in (a) }")
    assert short_error(e) == "ValueError: Block spec for outputs ... array shape (8, 128)"


@pytest.fixture(scope="module")
def config():
    ferry, _ = load_ferry("moe-canary")
    lanes, _ = load_lanes()
    return ferry, lanes


def test_plan_defaults_to_every_accelerator_lane(config):
    pairs = plan(LowerOptions(), *config)
    assert [(p, lane.name) for p, lane in pairs] == [("tpu", "tpu"), ("cuda", "gpu")]


def test_plan_with_lane_and_platforms(config):
    assert [(p, lane.name) for p, lane in plan(LowerOptions(lane="tpu"), *config)] == [("tpu", "tpu")]
    assert [(p, lane.name) for p, lane in plan(LowerOptions(lane="tpu", platforms=["tpu", "cuda"]), *config)] == [
        ("tpu", "tpu"),
        ("cuda", "tpu"),
    ]
    assert [(p, lane.name) for p, lane in plan(LowerOptions(platforms=["cuda"]), *config)] == [("cuda", "gpu")]


@pytest.mark.parametrize(
    "opts, key",
    [
        (LowerOptions(lane="nope"), "nope"),
        (LowerOptions(platforms=["rocm"]), "rocm"),
        (LowerOptions(lane="tpu", tiling="diagonal"), "diagonal"),
    ],
)
def test_plan_rejects_bad_input_by_name(config, opts, key):
    with pytest.raises(ConfigError, match=key):
        plan(opts, *config)


# ----------------------------------------------------------------------------- the command


@pytest.mark.slow  # lowers the tpu lane's whole train step in a subprocess (a few seconds)
def test_static_tiling_fails_tpu_lowering_with_the_incidents_error(cli):
    r = cli("lower", "--lane", "tpu", "--platform", "tpu", "--tiling", "static", "--no-parity", "--json")
    assert r.returncode == 1, r.stderr
    out = json.loads(r.stdout)
    (p,) = out["platforms"]
    assert out["ok"] is False and p["platform"] == "tpu" and p["ok"] is False
    assert "divisible by 8 and 128" in p["error"]
    assert p["block_shape"] == [512, 32] and p["array_shape"][-1] == 128
    assert p["array_shape"] == [524288, 128]  # 32 per device x 8192 x top-2, as on the v6e-4
    assert (p["kernel"], p["gmm"], p["projection"], p["operand"], p["tensor"]) == (
        "megablox/gmm",
        "grad-lhs",
        "down",
        "outputs",
        "out",
    )
    assert "forward shapes" in p["diagnosis"]
    # the up projection's grad-lhs is broken too, on its input
    assert {(f["gmm"], f["projection"], f["tensor"]) for f in p["failures"]} == {
        ("grad-lhs", "down", "out"),
        ("grad-lhs", "gate/up", "lhs"),
    }


@pytest.mark.slow  # lowers the tpu lane's whole train step in a subprocess (a few seconds)
def test_per_shape_tiling_lowers_for_tpu(cli):
    r = cli("lower", "--lane", "tpu", "--platform", "tpu", "--tiling", "per-shape", "--no-parity", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    (p,) = json.loads(r.stdout)["platforms"]
    assert p == {**p, "ok": True, "error": None, "ragged_dot": "megablox", "batch_size": 32, "seq_len": 8192}


@pytest.mark.slow  # lowers the cpu lane's whole train step in a subprocess
def test_cpu_lane_lowers_with_its_pure_jax_grouped_matmul(cli):
    r = cli("lower", "--lane", "cpu", "--platform", "cpu", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    (p,) = json.loads(r.stdout)["platforms"]
    assert (p["platform"], p["ragged_dot"], p["ok"], p["error"]) == ("cpu", "grouped", True, None)
    assert "attention" not in p  # one attention layer, the model's own, on every lane


@pytest.mark.slow  # lowers whole train steps, twice
def test_gpu_lane_lowers_for_cuda_and_text_output_names_the_failure(cli):
    r = cli("lower", "--lane", "gpu", "--platform", "cuda", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    (p,) = json.loads(r.stdout)["platforms"]
    assert (p["platform"], p["ragged_dot"], p["ok"]) == ("cuda", "xla", True)

    r = cli("lower", "--lane", "tpu", "--tiling", "static", "--no-parity")
    assert r.returncode == 1
    assert "grad-lhs of the down projection" in r.stdout and "(512, 32)" in r.stdout


@pytest.mark.parametrize(
    "args, env, needle",
    [
        (("lower", "--lane", "nope"), {}, "nope"),
        (("lower", "--lane", "tpu"), {"RAGGED_DOT_IMPL": "cublas"}, "RAGGED_DOT_IMPL"),
        (("repro", "nope"), {}, "nope"),
    ],
)
def test_bad_input_exits_2(cli, args, env, needle):
    r = cli(*args, env=env)
    assert r.returncode == 2
    assert needle in r.stderr and "Traceback" not in r.stderr


def test_help_does_not_import_jax():
    code = (
        "import sys\nfrom click.testing import CliRunner\nfrom canary.cli import cli\n"
        "for args in (['--help'], ['lower', '--help'], ['repro', '--help'], ['run', '--help']):\n"
        "    r = CliRunner().invoke(cli, args)\n    assert r.exit_code == 0, r.output\n"
        "print('jax' in sys.modules)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "False"


@pytest.mark.slow  # lowers whole train steps, twice
def test_repro_without_the_hardware_says_so_and_cross_lowers(cli):
    r = cli("repro", "tpu", "--tiling", "static", "--json")
    assert r.returncode == 1, r.stderr
    out = json.loads(r.stdout)
    assert out["action"] == "lower" and out["hardware"]["present"] is False
    assert out["message"].startswith("no tpu hardware here")
    assert out["lowering"]["platforms"][0]["block_shape"] == [512, 32]

    assert out["hardware"]["detail"] == "JAX has no tpu backend here"  # JAX's own words only in --json

    r = cli("repro", "tpu")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no tpu hardware here" in r.stdout and "PASS" in r.stdout
    assert "libtpu" not in r.stdout + r.stderr and "failed to initialize" not in r.stdout + r.stderr


@pytest.mark.slow
def test_repro_on_cpu_runs_cold(cli, tmp_path):
    r = cli("repro", "cpu", "--steps", "3", "--out", str(tmp_path), "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["action"] == "run" and out["hardware"]["present"] is True
    assert out["cache"]["mode"] == "cold" and out["cache"]["hits"] == 0 and out["cache"]["requests"] == 0
    assert out["run"]["steps_completed"] == 3
    assert {g["name"] for g in out["gates"]} == {"min_steps", "finite_loss"}
    assert out["run"]["steps_requested"] == 3 and out["run"]["ferry_steps"] == 200  # recorded as a short run
