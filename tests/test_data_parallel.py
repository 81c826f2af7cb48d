"""The data-parallel train step on 4 forced host devices gives the single-device losses."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Every loss is a token mean, so the 4-way mean of per-device losses and gradients equals the
# full batch's up to float32 summation order: measured 1e-7 relative over 4 Adam steps.
LOSS_RTOL = 1e-5
# The statistics are formed from the global batch's token means: float error too (4-way means of
# per-device load balances and entropies were 19% and 8% off on the cpu lane's batch).
STATS_RTOL = 1e-4

_COMPARE = r"""
import json, sys
import jax, numpy as np
from canary.config import load_ferry, get_lane
from canary.formats.spec import build_spec
from canary.workload import parallel
from canary.workload.train import make_train_step, make_corpus

ferry, _ = load_ferry("moe-canary")
spec = build_spec(ferry, get_lane("cpu"), run_id="dp", out_dir=sys.argv[1], steps=4)
spec = spec.model_copy(update={"batch_size": 8, "seq_len": 32})
corpus = make_corpus(spec)
curves = {}
for name, mesh in (("one", None), ("four", parallel.device_mesh())):
    ts = make_train_step(spec, mesh=mesh)
    params, opt = parallel.replicate(ts.init(jax.random.PRNGKey(0)), mesh)
    losses, stats = [], {}
    for i in range(spec.steps):
        batch = parallel.shard_batch(corpus.batch(i, spec.batch_size, spec.seq_len + 1), mesh)
        params, opt, m = ts.step(params, opt, ts.bias, batch)
        losses.append(float(m["train/loss"]))
        for k, v in m.items():
            if k.startswith(("stats/", "train/router/", "optim/")):
                stats.setdefault(k, []).append(float(v))
    curves[name], curves[name + "_stats"] = losses, stats
    if mesh is not None:
        curves["batch_devices"] = len(batch.sharding.device_set)
        curves["param_replicated"] = all(s.is_fully_replicated for s in
                                         [x.sharding for x in jax.tree_util.tree_leaves(params)])
print(json.dumps({"devices": jax.device_count(), **curves}))
"""


_GRADS = r"""
import json, sys
import jax, numpy as np, optax
from canary.config import load_ferry, get_lane
from canary.formats.spec import build_spec
from canary.workload import parallel
from canary.workload import ragged_dot as backends
from canary.workload.model import loss_fn
from canary.workload.train import make_train_step, make_corpus

ferry, _ = load_ferry("moe-canary")
spec = build_spec(ferry, get_lane("cpu"), run_id="dp", out_dir=sys.argv[1], steps=1)
spec = spec.model_copy(update={"batch_size": 8, "seq_len": 32})
ts, t = make_train_step(spec), spec.ferry.trainer
kernel = backends.make(spec.ragged_dot, spec.platform, tiling=spec.tiling)
def grads_of(params, bias, batch):
    return jax.value_and_grad(loss_fn, has_aux=True)(
        params, batch, bias, ts.cfg, kernel, t.lm_head_z_loss, t.router_z_loss)
params, _ = ts.init(jax.random.PRNGKey(0))
batch = make_corpus(spec).batch(0, spec.batch_size, spec.seq_len + 1)
out = {}
for name, mesh, check_vma in (("one", None, False), ("four", parallel.device_mesh(), False),
                              ("four_check_vma", parallel.device_mesh(), True)):
    f = jax.jit(parallel.data_parallel(grads_of, mesh, check_vma=check_vma))
    (loss, _), g = f(parallel.replicate(params, mesh), ts.bias, parallel.shard_batch(batch, mesh))
    out[name] = {"loss": float(loss), "norm": float(optax.global_norm(g)),
                 "leaves": [np.asarray(x, np.float64).ravel().tolist() for x in jax.tree_util.tree_leaves(g)]}
print(json.dumps({"devices": jax.device_count(), **out}))
"""


@pytest.mark.slow
def test_four_devices_give_the_single_device_gradient(tmp_path):
    """One global batch's gradient is the same on 1 device and split over 4, with or without
    shard_map's varying-axis check: a mean over the devices, not their sum (a 4x norm would bind
    the ferry's gradient clipping where one device's does not)."""
    import numpy as np

    r = subprocess.run(
        [sys.executable, "-c", _GRADS, str(tmp_path)], env=_env(4), capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr[-4000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["devices"] == 4
    one = out["one"]
    for name in ("four", "four_check_vma"):
        four = out[name]
        assert four["loss"] == pytest.approx(one["loss"], rel=LOSS_RTOL), name
        assert four["norm"] == pytest.approx(one["norm"], rel=LOSS_RTOL), (name, four["norm"], one["norm"])
        for a, b in zip(one["leaves"], four["leaves"], strict=True):
            a, b = np.array(a), np.array(b)
            assert np.linalg.norm(b - a) <= LOSS_RTOL * np.linalg.norm(a), name


def _env(devices: int) -> dict:
    return {
        **os.environ,
        "PYTHONPATH": str(ROOT),
        "JAX_PLATFORMS": "cpu",
        "XLA_FLAGS": f"--xla_force_host_platform_device_count={devices}",
    }


@pytest.mark.slow
def test_four_devices_give_the_single_device_losses_and_statistics(tmp_path):
    """The same losses, and the same statistics of the model: each expert's load balance and
    usage entropy over the global batch, not the mean of four quarter batches'."""
    r = subprocess.run(
        [sys.executable, "-c", _COMPARE, str(tmp_path)], env=_env(4), capture_output=True, text=True, timeout=600
    )
    assert r.returncode == 0, r.stderr[-4000:]
    out = json.loads(r.stdout.strip().splitlines()[-1])
    assert out["devices"] == 4 and out["batch_devices"] == 4 and out["param_replicated"]
    one, four = out["one"], out["four"]
    assert len(one) == len(four) == 4
    for a, b in zip(one, four, strict=True):
        assert abs(a - b) <= LOSS_RTOL * abs(a), (one, four)
    assert four[-1] < four[0]  # and it trains
    stats_one, stats_four = out["one_stats"], out["four_stats"]
    assert sum(k.endswith("/load_balance") for k in stats_one) == 4 and set(stats_one) == set(stats_four)
    for k, values in stats_one.items():
        assert stats_four[k] == pytest.approx(values, rel=STATS_RTOL), (k, values, stats_four[k])


