"""Gates and metric parsing: pure functions, no training."""

import json
import math

import pytest
from conftest import ROOT

from canary.config import LaneGates
from canary.formats.metrics import RunMetrics, parse_step_metrics, parse_tracker_summary
from canary.judge import gates
from canary.judge import results as gate_results

TPU = LaneGates(min_steps=200, max_final_loss=8.0)


def _by_name(results):
    return {r.name: r for r in results}


def test_field_notes_fixed_run_passes_tpu_gates():
    # 238 steps shown; levanter's summary records _step 237; final loss 5.7976.
    text = json.dumps({"config": {}, "summary": {"_step": 237, "train/loss": 5.7976, "global_step": 237}})
    m = parse_tracker_summary(text)
    assert m.steps_completed == 238 and m.final_loss == pytest.approx(5.7976)
    results = gates.evaluate(TPU, m)
    assert gate_results.verdict(results) == "pass"
    assert _by_name(results)["finite_loss"].value == "final only"


def test_nested_levanter_keys_are_read():
    text = json.dumps({"config": {}, "summary": {"_step": 99, "train": {"loss": 3.5}}})
    m = parse_tracker_summary(text)
    assert (m.steps_completed, m.final_loss) == (100, 3.5)


def test_missing_loss_fails_and_says_so():
    m = parse_tracker_summary(json.dumps({"summary": {"_step": 237}}))
    r = _by_name(gates.evaluate(TPU, m))
    assert r["max_final_loss"].status == "FAIL" and "missing" in r["max_final_loss"].detail
    assert gate_results.verdict(list(r.values())) == "fail"


def test_missing_steps_fail():
    r = _by_name(gates.evaluate(TPU, RunMetrics(None, 1.0, None)))
    assert r["min_steps"].status == "FAIL" and "no step metric" in r["min_steps"].detail


def test_nan_fails_on_purpose_and_first_bad_step_is_named():
    lines = [{"global_step": i, "train/loss": v} for i, v in enumerate([5.0, 4.0, "NaN", 3.0, "Infinity"])]
    m = parse_step_metrics("\n".join(json.dumps(x) for x in lines))
    r = _by_name(gates.evaluate(LaneGates(min_steps=5, max_final_loss=8.0), m))
    assert r["finite_loss"].status == "FAIL" and "step 2" in r["finite_loss"].detail
    assert r["max_final_loss"].status == "FAIL"  # final is inf
    m2 = parse_tracker_summary(json.dumps({"summary": {"_step": 9, "train/loss": "nan"}}))
    r2 = _by_name(gates.evaluate(TPU, m2))
    assert r2["max_final_loss"].status == "FAIL" and math.isnan(r2["max_final_loss"].value)


def test_steps_and_loss_thresholds():
    m = RunMetrics(199, 8.0, [(i, 8.0) for i in range(199)])
    r = _by_name(gates.evaluate(TPU, m))
    assert r["min_steps"].status == "FAIL" and r["max_final_loss"].status == "PASS"  # 8.0 <= 8.0


def test_quick_run_lowers_the_step_threshold_and_says_so():
    r = _by_name(gates.evaluate(TPU, RunMetrics(20, 5.0, [(0, 5.0)]), requested_steps=20))
    assert r["min_steps"].status == "PASS" and r["min_steps"].threshold == 20
    assert "--steps 20" in r["min_steps"].detail


def test_quick_run_leaves_a_finite_loss_unjudged_but_fails_a_bad_one():
    high = gates.evaluate(TPU, RunMetrics(20, 9.5, [(i, 9.5) for i in range(20)]), requested_steps=20)
    r = _by_name(high)
    assert r["max_final_loss"].status == "SKIP" and r["max_final_loss"].value == 9.5
    assert "--steps 20" in r["max_final_loss"].detail and "200 steps" in r["max_final_loss"].detail
    assert gate_results.verdict(high) == "pass"
    nan = gates.evaluate(TPU, RunMetrics(20, float("nan"), [(0, 5.0), (19, float("nan"))]), requested_steps=20)
    assert _by_name(nan)["max_final_loss"].status == "FAIL" and gate_results.verdict(nan) == "fail"
    full = _by_name(gates.evaluate(TPU, RunMetrics(200, 9.5, [(0, 9.5)]), requested_steps=200))
    assert full["max_final_loss"].status == "FAIL"  # a full run is judged


