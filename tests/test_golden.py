"""Goldens and the gates that judge against them: pure functions on recorded figures, no training."""

import dataclasses
import json
import math

import pytest

from canary.config import LaneGates
from canary.errors import ConfigError
from canary.formats.metrics import RunMetrics
from canary.golden import curve as golden
from canary.golden import diff as golden_diff
from canary.golden import model as golden_model
from canary.judge import gates, golden_gates
from canary.judge import results as gate_results
from canary.record import Attempt, RunRecord
from canary.run import consistency
from canary.signature import gate_signature

STEPS = 100


def curve(scale=1.0, steps=STEPS, wobble=0.0):
    """A falling loss curve; ``wobble`` alternates each step's loss by that fraction."""
    return [(i, scale * (1.0 + 5.0 * math.exp(-i / 30)) * (1 + (wobble if i % 2 else -wobble))) for i in range(steps)]


def perf_summary(tps=10_000.0, busy=2.0, compile_s=3.0, peak=400e6, cpus=2):
    """A run's summary; ``busy``: how much CPU time a step's wall second holds (2 threads flat out)."""
    step = 1024 / tps
    return {
        "throughput/tokens_per_second": tps,
        "throughput/median_step_seconds": step,
        "throughput/best_tokens_per_second": tps * 1.25,
        "throughput/median_step_cpu_seconds": step * busy,
        "compile/seconds": compile_s,
        "memory/peak_bytes": peak,
        "host/cpus": cpus,
    }


def recording():
    """Two bit-identical base runs and two variants that move the windows by up to 0.4%."""
    runs = [
        golden.RunFacts("base", curve(), perf_summary(tps=10_000)),
        golden.RunFacts("base", curve(), perf_summary(tps=10_400, compile_s=3.3)),
        golden.RunFacts("devices=4", curve(1.004), perf_summary(tps=6_000), perf_comparable=False),
        golden.RunFacts("ragged_dot=xla", curve(0.998, wobble=0.01), perf_summary(tps=3_000), perf_comparable=False),
    ]
    return golden.build(runs, ferry="moe-canary", ferry_version=1, lane="cpu", steps=STEPS, window=20, host={"cpus": 2})


def metrics(losses, **summary):
    s = perf_summary(**summary)
    return RunMetrics(len(losses), losses[-1][1] if losses else None, losses, s)


GATES = LaneGates(min_steps=STEPS, max_final_loss=8.0, golden="x.golden.json")


def by_name(results):
    return {r.name: r for r in results}


def test_window_means_drop_an_unfinished_window():
    losses = [(i, float(i)) for i in range(45)]
    ws = golden.window_means(losses, 20, steps=50)
    assert [(w.first, w.last, w.mean) for w in ws] == [(0, 19, 9.5), (20, 39, 29.5)]
    assert golden.window_means(losses, 20)[-1] == golden_model.Window(40, 44, 42.0)


def test_tolerance_is_observed_spread_times_factor_with_a_floor():
    g = recording()
    t = g.tolerance["loss_curve"]
    assert t.observed == pytest.approx(0.004, rel=1e-3)  # devices=4 moved every window by 0.4%
    assert t.rtol == pytest.approx(0.006, rel=1e-3) and t.factor == 1.5
    assert golden.tolerance("loss_curve", 0.0).rtol == golden.FLOORS["loss_curve"]
    # throughput: base runs only; 10,000 and 10,400 -> median 10,200, 2% -> the 18% floor
    assert g.tolerance["throughput"].rtol == golden.FLOORS["throughput"]
    assert g.perf["best_tokens_per_second"] == pytest.approx(12_750)
    assert g.perf["cpu_throughput"] == pytest.approx(1024 / (1024 / 10_200 * 2))
    assert golden.tolerance("throughput", 0.5, cap=golden.THROUGHPUT_CAP).capped


def test_a_recording_needs_every_window_from_every_run():
    runs = [golden.RunFacts("base", curve(), {}), golden.RunFacts("x", curve(steps=50), {}, perf_comparable=False)]
    with pytest.raises(ValueError, match="every window"):
        golden.build(runs, ferry="f", ferry_version=1, lane="cpu", steps=STEPS, window=20)


