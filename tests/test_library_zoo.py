"""Quiet regressions of the team's libraries (tests/library_zoo.py), each patched into a copy of
the installed marin-levanter or marin-haliax first on the workload's PYTHONPATH, are caught by the
grug ferry's cpu lane at twice their band or more, and placed; clean variants the golden was not
recorded with raise no alarm. The installed packages are hashed before and after each run: they
are never written.

Each trains the lane's full 160 steps against the committed golden
(gates/grug-moe-canary.cpu.golden.json, which bands the model's statistics). The regressions in the
sliding window and haliax's row padding are in paths the lane reaches since ferry v3: one train
step's loss at v2's shapes is bit-identical with and without them, at v3's it is not."""

import json
import os
import subprocess
import sys

import library_zoo
import pytest
from conftest import ROOT, run_cli

pytest.importorskip("levanter")
pytestmark = pytest.mark.slow

CAUGHT_AT = 2.0  # times its band, at least, the furthest window of a caught regression goes


def grug_run(tmp_path, pythonpath=None, env=None):
    before = library_zoo.installed_digest()
    paths = [str(p) for p in (pythonpath, ROOT) if p]
    r = run_cli(
        "run",
        "cpu",
        "--ferry",
        "grug-moe-canary",
        "--json",
        "--no-history",
        "--out",
        str(tmp_path / "runs"),
        env={"PYTHONPATH": os.pathsep.join(paths), **(env or {})},
    )
    assert library_zoo.installed_digest() == before, "the installed package was written"
    assert r.returncode in (0, 1), r.stdout + r.stderr
    return r.returncode, json.loads(r.stdout)


@pytest.mark.parametrize("patch", library_zoo.ALL, ids=[p.name for p in library_zoo.ALL])
def test_a_library_regression_is_caught_at_twice_its_band_and_placed(tmp_path, patch):
    rc, out = grug_run(tmp_path, library_zoo.overlay(patch, tmp_path / "overlay"))
    failed = {g["name"]: g for g in out["gates"] if g["status"] == "FAIL"}
    assert rc == 1 and set(failed) & {"loss_curve", "stats_curve"}, out["gates"]
    moved = [m for g in failed.values() for m in g.get("moved") or ()]
    times = [m["times"] if m["times"] is not None else float("inf") for m in moved]
    assert max(times) >= CAUGHT_AT, moved
    assert "placed: " in failed["stats_curve"]["detail"]
    assert "; moved: " in out["signature"]["message"]


@pytest.mark.parametrize(
    "env",
    [{"XLA_FLAGS": "--xla_force_host_platform_device_count=2"}, {"CANARY_NUDGE_SEED": "9"}],
    ids=["2-devices", "nudged-9"],
)
def test_a_clean_variant_the_golden_was_not_recorded_with_raises_no_alarm(tmp_path, env):
    rc, out = grug_run(tmp_path, env=env)
    curves = {g["name"]: g for g in out["gates"] if g["name"] in ("loss_curve", "stats_curve")}
    assert rc == 0 and {g["status"] for g in curves.values()} == {"PASS"}, out["gates"]


# One forward pass of the grug model at the cpu lane's shapes (v3: 4 x 60, a window of 16) and at
# v2's (4 x 64, the model's window of 2048, which masks nothing under 64): the loss of each, exactly.
PROBE = """
import json, sys
import jax
from canary.config import get_lane, load_ferry
from canary.formats.spec import build_spec
from canary.workload import grug_model, stack

ferry, _ = load_ferry("grug-moe-canary")
v3 = build_spec(ferry, get_lane("cpu"), run_id="probe", out_dir=sys.argv[1], steps=1)
lanes = {**ferry.lanes, "cpu": ferry.lanes["cpu"].model_copy(update={"seq_len": 64, "sliding_window": None})}
v2 = v3.model_copy(update={"seq_len": 64, "ferry": ferry.model_copy(update={"lanes": lanes})})
out = {}
for name, spec in (("v2", v2), ("v3", v3)):
    cfg = stack.grug_config(spec)
    model = grug_model.Transformer.init(cfg, key=jax.random.key(0))
    batch = jax.random.randint(jax.random.key(1), (spec.batch_size, spec.seq_len + 1), 0, spec.vocab_size)
    with jax.set_mesh(stack.device_mesh()):
        loss, _ = grug_model.loss_fn(model, batch, grug_model.selection_bias(cfg), 1e-4, 1e-3)
    out[name] = float(loss).hex()
print(json.dumps(out))
"""


def probe(tmp_path, pythonpath=None) -> dict:
    paths = [str(p) for p in (pythonpath, ROOT) if p]
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "JAX_PLATFORMS": "cpu"}
    r = subprocess.run(
        [sys.executable, "-c", PROBE, str(tmp_path)], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout.splitlines()[-1])


def test_the_window_and_padding_regressions_are_in_paths_only_v3s_shapes_reach(tmp_path):
    before = library_zoo.installed_digest()
    clean = probe(tmp_path)
    for patch in library_zoo.PATH_PATCHES:
        patched = probe(tmp_path, library_zoo.overlay(patch, tmp_path / "overlay"))
        assert patched["v2"] == clean["v2"], f"{patch.name} ran at v2's shapes"
        assert patched["v3"] != clean["v3"], f"{patch.name} did not run at v3's shapes"
    assert library_zoo.installed_digest() == before, "the installed package was written"