def test_skipped_gates_alone_are_no_verdict_of_pass():
    skip = gate_results.GateResult("max_final_loss", 5.0, 4.0, "SKIP", "not judged")
    assert gate_results.verdict([skip]) == "fail"
    assert gate_results.verdict([skip, gate_results.GateResult("min_steps", 20, 20, "PASS")]) == "pass"


def test_torn_last_line_of_a_killed_run_is_ignored():
    text = json.dumps({"global_step": 0, "train/loss": 5.0}) + "\n" + '{"global_step": 1, "train/lo'
    m = parse_step_metrics(text)
    assert m.steps_completed == 1


def test_gate_results_serialize_non_finite_values():
    r = gates.max_final_loss(RunMetrics(1, float("nan")), 8.0)
    assert r.to_dict()["value"] == "nan"


def test_workload_warnings_are_the_logs_warning_lines_once_each_in_order():
    from canary.formats.metrics import workload_warnings

    log = (
        "canary workload: ferry moe-canary\n"
        "warning: ragged_dot cpu_gmm is unavailable, using grouped: no C compiler\n"
        "step     0  loss 6.7\n"
        "  warning: indented lines are someone else's\n"
        "warning: ragged_dot cpu_gmm is unavailable, using grouped: no C compiler\n"
        "warning: \n"
        "warning: second\n"
    )
    assert workload_warnings(log) == ["ragged_dot cpu_gmm is unavailable, using grouped: no C compiler", "second"]
    assert workload_warnings("") == []


def _canary_run_dir(tmp_path, steps=30, loss=6.0, lane="cpu"):
    """A run directory as `canary run cpu --steps 30` leaves it (a quick run whose loss is above
    the full run's threshold)."""
    d = tmp_path / "20261201T000000Z-cpu-ab12"
    d.mkdir()
    lines = [{"_step": i, "global_step": i, "train/loss": loss + (steps - i) * 0.01} for i in range(steps)]
    (d / "metrics.jsonl").write_text("".join(json.dumps(x) + "\n" for x in lines))
    config = {"ferry": "moe-canary", "ferry_version": 1, "lane": lane, "run_id": d.name, "steps": steps}
    (d / "tracker_metrics.jsonl").write_text(json.dumps({"config": config, "summary": lines[-1]}) + "\n")
    (d / "result.json").write_text(json.dumps({"lane": lane, "ferry": "moe-canary", "steps_requested": steps}))
    return d


def _statuses(judged):
    lane, metrics, results = judged.lane, judged.metrics, judged.results
    loose = ("min_steps", "max_final_loss")  # the golden gates skip a quick run (tests/test_golden.py)
    return lane, metrics.steps_completed, {r.name: (r.status, r.threshold) for r in results if r.name in loose}


def test_a_run_gets_the_same_verdict_from_its_directory_and_from_its_tracker_file(tmp_path):
    from canary.run.gate import judge_path

    d = _canary_run_dir(tmp_path)
    from_dir = _statuses(judge_path(d, None, None))
    from_tracker = _statuses(judge_path(d / "tracker_metrics.jsonl", None, None))  # no --lane: the config says cpu
    assert from_dir == from_tracker == ("cpu", 30, {"min_steps": ("PASS", 30), "max_final_loss": ("SKIP", 4.0)})
    assert gate_results.verdict(judge_path(d / "tracker_metrics.jsonl", None, None).results) == "pass"

    (d / "result.json").unlink()  # a directory copied without its record: the tracker file's config stands in
    assert _statuses(judge_path(d, None, None)) == from_dir
    # --lane still wins over the file's own lane
    assert judge_path(d / "tracker_metrics.jsonl", "tpu", None).lane == "tpu"


