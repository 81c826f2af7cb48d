"""Quiet regressions of the team's libraries (tests/library_zoo.py), each patched into a copy of
the installed marin-levanter first on the workload's PYTHONPATH, are caught by the grug ferry's
cpu lane at twice their band or more, and placed; clean variants the golden was not recorded with
raise no alarm. The installed package is hashed before and after each run: it is never written.

Each trains the lane's full 160 steps against the committed golden
(gates/grug-moe-canary.cpu.golden.json, which bands the model's statistics)."""

import json
import os

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


@pytest.mark.parametrize("patch", library_zoo.PATCHES, ids=[p.name for p in library_zoo.PATCHES])
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