def test_the_file_has_one_window_per_line_and_round_trips():
    g = recording()
    text = golden_model.dumps(g)
    lines = text.splitlines()
    window_lines = [ln for ln in lines if ln.strip().startswith('{"steps"')]
    assert len(window_lines) == len(g.windows) == 5
    assert json.loads(text)["ferry"] == "moe-canary"
    back = golden_model.loads(text)
    assert back.windows[2].first == 40 and back.tolerance.keys() == g.tolerance.keys()
    assert golden_model.dumps(back) == text
    with pytest.raises(ConfigError, match="not a golden"):
        golden_model.loads('{"ferry": "x"}', "gates/x.golden.json")


def test_clean_and_equivalent_runs_pass_every_golden_gate():
    g = recording()
    for losses in (curve(), curve(1.004), curve(0.998, wobble=0.01)):
        r = gates.evaluate(GATES, metrics(losses), requested_steps=STEPS, golden=g, ferry_version=1)
        assert gate_results.verdict(r) == "pass", [x for x in r if x.status != "PASS"]
        assert by_name(r)["loss_curve"].margin > 0


@pytest.mark.parametrize("scale", [1.012, 0.988])
def test_loss_curve_is_two_sided(scale):
    r = by_name(
        gates.evaluate(GATES, metrics(curve(scale)), requested_steps=STEPS, golden=recording(), ferry_version=1)
    )
    assert r["loss_curve"].status == "FAIL" and r["loss_curve"].margin < 0
    assert "5 of 5 windows outside" in r["loss_curve"].detail
    assert gate_signature([x.to_dict() for x in r.values()]).kind == "gate_regression"


def test_one_bad_window_fails_the_curve():
    losses = [(i, v * (1.03 if 40 <= i < 60 else 1.0)) for i, v in curve()]
    r = golden_gates.loss_curve(recording(), metrics(losses))
    assert r.status == "FAIL" and "steps 40-59" in r.detail and "1 of 5" in r.detail


def test_a_quick_run_skips_the_curve_and_a_stale_golden_fails_it():
    g = recording()
    r = by_name(gates.evaluate(GATES, metrics(curve(steps=20)), requested_steps=20, golden=g))
    assert r["loss_curve"].status == "SKIP" and r["final_loss_golden"].status == "SKIP"
    r = by_name(gates.evaluate(GATES, metrics(curve()), requested_steps=STEPS, golden=g, ferry_version=2))
    assert r["loss_curve"].status == "FAIL" and "re-record" in r["loss_curve"].detail


def test_a_crash_midway_fails_the_curve_by_its_missing_windows():
    r = golden_gates.loss_curve(recording(), metrics(curve(steps=50)))
    assert r.status == "FAIL" and "2 of the golden's 5 windows" in r.detail


def test_a_nan_loss_is_a_nan_signature_not_a_curve_regression():
    losses = curve()
    losses[70] = (70, math.nan)
    r = gates.evaluate(GATES, metrics(losses), requested_steps=STEPS, golden=recording(), ferry_version=1)
    assert gate_results.verdict(r) == "fail"
    assert gate_signature([x.to_dict() for x in r]).kind == "nan"


def test_a_30_percent_slower_step_fails_throughput_and_is_a_perf_regression():
    g = recording()
    ok = golden_gates.throughput(g, metrics(curve(), tps=8_700))  # -15%: inside the 18% floor
    assert ok.status == "PASS" and ok.margin > 0
    slow = golden_gates.throughput(g, metrics(curve(), tps=10_200 / 1.3))
    assert slow.status == "FAIL" and slow.value < slow.threshold
    judged = [gate_results.GateResult("min_steps", STEPS, STEPS, "PASS"), slow]
    assert gate_signature([x.to_dict() for x in judged]).kind == "perf_regression"


