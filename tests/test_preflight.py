"""`canary lower` recorded like a run: a run directory, a series of its own in the history, a
classified and fingerprinted failure, and notified through the one-issue-per-fingerprint machinery
(end to end against the local GitHub server). The failing preflight is moe-canary's static tiling
on the tpu lane, which fails at its lowering with or without libtpu."""

import json
from pathlib import Path

import pytest
from github_server import REPO, TOKEN, cli_env, github  # noqa: F401 (fixtures)

from canary.judge.results import GateResult
from canary.run.preflight import recorded_footprint
from canary.run.reproducer import compile_reproduced, compile_script, reproduced, script
from canary.run.topology import GIB, memory_gate


def _lower(cli, tmp_path, *args, server=None):
    env = cli_env(server, tmp_path)
    return cli("lower", "--lane", "tpu", "--no-parity", "--out", str(tmp_path / "runs"), *args, env=env)


def test_a_failing_preflight_opens_one_issue_a_second_comments_and_a_pass_says_recovered(cli, tmp_path, github):
    notify = ("--notify", "github", "--repo", REPO, "--no-bisect")
    r = _lower(cli, tmp_path, "--tiling", "static", "--json", *notify, server=github)
    assert r.returncode == 1, r.stdout + r.stderr
    out = json.loads(r.stdout)
    [run] = out["runs"]
    assert run["verdict"] == "fail" and run["history"]["status"] == "stored"
    record = json.loads((Path(run["run_dir"]) / "result.json").read_text())
    # its own series, classified and fingerprinted as a lowering failure of its own
    assert (record["lane"], record["ferry"]) == ("tpu", "moe-canary:preflight")
    assert record["classification"] == "unconfirmed"
    sig = record["signature"]
    assert sig["kind"] == "compile_error" and sig["exception"] == "ValueError"
    assert "grad-lhs of the down projection" in sig["message"] and sig["frames"] == ["megablox/gmm", "grad-lhs"]
    assert [g["name"] for g in record["gates"]] == ["lowering/tpu"] and record["gates"][0]["status"] == "FAIL"
    assert (Path(run["run_dir"]) / "lower.json").is_file() and "block shape" in (
        Path(run["run_dir"]) / "lower.log"
    ).read_text()
    # a reproducer of plain JAX and megablox's own call, run before it is trusted
    repro = record["context"]["repro"]
    assert run["repro"] == {k: v for k, v in repro.items() if k != "script"}
    script = (Path(run["run_dir"]) / "repro.py").read_text()
    assert repro["reproduced"] is True, repro
    assert "block [512, 32] on [524288, 128]" in repro["detail"]
    assert len(script.splitlines()) <= 40 and "pip install jax==" in script and "transpose_rhs=True" in script
    [issue] = github.state.issues()
    assert issue["title"].startswith("[canary-tpu]")
    assert f"canary:fingerprint={sig['fingerprint']}" in issue["body"]
    assert "<details><summary>repro.py: reproduced" in issue["body"] and "```python" in issue["body"]
    assert "canary lower --lane tpu" in issue["body"]

    # the same failure again, recorded, then notified from its run directory: a comment
    r = _lower(cli, tmp_path, "--tiling", "static", "--json")
    assert r.returncode == 1
    [again] = json.loads(r.stdout)["runs"]
    assert again["fingerprint"] == sig["fingerprint"]
    env = cli_env(github, tmp_path)
    n = cli("notify", again["run_dir"], "--repo", REPO, "--no-bisect", env=env)
    assert n.returncode == 0, n.stdout + n.stderr
    assert [i["number"] for i in github.state.issues()] == [issue["number"]]
    assert len(github.state.comments(issue["number"])) == 1
    assert "repro.py" not in github.state.comments(issue["number"])[0]["body"]  # a new issue's alone

    # a passing preflight: recovered
    r = _lower(cli, tmp_path, *notify, server=github)
    assert r.returncode == 0, r.stdout + r.stderr
    assert "series tpu/moe-canary:preflight" in r.stdout and "repro.py" not in r.stdout
    comments = github.state.comments(issue["number"])
    assert len(comments) == 2 and "Recovered" in comments[-1]["body"]

    # a series of its own: the lane's training series holds none of it
    h = cli("history", "--lane", "tpu", "--json", env=env)
    assert h.returncode == 0, h.stdout + h.stderr
    [series] = json.loads(h.stdout)["series"]
    assert (series["series"], series["runs"], series["strip"]) == ("tpu/moe-canary:preflight", 3, "FFP")


