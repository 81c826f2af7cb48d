"""`canary golden diff` and the golden's place in the gates file, in process (no training)."""

import json
import subprocess

import pytest
from click.testing import CliRunner
from test_golden import recording

from canary.cli import cli
from canary.config import load_gates
from canary.errors import ConfigError
from canary.golden import model as golden_model
from canary.golden import store

GATES = """ferry = "moe-canary"
[lanes.cpu]
min_steps = 100
max_final_loss = 6.0
golden = "moe-canary.cpu.golden.json"
"""


@pytest.fixture
def repo(tmp_path):
    """A git checkout holding a gates file and its committed golden."""
    (tmp_path / "gates").mkdir()
    (tmp_path / "gates" / "g.toml").write_text(GATES)
    store.write(recording(), tmp_path / "gates" / "moe-canary.cpu.golden.json")
    for args in (
        ["init", "-q"],
        ["add", "."],
        ["-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "golden"],
    ):
        subprocess.run(["git", *args], cwd=tmp_path, check=True)
    return tmp_path


def invoke(*args):
    return CliRunner().invoke(cli, list(args))


def test_diff_against_the_committed_golden(repo):
    path = repo / "gates" / "moe-canary.cpu.golden.json"
    r = invoke("golden", "diff", "cpu", "--gates", str(repo / "gates" / "g.toml"))
    assert r.exit_code == 0, r.output
    assert "(working) is unchanged from moe-canary.cpu.golden.json@HEAD" in " ".join(r.output.split())

    g = recording()
    moved = golden_model.Golden(
        **{
            **g.__dict__,
            "windows": [
                golden_model.Window(w.first, w.last, w.mean * (1.03 if w.first == 40 else 1.0)) for w in g.windows
            ],
        }
    )
    store.write(moved, path)
    r = invoke("golden", "diff", "cpu", "--gates", str(repo / "gates" / "g.toml"), "--json")
    assert r.exit_code == 1, r.output
    out = json.loads(r.output)
    changed = [row for row in out["rows"] if row["status"] != "same"]
    assert [row["what"] for row in changed] == ["loss steps 40-59"] and out["outside"] == 1
    assert changed[0]["change"] == pytest.approx(0.03, rel=1e-3)


def test_diff_against_another_golden_file(repo, tmp_path):
    other = tmp_path / "new.golden.json"
    store.write(recording(), other)
    r = invoke("golden", "diff", "cpu", str(other), "--gates", str(repo / "gates" / "g.toml"), "--all")
    assert r.exit_code == 0, r.output
    assert "loss steps 80-99" in r.output and "same" in r.output


def test_the_gates_file_names_the_golden_and_load_golden_reads_it(repo):
    g = store.load_golden("moe-canary", "cpu", str(repo / "gates" / "g.toml"))
    assert g.lane == "cpu" and len(g.windows) == 5 and g.tolerance["loss_curve"].rtol > 0
    gates, _ = load_gates(str(repo / "gates" / "g.toml"))
    assert gates.lane("cpu").loss_curve == "FAIL" and gates.lane("cpu").compile_seconds == "WARN"


def test_a_bad_severity_or_a_missing_golden_is_bad_input(repo):
    bad = repo / "gates" / "bad.toml"
    bad.write_text(GATES + 'throughput = "LOUD"\n')
    with pytest.raises(ConfigError, match="throughput"):
        load_gates(str(bad))
    missing = repo / "gates" / "missing.toml"
    missing.write_text(GATES.replace("moe-canary.cpu.golden.json", "nope.golden.json"))
    with pytest.raises(ConfigError, match="cannot read the golden"):
        store.load_golden("moe-canary", "cpu", str(missing))
    r = invoke("golden", "diff", "cpu", "--gates", str(missing))
    assert r.exit_code == 2 and "nope.golden.json" in r.output


def test_the_committed_cpu_golden_is_current():
    """The cpu lane's default gates name a golden that exists, for this ferry version and lane."""
    from canary.config import load_ferry

    g = store.load_golden("moe-canary", "cpu")
    ferry, _ = load_ferry("moe-canary")
    assert g is not None and (g.ferry, g.ferry_version, g.lane) == (ferry.name, ferry.version, "cpu")
    assert g.steps == ferry.lanes["cpu"].steps and g.window == 20 and len(g.windows) == g.steps // 20
    for name, tol in g.tolerance.items():
        assert tol.rtol >= tol.floor and tol.factor == 1.5, name
    assert golden_model.dumps(g) == (store.lane_golden_path("moe-canary", "cpu")).read_text()  # as written


def _fake_run(d, variant_scale, tps):
    """A recording's run directory as the runner leaves it: result.json, metrics.jsonl, summary."""
    d.mkdir(parents=True)
    steps = [
        {"global_step": i, "train/loss": loss * variant_scale, "optim/grad_norm": loss * variant_scale / 2}
        for i, loss in ((i, 1.0 + 5.0 * 0.98**i) for i in range(200))
    ]
    (d / "metrics.jsonl").write_text("\n".join(json.dumps(s) for s in steps) + "\n")
    summary = {
        "_step": 199,
        "train/loss": steps[-1]["train/loss"],
        "throughput/tokens_per_second": tps,
        "throughput/best_tokens_per_second": tps * 1.2,
        "throughput/median_step_seconds": 1024 / tps,
        "throughput/median_step_cpu_seconds": 2048 / tps,
        "compile/seconds": 5.0,
        "memory/peak_bytes": 5e8,
        "host/cpus": 2,
        "kernels/ragged_dot": "grouped",
        "devices": 1,
    }
    (d / "tracker_metrics.jsonl").write_text(json.dumps({"config": {}, "summary": summary}) + "\n")
    (d / "result.json").write_text(json.dumps({"run_id": d.name, "verdict": "pass"}))


def test_record_from_a_former_recording_derives_the_tolerances(tmp_path):
    rec = tmp_path / "golden-cpu-x"
    _fake_run(rec / "01-base", 1.0, 1000.0)
    _fake_run(rec / "02-base", 1.0, 1100.0)
    _fake_run(rec / "03-devices-4", 1.002, 500.0)
    _fake_run(rec / "04-isa-AVX2", 0.998, 900.0)
    out = tmp_path / "g.golden.json"
    r = invoke("golden", "record", "cpu", "--from", str(rec), "--output", str(out), "--json")
    assert r.exit_code == 0, r.output
    g = store.read(out)
    assert g.recorded["runs"] == ["base", "base", "devices=4", "isa=AVX2"] and len(g.windows) == 10
    # the centre is the median of the three distinct curves (the base's); each moved 0.2% from it
    assert g.windows[0].mean == pytest.approx(sum(1.0 + 5.0 * 0.98**i for i in range(20)) / 20, rel=1e-5)
    assert g.tolerance["loss_curve"].observed == pytest.approx(0.002, rel=1e-3)
    assert g.tolerance["loss_curve"].rtol == pytest.approx(0.003, rel=1e-3)
    assert [w.rtol for w in g.windows] == [pytest.approx(0.003, rel=1e-3)] * 10
    assert g.perf["tokens_per_second"] == 1050.0  # the base runs' median; the variant's speed is not the lane's
    assert g.perf["config"] == {"kernels/ragged_dot": "grouped", "devices": 1}
    # the statistics the runs logged are banded the same way (their own floor, 0.2%, does not bind)
    assert [w.rtol for w in g.stats["optim/grad_norm"]] == [pytest.approx(0.003, rel=1e-3)] * 10

    (rec / "02-base" / "result.json").write_text(json.dumps({"run_id": "02-base", "verdict": "fail", "error": "boom"}))
    r = invoke("golden", "record", "cpu", "--from", str(rec), "--output", str(out))
    assert r.exit_code == 1 and "healthy runs only" in r.output


@pytest.mark.slow
def test_repro_both_trains_cold_then_warm_and_compares(tmp_path):
    from conftest import run_cli

    r = run_cli(
        "repro",
        "cpu",
        "--both",
        "--steps",
        "5",
        "--cache-dir",
        str(tmp_path / "cache"),
        "--out",
        str(tmp_path / "runs"),
        "--json",
    )
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout)
    assert out["verdict"] == "pass" and "cold, then warm" in out["message"]
    assert [g["name"] for g in out["gates"]] == ["min_steps", "finite_loss", "cache_consistency"]