def test_throughput_judges_the_fastest_step():
    g = recording()
    # a busy machine: the median step twice as slow, the fastest step as fast as ever
    m = metrics(curve(), tps=5_100)
    m.summary["throughput/best_tokens_per_second"] = 12_500.0
    r = golden_gates.throughput(g, m)
    assert r.status == "PASS" and "fastest step" in r.detail
    # without the fastest step's figure on either side: the median's
    del m.summary["throughput/best_tokens_per_second"]
    assert golden_gates.throughput(g, m).status == "FAIL"
    # another host shape: a miss is only a warning
    r = golden_gates.throughput(g, metrics(curve(), tps=5_000, cpus=16))
    assert r.status == "WARN" and "16" in r.detail
    # the same CPU count, another CPU model (a laptop, another cloud machine): a warning too
    modelled = dataclasses.replace(g, host={"cpus": 2, "cpu_model": "Intel(R) Xeon(R) Processor"})
    laptop = metrics(curve(), tps=5_000)
    laptop.summary["host/cpu_model"] = "AMD Ryzen 7 7840U"
    r = golden_gates.throughput(modelled, laptop)
    assert r.status == "WARN" and "AMD Ryzen 7 7840U" in r.detail
    laptop.summary["host/cpu_model"] = "Intel(R) Xeon(R) Processor"  # the recording's kind of machine
    assert golden_gates.throughput(modelled, laptop).status == "FAIL"


def test_the_cpu_model_is_read_from_cpuinfo():
    from canary import host

    assert host.cpu_model("processor\t: 0\nmodel name\t: AMD EPYC 9654\nflags\t: fpu\n") == "AMD EPYC 9654"
    assert host.cpu_model("") == (__import__("platform").processor() or __import__("platform").machine())


def test_warn_gates_never_fail_a_run():
    g = recording()
    m = metrics(curve(), compile_s=30.0, peak=900e6)
    r = by_name(gates.evaluate(GATES, m, requested_steps=STEPS, golden=g, ferry_version=1))
    assert r["compile_seconds"].status == "WARN" and r["peak_memory"].status == "WARN"
    assert r["compile_seconds"].margin < 0
    assert gate_results.verdict(list(r.values())) == "pass"
    assert gate_signature([x.to_dict() for x in r.values()]) is None
    strict = LaneGates(min_steps=STEPS, max_final_loss=8.0, compile_seconds="FAIL", peak_memory="off")
    r = by_name(gates.evaluate(strict, m, requested_steps=STEPS, golden=g, ferry_version=1))
    assert r["compile_seconds"].status == "FAIL" and "peak_memory" not in r


def test_only_warnings_and_skips_do_not_make_a_pass():
    assert gate_results.verdict_of(["WARN", "SKIP"]) == "fail"
    assert gate_results.verdict_of(["PASS", "WARN"]) == "pass"


def test_diff_marks_changes_against_the_stored_tolerances():
    old = recording()
    same = golden_diff.diff(old, old)
    assert all(r.status == "same" for r in same)
    runs = [golden.RunFacts("base", [(i, v * (1.02 if i >= 80 else 1.001)) for i, v in curve()], perf_summary())]
    new = golden.build(runs, ferry="moe-canary", ferry_version=1, lane="cpu", steps=STEPS, window=20)
    rows = {r.what: r for r in golden_diff.diff(old, new)}
    assert rows["loss steps 0-19"].status == "within"
    assert rows["loss steps 80-99"].status == "outside"
    assert rows["loss steps 80-99"].change == pytest.approx(0.02, rel=1e-3)


def test_diff_compares_what_the_perf_figures_are_of():
    config = {"kernels/ragged_dot": "grouped", "devices": 1}
    old = dataclasses.replace(recording(), perf={**recording().perf, "config": config})
    assert all(r.status == "same" for r in golden_diff.diff(old, old))
    other = dataclasses.replace(old, perf={**old.perf, "config": {**config, "devices": 4}})
    assert {r.what: r.status for r in golden_diff.diff(old, other)}["perf config"] == "outside"