def test_batch_must_divide_over_the_devices():
    from canary.workload.parallel import check_divisible

    check_divisible(8, 4)
    with pytest.raises(ValueError, match=r"batch_size 6 does not divide over 4 devices.*multiple of 4"):
        check_divisible(6, 4)


def test_multi_host_start_reads_the_launchers_environment():
    from canary.workload.parallel import distributed_args

    assert distributed_args({}) == {}
    env = {"CANARY_COORDINATOR_ADDRESS": "10.0.0.2:8476", "CANARY_NUM_PROCESSES": "2", "CANARY_PROCESS_ID": "1"}
    assert distributed_args(env) == {"coordinator_address": "10.0.0.2:8476", "num_processes": 2, "process_id": 1}
    with pytest.raises(ValueError, match="CANARY_PROCESS_ID missing"):
        distributed_args({k: v for k, v in env.items() if k != "CANARY_PROCESS_ID"})


@pytest.mark.slow
def test_canary_run_uses_every_device_and_says_so(cli, tmp_path):
    gates = tmp_path / "gates.toml"
    gates.write_text("[lanes.cpu]\nmin_steps = 200\nmax_final_loss = 10.0\n")
    r = cli(
        "run",
        "cpu",
        "--steps",
        "3",
        "--gates",
        str(gates),
        "--out",
        str(tmp_path),
        "--json",
        env={"XLA_FLAGS": "--xla_force_host_platform_device_count=4"},
    )
    assert r.returncode == 0, r.stdout + r.stderr
    result = json.loads(r.stdout)
    assert result["verdict"] == "pass"
    log = (Path(result["run_dir"]) / "train.log").read_text()
    assert "data-parallel over 4 device(s) (the lane has 1)" in log
    tracker = json.loads((Path(result["run_dir"]) / "tracker_metrics.jsonl").read_text())
    assert tracker["summary"]["devices"] == 4


def _spec_file(tmp_path: Path, name: str, hosts: int) -> Path:
    from canary.config import get_lane, load_ferry
    from canary.formats.spec import build_spec

    ferry, _ = load_ferry("moe-canary")
    out = tmp_path / name
    out.mkdir()
    spec = build_spec(ferry, get_lane("cpu"), run_id=name, out_dir=out, steps=3).model_copy(update={"hosts": hosts})
    return spec.write(out / "spec.json")


def _final_loss(out: Path) -> float:
    return json.loads((out / "tracker_metrics.jsonl").read_text())["summary"]["train/loss"]


@pytest.mark.slow
def test_two_hosts_start_jax_distributed_from_the_launchers_environment(tmp_path):
    """Two workload processes (2 CPU devices each) join through CANARY_COORDINATOR_ADDRESS & co.
    into one 4-device mesh; only process 0 writes; the losses are one device's."""
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    two = _spec_file(tmp_path, "two-hosts", hosts=2)
    procs = [
        subprocess.Popen(
            [sys.executable, "-m", "canary.workload.train", str(two)],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={
                **_env(2),
                "CANARY_COORDINATOR_ADDRESS": f"127.0.0.1:{port}",
                "CANARY_NUM_PROCESSES": "2",
                "CANARY_PROCESS_ID": str(i),
            },
        )
        for i in range(2)
    ]
    one = _spec_file(tmp_path, "one-device", hosts=1)
    single = subprocess.run(
        [sys.executable, "-m", "canary.workload.train", str(one)],
        env=_env(1),
        capture_output=True,
        text=True,
        timeout=600,
    )
    logs = [p.communicate(timeout=600)[0] for p in procs]
    assert [p.returncode for p in procs] == [0, 0], "\n".join(x[-3000:] for x in logs)
    assert single.returncode == 0, single.stderr[-3000:]
    assert all("data-parallel over 4 device(s)" in x for x in logs)
    assert len((two.parent / "metrics.jsonl").read_text().splitlines()) == 3  # process 0 alone
    assert _final_loss(two.parent) == pytest.approx(_final_loss(one.parent), rel=LOSS_RTOL)
