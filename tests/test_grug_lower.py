"""`canary lower --ferry grug-moe-canary`: the library's real code (levanter's grug MoE over the
installed marin-haliax) lowered for the TPU on this CPU host, with haliax's own dispatch shown the
TPU. marin-haliax 0.2.20's megablox wrapper passes one static tile to megablox's backward pass:
the lowering must fail with the incident's diagnosis. Nothing is stood in for."""

import ast
import importlib
import importlib.metadata
import inspect
import json
import os

import pytest

from canary.config import load_ferry
from canary.run.ownership import owner_of
from canary.workload.platform_view import shown_platform


def _static_tile_in_installed_haliax() -> bool:
    """Read the installed haliax's megablox wrapper: does it pass megablox one tile tuple (the
    incident's bug) rather than a per-shape callable?"""
    module = importlib.import_module("haliax.nn.ragged_dot")
    tree = ast.parse(inspect.getsource(module))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "_gmm_megablox":
            tiling = next((k.value for k in node.keywords if k.arg == "tiling"), None)
            return isinstance(tiling, ast.Tuple)
    raise AssertionError("haliax.nn.ragged_dot no longer calls megablox's gmm")


def test_the_installed_haliax_is_the_incidents():
    # the test extra installs marin-haliax on Python 3.11: 0.2.20, whose wrapper has the static tile
    assert importlib.metadata.version("marin-haliax").startswith("0.2.20.dev")
    assert _static_tile_in_installed_haliax()


def test_shown_platform_reaches_the_library_only():
    import jax

    ragged = importlib.import_module("haliax.nn.ragged_dot")
    attention = importlib.import_module("levanter.grug.attention._core")
    with shown_platform("tpu", ("haliax", "levanter")) as shown:
        assert ragged.jax.default_backend() == "tpu" and attention.jax.default_backend() == "tpu"
        assert ragged._preferred_implementations("auto") == ("megablox", "xla")
        assert jax.default_backend() == "cpu"  # JAX itself, and canary, see the real backend
        assert ragged.jax.numpy is jax.numpy  # everything else is the real jax
        assert "haliax.nn.ragged_dot" in shown
    assert ragged.jax is jax and ragged._preferred_implementations("auto") == ("xla",)


def test_the_lanes_gpu_as_jax_describes_it():
    from canary.workload.platform_view import ShownDevice, shown_devices

    devices = shown_devices("cuda", "H100", 8)
    assert len(devices) == 8 and [d.id for d in devices] == list(range(8))
    assert devices[0] == ShownDevice(0, "gpu", "NVIDIA H100 80GB HBM3", "9.0")
    assert shown_devices("cuda", "H200", 1)[0].device_kind == "NVIDIA H200"  # read on an H200
    assert shown_devices("cuda", "MI300X", 8) is None  # canary does not know it: nothing is shown
    assert shown_devices("tpu", "v6e-4", 4) is None


def test_shown_devices_reach_the_library_only_and_decide_its_kernels():
    import jax

    from canary.workload.platform_view import ShownDevice, shown_devices

    ragged = importlib.import_module("haliax.nn.ragged_dot")
    h100 = shown_devices("cuda", "H100", 8)
    with shown_platform("cuda", ("haliax", "levanter"), h100):
        assert ragged.jax.devices("gpu") == h100 and ragged.jax.devices() == h100
        assert ragged.jax.local_devices(0, "gpu") == h100 and ragged.jax.local_devices(backend="cuda") == h100
        assert ragged.jax.devices("cpu") == jax.devices("cpu")  # another backend asked by name is the real one
        assert jax.devices()[0].platform == "cpu"  # JAX itself, and canary, see the real devices
        assert ragged._is_blackwell_gpu_backend() is False  # haliax reads the shown device's capability
    blackwell = [ShownDevice(0, "gpu", "NVIDIA B200", "10.0")]
    with shown_platform("cuda", ("haliax", "levanter"), blackwell):
        assert ragged._is_blackwell_gpu_backend() is True
    assert ragged.jax is jax and ragged._is_blackwell_gpu_backend() is False  # nothing is left behind


def test_a_library_kernel_fallback_is_read_from_its_warning():
    from canary.run.stack_lowering import fell_back

    # marin-haliax 0.2.227 on a CPU host shown no GPU: its Triton family choice asks for a GPU device
    said = ["ragged_dot auto fallback: triton failed (RuntimeError), trying next."]
    assert fell_back(["unrelated", *said]) == ("triton", "RuntimeError")
    assert fell_back(["Pallas fused cross-entropy unavailable, falling back to XLA: ..."]) is None
    assert fell_back([]) is None


def test_owner_of_names_the_distribution_that_installed_a_file():
    ragged = importlib.import_module("haliax.nn.ragged_dot")
    assert owner_of(ragged.__file__) == ("marin-haliax", importlib.metadata.version("marin-haliax"))
    assert owner_of("/nowhere/at/all.py") is None