def _record(losses_ok=True, hits=0, errors=(), outcome="succeeded", mode="warm"):
    a = Attempt(1, outcome, 0 if outcome == "succeeded" else 1, 1.0, "train.log")
    return RunRecord(
        "r",
        "cpu",
        "moe-canary",
        1,
        "pass" if outcome == "succeeded" else "fail",
        10,
        1.0,
        [],
        "/x",
        attempts=[a],
        cache={"mode": mode, "requests": 3, "hits": hits, "errors": list(errors)},
    )


def test_consistency_is_bitwise_and_needs_cache_hits():
    cold = _record(mode="cold")
    L = curve(steps=10)
    ok = consistency.judge(cold, L, _record(hits=3), L)
    assert ok.status == "PASS"
    moved = [(s, v) if s != 6 else (s, math.nextafter(v, 9.0)) for s, v in L]
    bad = consistency.judge(cold, L, _record(hits=3), moved)
    assert bad.status == "FAIL" and "step 6" in bad.detail
    assert consistency.judge(cold, L, _record(hits=3), moved, bitwise=False).status == "PASS"
    assert consistency.judge(cold, L, _record(hits=0), L).status == "FAIL"
    unread = consistency.judge(
        cold, L, _record(hits=3, errors=["UserWarning: Error reading persistent compilation cache entry"]), L
    )
    assert unread.status == "FAIL" and "could not read" in unread.detail
    crashed = consistency.judge(cold, L, _record(outcome="failed"), [])
    assert crashed.status == "FAIL" and consistency.signature_of(crashed).kind == "cache_inconsistency"
    assert consistency.judge(_record(outcome="failed", mode="cold"), [], _record(hits=3), L).status == "SKIP"


def test_consistency_signature_is_stable_across_values():
    cold, L = _record(mode="cold"), curve(steps=10)
    a = consistency.judge(cold, L, _record(hits=3), [(s, v + 1e-3) for s, v in L])
    b = consistency.judge(cold, L, _record(hits=3), [(s, v + 2e-3) for s, v in L])
    assert consistency.signature_of(a).fingerprint == consistency.signature_of(b).fingerprint


def test_perf_gates_judge_only_the_recorded_configuration():
    runs = [golden.RunFacts("base", curve(), {**perf_summary(), "kernels/ragged_dot": "grouped", "devices": 1})]
    g = golden.build(runs, ferry="moe-canary", ferry_version=1, lane="cpu", steps=STEPS, window=20)
    assert g.perf["config"] == {"kernels/ragged_dot": "grouped", "devices": 1}
    m = metrics(curve(), tps=3_000, busy=6.0)
    m.summary.update({"kernels/ragged_dot": "xla", "devices": 1})
    r = by_name(gates.evaluate(GATES, m, requested_steps=STEPS, golden=g, ferry_version=1))
    assert r["throughput"].status == "SKIP" and "ragged_dot=grouped" in r["throughput"].detail
    assert r["loss_curve"].status == "PASS"
    m.summary["kernels/ragged_dot"] = "grouped"
    assert by_name(gates.evaluate(GATES, m, requested_steps=STEPS, golden=g))["throughput"].status == "FAIL"


def test_combined_record_of_both_caches_fails_as_cache_inconsistency(tmp_path):
    cold, warm = _record(mode="cold"), _record(hits=3)
    L = curve(steps=10)
    bad = consistency.judge(cold, L, warm, [(s, v * 1.01) for s, v in L])
    rec = consistency.combine(cold, [warm], bad, "run-1", tmp_path)
    assert rec.verdict == "fail" and rec.signature.kind == "cache_inconsistency"
    assert [a.number for a in rec.attempts] == [1, 2] and rec.attempts[-1].signature == rec.signature
    assert rec.gates[-1]["name"] == "cache_consistency" and rec.classification != "pass"
    good = consistency.combine(cold, [warm], consistency.judge(cold, L, warm, L), "run-1", tmp_path)
    assert good.verdict == "pass" and good.signature is None and good.run_dir == str(tmp_path)