def test_a_levanter_tracker_file_still_needs_a_lane(tmp_path):
    from canary.errors import ConfigError
    from canary.run.gate import judge_path

    f = tmp_path / "tracker_metrics.jsonl"
    f.write_text(json.dumps({"config": {"trainer": {"seed": 0}}, "summary": {"_step": 237, "train/loss": 5.8}}) + "\n")
    with pytest.raises(ConfigError, match="--lane"):
        judge_path(f, None, None)
    lane, metrics, results, _, _ = judge_path(f, "tpu", None)
    assert metrics.steps_completed == 238 and gate_results.verdict(results) == "pass"


@pytest.mark.parametrize(
    "content", [b"this is not json\n", b"<html><body>502</body></html>", b"\xff\xfe\x00binary", b"[1, 2, 3]\n"]
)
def test_a_file_that_is_not_json_lines_is_bad_input(tmp_path, content):
    from canary.errors import ConfigError
    from canary.run.gate import judge_path

    f = tmp_path / "tracker_metrics.jsonl"
    f.write_bytes(content)
    with pytest.raises(ConfigError, match="not JSON lines|not UTF-8 text .*byte offset 0"):
        judge_path(f, "cpu", None)


def test_the_table_folds_gates_skipped_for_one_reason_into_one_row():
    from canary.render import fold_skips

    why = "not judged: --steps 5, the golden is of 200-step runs"
    rows = [{"name": "finite_loss", "status": "PASS", "value": "5 finite", "detail": ""}] + [
        {"name": n, "status": "SKIP", "value": None, "detail": why}
        for n in ("loss_curve", "final_loss_golden", "throughput", "compile_seconds", "peak_memory")
    ]
    folded = fold_skips(rows)
    assert [r["name"] for r in folded] == ["finite_loss", "loss_curve … peak_memory (5)"]
    assert folded[1]["detail"] == why
    # other reasons, or a skip with a value, stay rows of their own
    rows[2] = {**rows[2], "detail": "the golden has no final loss"}
    assert len(fold_skips(rows)) == 4


def test_one_run_gets_one_judgement_from_its_directory_its_metrics_file_and_a_copy(tmp_path, cli):
    """`canary gate` on a run's metrics.jsonl judges the run as its directory does (its summary,
    its host, its recorded gates); a bare copy of the file elsewhere is still judged on its
    fastest step's tokens/s, as a run is, not on its last or median step's."""
    from canary.run.gate import judge_path
    from tests.perf_records import write_run_dir

    steps = 200
    speeds = [900.0] + [15000.0] * (steps - 2) + [16000.0]
    summary = {
        "throughput/tokens_per_second": 15000.0,
        "throughput/best_tokens_per_second": 16000.0,
        "throughput/quiet_steps": 199,
        "host/cpus": 2,
        "host/cpu_model": "Some Other CPU",
    }
    d = write_run_dir(tmp_path / "20261201T000000Z-cpu-cd34", [6.0 - i * 0.01 for i in range(steps)], speeds, summary)

    def throughput(judged):
        return next((r.status, r.value) for r in judged.results if r.name == "throughput")

    from_dir = judge_path(d, None, None)
    from_file = judge_path(d / "metrics.jsonl", "cpu", None)
    assert throughput(from_dir) == throughput(from_file) == ("WARN", 16000.0)
    assert [r.to_dict() for r in from_dir.results] == [r.to_dict() for r in from_file.results]
    assert from_file.notes[0].endswith("judged as that run") and from_dir.gates_path.name == "moe-canary.toml"
    bare = tmp_path / "elsewhere" / "metrics.jsonl"
    bare.parent.mkdir()
    bare.write_text((d / "metrics.jsonl").read_text())
    assert throughput(judge_path(bare, "cpu", None)) == ("FAIL", 16000.0)  # no host facts: the floor stands
    proc = cli("gate", str(d / "metrics.jsonl"), env={"COLUMNS": "200"})
    assert "from " + str(from_dir.gates_path) in proc.stdout.replace("\n", "") and "judged as that run" in proc.stdout


