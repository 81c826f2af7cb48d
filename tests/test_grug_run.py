"""`canary run cpu --ferry grug-moe-canary`: levanter's grug MoE over the installed haliax trained
end to end on the cpu lane and judged against its golden; its record carries the stack's versions."""

import importlib.metadata
import json

import pytest


@pytest.mark.slow  # trains the grug ferry's 160 cpu steps in a subprocess (tens of seconds on 2 cores)
def test_grug_ferry_trains_on_the_cpu_lane_and_passes_its_golden(cli, tmp_path):
    r = cli("run", "cpu", "--ferry", "grug-moe-canary", "--cold", "--no-history", "--out", str(tmp_path), "--json")
    out = json.loads(r.stdout)
    gates = {g["name"]: g for g in out["gates"]}
    assert out["ferry"] == "grug-moe-canary" and out["steps_completed"] == 160, r.stderr[-2000:]
    assert {"min_steps", "max_final_loss", "finite_loss", "loss_curve", "final_loss_golden"} <= set(gates)
    # the curve is the golden's: a quiet regression in the library would move it
    assert gates["loss_curve"]["status"] == "PASS" and gates["final_loss_golden"]["status"] == "PASS", gates
    assert out["final_loss"] < 4.0
    assert out["summary"]["kernels/ragged_dot"] == "xla"  # haliax's own choice on a CPU
    for dist in ("marin-levanter", "marin-haliax"):
        assert out["versions"][dist] == importlib.metadata.version(dist)
    # a speed gate may WARN on a busy machine; a quiet one passes
    assert r.returncode in (0, 1) and (r.returncode == 0) == (out["verdict"] == "pass")