def test_no_history_records_nothing_but_still_writes_the_run_directory(cli, tmp_path):
    r = _lower(cli, tmp_path, "--tiling", "static", "--no-history", "--json")
    assert r.returncode == 1
    [run] = json.loads(r.stdout)["runs"]
    assert run["history"] is None and (Path(run["run_dir"]) / "result.json").is_file()
    assert not (tmp_path / "history.sqlite3").exists()


def preflight(n: int, ferry: str, gib: float, verdict: str = "pass"):
    from canary.record import RunRecord

    return RunRecord(
        run_id=f"202612{n:02d}T060000Z-tpu-preflight-{n:04d}",
        lane="tpu",
        ferry=ferry,
        ferry_version=2,
        verdict=verdict,
        steps_completed=None,
        final_loss=None,
        gates=[],
        run_dir="",
        started_at=f"2026-12-{n:02d}T06:00:00.000+00:00",
        summary={"memory/compiled_bytes": int(gib * GIB)},
    )


def _compiled(total_gib: float) -> dict:
    return {"ok": True, "memory": {"total": int(total_gib * GIB)}, "hbm_bytes": 32 * GIB}


def test_the_memory_gate_on_the_compiled_footprint():
    assert memory_gate(None).status == "SKIP"
    assert memory_gate({"ok": False, "error": "RESOURCE_EXHAUSTED"}).status == "SKIP"
    assert memory_gate(_compiled(13)).status == "PASS"
    assert memory_gate(_compiled(30)).status == "WARN"  # near the chip's 32 GiB
    g = memory_gate(_compiled(33))
    assert (g.status, g.threshold) == ("FAIL", 32 * GIB)
    drifted = memory_gate(_compiled(15), recorded=13 * GIB)
    assert drifted.status == "WARN" and "+15.4% from the recorded 13.00 GiB" in drifted.detail
    assert memory_gate(_compiled(13.5), recorded=13 * GIB).status == "PASS"
    assert isinstance(g, GateResult)
    assert recorded_footprint(None, "tpu", "moe-canary") is None


def test_the_reproducer_names_its_packages_and_the_failing_call():
    failure = {
        "gmm": "grad-lhs",
        "projection": "down",
        "dims": [524288, 2048, 768],
        "block_shape": [512, 32],
        "array_shape": [524288, 768],
    }
    text = script(failure, experts=64, dtype="bfloat16", library="haliax", versions={"marin-haliax": "0.2.20"})
    assert "pip install marin-haliax==0.2.20" in text and "from haliax.nn.ragged_dot import ragged_dot" in text
    assert "M, K, N, E = 524288, 2048, 768, 64" in text and "implementation='megablox'), a)[1](c)[0]" in text
    compile(text, "repro.py", "exec")
    assert reproduced(failure, 0, "lowered")[0] is False
    same = (
        "Block spec for outputs in pallas_call kernel at gmm.py:393 has block shape (512, 32), "
        "array shape (524288, 768)"
    )
    assert reproduced(failure, 1, same)[0] is True
    assert reproduced(failure, 1, same.replace("768)", "128)"))[0] is False


def test_a_compile_failures_reproducer_compiles_the_train_step_on_the_topology():
    error = (
        "XlaRuntimeError: RESOURCE_EXHAUSTED: XLA:TPU compile permanent error. Ran out of memory in memory "
        "space hbm. Used 224.39G of 31.25G hbm. Exceeded hbm capacity by 193.14G."
    )
    versions = {"jax": "0.10.2", "jaxlib": "0.10.2", "libtpu": "0.0.42.1", "canary": "0.1.0"}
    text = compile_script(
        ferry="moe-canary",
        lane="tpu",
        lanes_file=None,
        topology="v6e:2x2",
        env={"TPU_SKIP_MDS_QUERY": "1"},
        error=error,
        versions=versions,
    )
    assert "pip install jax==0.10.2 jaxlib==0.10.2 libtpu==0.0.42.1\n" in text
    assert "canary 0.1.0, from a checkout at HEAD" in text
    assert "topology_name='v6e:2x2'" in text and "lowered.compile()" in text and "Used 224.39G" in text
    assert len(text.splitlines()) <= 40
    compile(text, "repro.py", "exec")
    assert compile_reproduced(error, 0, "compiled for TPU: not reproduced")[0] is False
    assert compile_reproduced(error, 1, error.replace("224.39G", "224.40G"))[0] is True  # numbers aside
    assert compile_reproduced(error, 1, "ValueError: Mosaic failed to compile")[0] is False