def test_a_30_percent_slower_step_fails_throughput(tmp_path, cli):
    """The zoo's slow step (CANARY_ZOO=slow:0.3) on figures made up, not measured: a run on the
    golden's own kind of machine, every step alone on it, whose curve is the golden's and whose
    fastest step takes 1.3x the golden's. `canary gate` fails it on throughput alone, and its
    signature is a perf regression. A speed measured live depends on what else the machine runs;
    bench/golden_noise.py measures the zoo's slow step for real."""
    from canary.signature.attempts import gate_signature
    from tests.perf_records import write_run_dir

    golden = json.loads((ROOT / "gates" / "moe-canary.cpu.golden.json").read_text())
    steps, best = golden["steps"], golden["perf"]["best_tokens_per_second"]
    losses = [w["mean"] for w in golden["loss_windows"] for _ in range(w["steps"][1] - w["steps"][0] + 1)]
    speeds = [best / 1.3 / 10] + [best / 1.3 * 0.9] * (steps - 2) + [best / 1.3]
    summary = {
        "throughput/tokens_per_second": best / 1.3 * 0.9,
        "throughput/best_tokens_per_second": best / 1.3,
        "throughput/quiet_steps": steps - 1,
        "throughput/others_share": 0.0,
        **{f"host/{k}": v for k, v in golden["host"].items()},
    }
    d = write_run_dir(tmp_path / "20261201T000000Z-cpu-slow", losses, speeds, summary)
    proc = cli("gate", str(d), "--json")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    out = json.loads(proc.stdout)
    status = {g["name"]: g["status"] for g in out["gates"]}
    assert status["throughput"] == "FAIL" and "-23.08% from the golden's" in _gate(out, "throughput")["detail"]
    assert status["loss_curve"] == status["final_loss_golden"] == "PASS"  # the numbers are the same, only slower
    assert gate_signature(out["gates"]).kind == "perf_regression"


def _gate(result, name):
    return next(g for g in result["gates"] if g["name"] == name)


def test_every_warn_says_why_and_loss_curve_reads_as_a_percent():
    """A first run's WARNs explain themselves in their detail: a compile time over its ceiling
    is a WARN because the gates file says so (and why); the curve's value is a percent, like its
    threshold and margin."""
    from canary.config import load_gates
    from canary.formats.metrics import RunMetrics
    from canary.golden.store import load_golden
    from canary.judge import golden_gates
    from canary.judge.results import gate_value

    g = load_golden("moe-canary", "cpu")
    lane = load_gates("moe-canary")[0].lane("cpu")
    slow = RunMetrics(
        200, g.final_loss, [(s, 3.0) for s in range(200)], {"compile/seconds": g.perf["compile_seconds"] * 3}
    )
    [compile_gate] = [r for r in golden_gates.evaluate(lane, g, slow) if r.name == "compile_seconds"]
    assert compile_gate.status == "WARN" and 'the gates set compile_seconds = "WARN"' in compile_gate.detail
    assert "machine's load" in compile_gate.detail
    assert gate_value({"name": "loss_curve", "value": 0.0038}) == "+0.38%"
    assert gate_value({"name": "max_final_loss", "value": 2.8032}) == "2.8032"


def test_the_gates_table_at_80_columns_keeps_every_name_and_lists_the_details_under_it():
    from rich.console import Console

    from canary.render import gates_table

    rows = [
        {"name": "max_final_loss", "value": 2.8, "threshold": 4.0, "status": "PASS", "detail": ""},
        {
            "name": "final_loss_golden",
            "value": 2.8,
            "threshold": "2.7858 ±3.92%",
            "status": "PASS",
            "detail": "+0.62% from the golden",
            "margin": 0.033,
        },
        {
            "name": "compile_seconds",
            "value": 7.1,
            "threshold": 5.6,
            "status": "WARN",
            "margin": -0.2,
            "detail": 'a WARN, never a FAIL: the gates set compile_seconds = "WARN"',
        },
    ]
    for width in (80, 140):
        c = Console(width=width, record=True, color_system=None)
        c.print(gates_table(rows, width=c.width))
        out = c.export_text()
        assert "…" not in out and all(r["name"] in out for r in rows), out
        assert max(len(line) for line in out.splitlines()) <= width
        assert ("compile_seconds: a WARN" in out) == (width == 80)