def test_a_copied_gates_file_falls_back_to_the_pinned_golden_and_says_so(tmp_path):
    """Copy gates/moe-canary.toml elsewhere and lower a threshold: its golden, named relative to
    the copy, is not there, so the pinned golden of the same ferry, version and lane is used, with
    a note naming it; for another ferry version the error says how to point at a golden."""
    from canary.config import load_ferry, project_root

    ferry, _ = load_ferry("moe-canary")
    copy = tmp_path / "mine" / "moe-canary.toml"
    copy.parent.mkdir()
    copy.write_text(
        (project_root() / "gates" / "moe-canary.toml")
        .read_text()
        .replace("max_final_loss = 4.0", "max_final_loss = 3.0")
    )
    g = store.load_golden("moe-canary", "cpu", str(copy), ferry.version)
    pinned = project_root() / "gates" / "moe-canary.cpu.golden.json"
    assert g is not None and g.path == str(pinned) and g.ferry_version == ferry.version
    assert str(copy.parent / "moe-canary.cpu.golden.json") in g.note and str(pinned) in g.note
    with pytest.raises(ConfigError, match=r"is for moe-canary v\d+ on cpu, not moe-canary v999 on cpu.*absolute path"):
        store.load_golden("moe-canary", "cpu", str(copy), 999)
    assert store.load_golden("moe-canary", "cpu").note == ""  # the pinned gates' own golden: nothing to say


def test_golden_diff_of_a_copied_gates_file_compares_the_pinned_golden_and_says_so(tmp_path):
    from canary.config import project_root

    copy = tmp_path / "mine" / "moe-canary.toml"
    copy.parent.mkdir()
    copy.write_text((project_root() / "gates" / "moe-canary.toml").read_text())
    pinned = project_root() / "gates" / "moe-canary.cpu.golden.json"
    r = invoke("golden", "diff", "cpu", str(pinned), "--gates", str(copy), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    assert out["unchanged"] and out["old"] == pinned.name
    assert str(copy.parent / "moe-canary.cpu.golden.json") in out["note"] and str(pinned) in out["note"]
    r = invoke("golden", "diff", "cpu", str(pinned), "--gates", str(copy))
    assert r.exit_code == 0 and "pinned golden of moe-canary on cpu" in " ".join(r.output.split()), r.output
    r = invoke("golden", "diff", "cpu", str(pinned), "--json")
    assert "note" not in json.loads(r.output)  # the pinned gates' own golden: nothing to say