@pytest.mark.slow  # lowers the grug ferry (imports levanter; about 15 s with the reproducer)
def test_the_incident_on_the_installed_haliax_writes_a_reproducer_that_reproduces(cli, tmp_path):
    import importlib.metadata

    from tests.test_grug_lower import _static_tile_in_installed_haliax

    if not _static_tile_in_installed_haliax():
        pytest.skip("the installed haliax has the fixed tiling: no incident to reproduce")
    r = _lower(cli, tmp_path, "--ferry", "grug-moe-canary", "--no-history", "--json")
    assert r.returncode == 1, r.stdout + r.stderr
    [run] = json.loads(r.stdout)["runs"]
    record = json.loads((Path(run["run_dir"]) / "result.json").read_text())
    assert record["ferry"] == "grug-moe-canary:preflight" and record["failing_distribution"] == "marin-haliax"
    assert record["signature"]["frames"][-1].endswith(" _ragged_dot_megablox_impl")
    repro = record["context"]["repro"]
    assert repro["reproduced"] is True, repro
    script_text = (Path(run["run_dir"]) / "repro.py").read_text()
    assert f"marin-haliax=={importlib.metadata.version('marin-haliax')}" in script_text
    assert "from haliax.nn.ragged_dot import ragged_dot" in script_text and len(script_text.splitlines()) <= 40


@pytest.mark.slow  # runs haliax's megablox in interpret mode twice in a child (about 20 s)
def test_a_parity_reproducer_finds_the_mismatch_in_a_patched_haliax_and_none_in_the_installed(tmp_path, monkeypatch):
    import os

    from canary.run import parity
    from canary.run.reproducer import parity_reproduced, parity_script, run_script
    from tests.conftest import ROOT
    from tests.test_tpu_lane import misrouted_haliax

    row = {"shape": "cpu lane", "projection": "down", "rows": 512, "K": 128, "N": 256, "experts": 32}
    row |= {"dtype": "float32", "tolerance": 1e-4, "gradient": "forward"}
    sizes = [int(x) for x in parity._inputs(row)[2]]
    text = parity_script(row, sizes, "haliax.nn.ragged_dot (megablox)", {"marin-haliax": "0.2.20"})
    assert len(text.splitlines()) <= 40 and "pip install marin-haliax==0.2.20" in text
    installed = run_script(tmp_path, text, parity_reproduced)
    assert installed["reproduced"] is False and "matched XLA" in installed["detail"], installed
    overlay = misrouted_haliax(tmp_path)
    monkeypatch.setenv("PYTHONPATH", f"{overlay}{os.pathsep}{ROOT}")
    patched = run_script(tmp_path, text, parity_reproduced)
    assert patched["reproduced"] is True and "forward: error" in patched["detail"], patched


@pytest.mark.parametrize("dtype", ["float32", "bfloat16"])
def test_a_parity_reproducer_builds_the_checks_own_inputs(dtype):
    import numpy as np

    from canary.run import parity
    from canary.run.reproducer import parity_script

    row = {"shape": "tpu lane", "projection": "down", "rows": 1024, "K": 128, "N": 32, "experts": 32}
    row |= {"dtype": dtype, "tolerance": 2**-6, "gradient": "grad-rhs"}
    lhs, rhs, sizes, cot = parity._inputs(row)
    text = parity_script(row, [int(x) for x in sizes], "haliax.nn.ragged_dot (megablox)", {})
    made: dict = {}
    exec(text[: text.index("\n\n\ndef three")].replace("from haliax.nn.ragged_dot import ragged_dot", ""), made)
    for name, want in (("lhs", lhs), ("rhs", rhs), ("cot", cot), ("sizes", sizes)):
        assert np.array_equal(np.asarray(made[name]), want), name


def test_the_memory_gate_drifts_against_the_series_last_recorded_footprint(tmp_path):
    from canary.history import open_store

    store = open_store(str(tmp_path / "history.sqlite3"))

    assert recorded_footprint(store, "tpu", "moe-canary") is None
    store.append(preflight(1, "moe-canary:preflight", 12))
    store.append(preflight(2, "moe-canary:preflight", 13))
    store.append(preflight(3, "moe-canary:preflight", 20, verdict="fail"))  # not a pass: not the reference
    store.append(preflight(4, "moe-canary", 30))  # the training series: never the preflight's reference
    assert recorded_footprint(store, "tpu", "moe-canary") == 13 * GIB
    assert memory_gate(_compiled(15), recorded_footprint(store, "tpu", "moe-canary")).status == "WARN"


def test_history_changes_sees_the_compiled_footprint_step():
    from canary.history.changes import changes

    records = [preflight(n, "moe-canary:preflight", 12 if n <= 12 else 14) for n in range(1, 25)]
    [step] = changes(records, lane="tpu", metrics=["compiled_memory"])
    assert (step.metric, step.ferry, step.run_id) == ("compiled_memory", "moe-canary:preflight", records[12].run_id)
    assert step.change > 0