def test_a_recordings_run_directories_name_their_variants():
    from canary.run.recording import run_name, variant_of, variants

    for v in ("base", "devices=4", "ragged_dot=xla"):
        assert variant_of(run_name(3, v)) == v
    names = [v.name for v in variants("cpu", 2, "auto", 8)]
    assert names[:3] == ["base", "base", "devices=4"] and "ragged_dot=xla" in names
    assert [v.name for v in variants("tpu", 3, "megablox", 128)] == ["base"] * 3
    assert [v.name for v in variants("cpu", 1, "auto", 6)][:2] == ["base", "ragged_dot=xla"]  # 6 rows: no 4-way split


def test_each_window_has_its_own_tolerance_widening_as_the_runs_drift_apart():
    # the recording's runs agree at first, then drift 0.1%, 0.8%, then re-converge to 0.2%
    assert golden.curve_tolerances([0.0, 0.0005, 0.001, 0.008, 0.002]) == pytest.approx(
        [0.001, 0.001, 0.0015, 0.012, 0.012]
    )
    early = golden_model.Golden(
        "f",
        1,
        "cpu",
        40,
        20,
        "train/loss",
        [golden_model.Window(0, 19, 5.0, 0.0, 0.001), golden_model.Window(20, 39, 3.0, 0.008, 0.012)],
        3.0,
        {"loss_curve": golden.tolerance("loss_curve", 0.008)},
    )

    def run(first, second):
        return RunMetrics(40, second, [(i, first if i < 20 else second) for i in range(40)], {})

    late = golden_gates.loss_curve(early, run(5.0, 3.0 * 1.01))  # 1% late: inside the late window's 1.2%
    assert late.status == "PASS" and "of ±1.20%" in late.detail and late.threshold == "±0.10-1.20% /20 steps"
    soon = golden_gates.loss_curve(early, run(5.0 * 1.004, 3.0))  # 0.4% early: four times the early 0.1%
    assert soon.status == "FAIL" and "steps 0-19" in soon.detail and "of ±0.10%" in soon.detail
    assert soon.margin == pytest.approx(0.001 - 0.004)
    # the worst window is the one furthest out for its own band, not the largest deviation
    both = golden_gates.loss_curve(early, run(5.0 * 1.002, 3.0 * 1.011))
    assert "steps 0-19" in both.detail and "1 of 2 windows outside" in both.detail


def test_a_golden_without_window_tolerances_judges_every_window_by_the_curves():
    g = recording()
    old = dataclasses.replace(g, windows=[dataclasses.replace(w, rtol=None) for w in g.windows])
    assert '"rtol"' not in json.dumps(old.to_dict()["loss_windows"])
    assert golden_model.loads(golden_model.dumps(old)).windows[0].rtol is None
    assert all(old.window_rtol(i) == g.tolerance["loss_curve"].rtol for i in range(len(g.windows)))
    assert golden_gates.loss_curve(old, metrics(curve(1.012))).status == "FAIL"


def test_the_curves_centre_is_the_median_of_the_distinct_runs():
    runs = [
        golden.RunFacts("base", curve(), {}),
        golden.RunFacts("base", curve(), {}),
        golden.RunFacts("base", curve(), {}),  # bit-identical repeats count once
        golden.RunFacts("nudged=1", curve(1.01), {}, perf_comparable=False),
        golden.RunFacts("nudged=2", curve(1.02), {}, perf_comparable=False),
    ]
    g = golden.build(runs, ferry="f", ferry_version=1, lane="cpu", steps=STEPS, window=20)
    centre = golden.window_means(curve(1.01), 20, STEPS)
    assert [w.mean for w in g.windows] == pytest.approx([w.mean for w in centre])
    assert g.final_loss == pytest.approx(curve(1.01)[-1][1])
    assert g.tolerance["loss_curve"].observed == pytest.approx(0.01 / 1.01, rel=1e-6)