@pytest.mark.slow  # lowers the tpu lane's whole grug train step (a few seconds, after importing levanter)
def test_grug_ferry_fails_tpu_lowering_with_the_incidents_diagnosis(cli):
    r = cli("lower", "--ferry", "grug-moe-canary", "--lane", "tpu", "--no-parity", "--json")
    assert r.returncode == 1, r.stdout + r.stderr
    out = json.loads(r.stdout)
    (p,) = out["platforms"]
    assert (p["platform"], p["lane"], p["ok"], p["ragged_dot"]) == ("tpu", "tpu", False, "megablox")
    assert (
        "The Pallas TPU lowering currently requires that the last two dimensions of your block shape are "
        "divisible by 8 and 128 respectively, or be equal to the respective dimensions of the overall array. "
        "Block spec for outputs in pallas_call kernel at "
    ) in p["error"]
    assert p["error"].endswith(
        "megablox/gmm.py:393 has block shape (Blocked(block_size=512), "
        "Blocked(block_size=32)), array shape (524288, 128)"
    )
    assert p["block_shape"] == [512, 32] and p["array_shape"] == [524288, 128]  # 32 x 8192 x top-2 a chip
    assert (p["kernel"], p["gmm"], p["projection"], p["tensor"]) == ("megablox/gmm", "grad-lhs", "down", "out")
    # the call path through the library's files, ending in haliax's megablox wrapper
    frames = [f.split(":")[0] for f in p["call_path"]]
    assert frames[-3:] == ["haliax/nn/ragged_dot.py"] * 3
    assert "levanter/grug/_moe/scatter.py" in frames
    assert p["call_path"][-1].endswith(" _ragged_dot_megablox_impl")
    haliax = importlib.metadata.version("marin-haliax")
    assert p["owner"] == f"marin-haliax {haliax}" and haliax.startswith("0.2.20.dev")
    assert p["owner"] in p["diagnosis"] and "grad-lhs of the down projection" in p["diagnosis"]
    assert p["distributions"]["marin-levanter"] == importlib.metadata.version("marin-levanter")
    # the up projection's grad-lhs breaks the same way, on its input
    assert {(f["gmm"], f["projection"], f["tensor"]) for f in p["failures"]} == {
        ("grad-lhs", "down", "out"),
        ("grad-lhs", "gate/up", "lhs"),
    }


def test_grug_ferry_kernels_are_not_canarys_to_set(cli):
    for flag, value in (("--tiling", "static"), ("--ragged-dot", "xla")):
        r = cli("lower", "--ferry", "grug-moe-canary", "--lane", "tpu", flag, value)
        assert r.returncode == 2 and flag in r.stderr and "library's own choice" in r.stderr, r.stderr
        assert "Traceback" not in r.stderr


def test_a_stack_ferry_lane_may_not_pick_kernels(tmp_path):
    from canary.errors import ConfigError

    _, path = load_ferry("grug-moe-canary")
    text = path.read_text().replace("[lanes.tpu]\n", '[lanes.tpu]\nragged_dot = "xla"\n')
    (tmp_path / "grug.toml").write_text(text)
    with pytest.raises(ConfigError, match=r"lanes\.tpu\.ragged_dot: .*library's own choice"):
        load_ferry(str(tmp_path / "grug.toml"))


@pytest.mark.slow  # lowers the gpu lane's whole grug train step (32 x 8192 tokens over 8 chips)
def test_grug_ferry_lowers_for_the_gpu_with_the_librarys_triton_kernels(cli):
    r = cli("lower", "--ferry", "grug-moe-canary", "--lane", "gpu", "--json")
    assert r.returncode == 0, r.stdout + r.stderr
    (p,) = json.loads(r.stdout)["platforms"]
    assert (p["platform"], p["lane"], p["ok"], p["ragged_dot"]) == ("cuda", "gpu", True, "triton")
    assert (p["batch_size"], p["seq_len"], p["devices"]) == (4, 8192, 8)  # one chip's share
    assert len(p["fingerprint"]) == 64
    # the library picked its kernels for the lane's GPU, not for this host's absent one
    assert "the library was shown the lane's devices: 8 x NVIDIA H100 80GB HBM3" in p["notes"]
    # levanter's fused cross-entropy would time kernels on this CPU before picking its block sizes
    assert any("autotuning" in n for n in p["notes"]), p["notes"]


def test_library_switches_are_set_only_while_lowering(monkeypatch):
    from canary.workload.platform_view import NO_HOST_MEASUREMENT, library_switches

    (name,) = NO_HOST_MEASUREMENT
    monkeypatch.delenv(name, raising=False)
    environ = dict(os.environ)
    with library_switches(environ):
        assert environ[name] == "0"
    assert name not in environ
    environ[name] = "1"  # the caller's own choice wins, and is kept
    with library_switches(environ):
        assert environ[name] == "1"
    assert environ[name] == "1"