def test_the_instruction_set_is_read_from_cpuinfo_flags():
    from canary import host

    flags = "processor\t: 0\nflags\t\t: fpu sse4_2 avx avx2 fma\n"
    assert host.isa(flags, machine="x86_64") == "AVX2"
    assert host.isa(flags.replace(" avx2", " avx512f avx2"), machine="x86_64") == "AVX512"
    assert host.isa("flags\t: fpu sse2\n", machine="x86_64") is None
    assert host.isa(flags, machine="aarch64") is None
    assert host.older_isas("AVX2") == ["AVX", "SSE4_2"] and host.older_isas(None) == []


def test_a_cpu_recording_compiles_for_older_instruction_sets_and_nudges_the_weights():
    from canary.run.recording import variants

    vs = variants("cpu", 1, "auto", 8, native_isa="AVX2", nudged=3)
    names = [v.name for v in vs]
    assert names[-5:] == ["isa=AVX", "isa=SSE4_2", "nudged=1", "nudged=2", "nudged=3"]
    isa = {v.name: v for v in vs}["isa=AVX"]
    assert isa.env["XLA_FLAGS"].endswith("--xla_cpu_max_isa=AVX") and not isa.perf_comparable
    assert {v.name: v for v in vs}["nudged=2"].env == {"CANARY_NUDGE_SEED": "2"}
    assert [v.name for v in variants("cpu", 1, "auto", 8, native_isa=None, nudged=0)] == [
        "base",
        "devices=4",
        "ragged_dot=xla",
    ]
    assert [v.name for v in variants("tpu", 2, "megablox", 128, native_isa="AVX512")] == ["base", "base"]
    assert [v.name for v in variants("cpu", 2, "auto", 8, perf_only=True)] == ["base", "base"]
    from canary.formats.spec import xla_flag_env

    assert xla_flag_env("xla_cpu_max_isa", "AVX", {"XLA_FLAGS": "--a=1 --xla_cpu_max_isa=AVX2"}) == {
        "XLA_FLAGS": "--a=1 --xla_cpu_max_isa=AVX"
    }


def _one_window(rtol):
    return golden_model.Golden(
        "f",
        1,
        "cpu",
        20,
        20,
        "train/loss",
        [golden_model.Window(0, 19, 3.0, 0.0, rtol)],
        3.0,
        {"loss_curve": golden.tolerance("loss_curve", rtol), "final_loss_golden": golden_model.Tolerance(0.005, 0.005)},
    )


def test_a_margin_within_a_rounding_step_prints_the_digits_that_show_its_side():
    g = _one_window(0.00102)
    inside = golden_gates.loss_curve(g, RunMetrics(20, 3.0, [(i, 3.0 * (1 - 0.000965)) for i in range(20)], {}))
    # two decimals would print "-0.10% of ±0.10%" beside a PASS
    assert inside.status == "PASS" and "(-0.097% of ±0.102%)" in inside.detail
    outside = golden_gates.loss_curve(g, RunMetrics(20, 3.0, [(i, 3.0 * (1 + 0.00104)) for i in range(20)], {}))
    assert outside.status == "FAIL" and "(+0.104% of ±0.102%)" in outside.detail
    # far from the band, two decimals as before
    assert (
        "(+0.50% of ±0.10%)"
        in golden_gates.loss_curve(g, RunMetrics(20, 3.0, [(i, 3.0 * 1.005) for i in range(20)], {})).detail
    )


def test_a_loss_below_the_golden_band_is_suspicious_not_better():
    g = _one_window(0.001)
    low = RunMetrics(20, 2.9, [(i, 2.9) for i in range(20)], {})  # a mask that lets a token see the next one
    curve_gate, final_gate = golden_gates.loss_curve(g, low), golden_gates.final_loss_golden(g, low)
    for r in (curve_gate, final_gate):
        assert r.status == "FAIL" and "suspicious, not better" in r.detail and "sees its targets" in r.detail
    high = RunMetrics(20, 3.1, [(i, 3.1) for i in range(20)], {})
    assert "suspicious" not in golden_gates.loss_curve(g, high).detail
    assert "suspicious" not in golden_gates.final_loss_golden(g, high).detail
