"""How busy the machine was while the steps ran: the figures that tell a slow canary from a busy
machine (canary.workload.contention), and a golden's speed re-measured on another machine
(`canary golden record LANE --perf-only`)."""

import dataclasses

import pytest
from test_golden import curve, metrics, recording

from canary.errors import ConfigError
from canary.golden import curve as golden
from canary.judge import golden_gates
from canary.run import recording as golden_record
from canary.workload import contention


def test_a_window_is_quiet_while_others_use_under_a_tenth_of_the_machine():
    durations = [0.1] * 25
    # 2 CPUs x 1 s of wall per window of ten: quiet under 0.2 s of others' CPU time
    others = [0.019] * 10 + [0.021] * 10 + [0.0] * 5
    flags = contention.quiet(durations, others, cpus=2)
    assert flags == [True] * 10 + [False] * 10 + [True] * 5
    # the figure is judged over the window, not the step: one busy step in a quiet window stays quiet
    spiky = [0.0] * 9 + [0.15]
    assert all(contention.quiet([0.1] * 10, spiky, cpus=2))
    # unknown (not Linux): every step counts as quiet, the gate judges as it always did
    assert all(contention.quiet([0.1] * 12, [None] * 12, cpus=2))


def test_others_share_is_their_cpu_seconds_over_the_machines():
    assert contention.others_share([0.1] * 10, [0.1] * 10, cpus=2) == pytest.approx(0.5)
    assert contention.others_share([0.1] * 10, [None] * 10, cpus=2) is None
    assert contention.others_share([], [], cpus=2) is None


def test_the_sampler_reads_the_machines_busy_time_less_this_process(tmp_path):
    stat = tmp_path / "stat"
    # user nice system idle iowait irq softirq steal: busy excludes idle and iowait, counts steal
    stat.write_text("cpu  100 0 50 1000 30 0 0 10 0 0\ncpu0 1 2 3\n")
    tick = __import__("os").sysconf("SC_CLK_TCK")
    assert contention.machine_busy_seconds(str(stat)) == pytest.approx(160 / tick)
    s = contention.Sampler(str(stat))
    stat.write_text(f"cpu  {100 + tick} 0 50 1000 30 0 0 {10 + tick} 0 0\n")  # 2 s more busy
    others = s.mark()
    assert 0 < others <= 2.0  # what this process spent meanwhile is not others'
    assert contention.machine_busy_seconds(str(tmp_path / "missing")) is None
    assert contention.Sampler(str(tmp_path / "missing")).mark() is None
    stat.write_text("garbage\n")
    assert contention.machine_busy_seconds(str(stat)) is None


def busy(m, quiet_steps, share=0.55):
    m.summary.update({"throughput/quiet_steps": quiet_steps, "throughput/others_share": share})
    return m


def test_a_miss_on_a_busy_machine_is_only_a_warning():
    g = recording()
    slow = 10_200 / 1.3
    r = golden_gates.throughput(g, busy(metrics(curve(), tps=slow), quiet_steps=0))
    assert r.status == "WARN" and "busy" in r.detail and "55%" in r.detail
    # a few quiet windows in a run others held (40 of 99 steady steps): not enough to judge
    r = golden_gates.throughput(g, busy(metrics(curve(), tps=slow), quiet_steps=40))
    assert r.status == "WARN" and "a FAIL needs 50" in r.detail
    # most steps quiet: the same figure fails
    assert golden_gates.throughput(g, busy(metrics(curve(), tps=slow), quiet_steps=60)).status == "FAIL"
    # a busy machine that still made the floor: a pass
    assert golden_gates.throughput(g, busy(metrics(curve()), quiet_steps=0)).status == "PASS"


def stored():
    return dataclasses.replace(recording(), host={"cpus": 2, "cpu_model": "A"}, recorded={"commit": "abc"})


def test_perf_only_keeps_the_curve_and_takes_this_machines_speed():
    old = stored()
    here = golden.build(
        [golden.RunFacts("base", curve(), perf_summary_fast())],
        ferry="moe-canary",
        ferry_version=1,
        lane="cpu",
        steps=100,
        window=20,
        host={"cpus": 2, "cpu_model": "B"},
    )
    golden_record.check_curve(old, [golden.RunFacts("base", curve(), {})])
    new = golden_record.with_perf_of(old, here, {"command": "canary golden record cpu --perf-only --runs 1"})
    assert new.windows == old.windows and new.final_loss == old.final_loss
    assert new.tolerance["loss_curve"] == old.tolerance["loss_curve"]
    assert list(new.tolerance) == list(old.tolerance)  # the file's diff shows only what was re-measured
    assert (
        new.perf["best_tokens_per_second"] == here.perf["best_tokens_per_second"] != old.perf["best_tokens_per_second"]
    )
    assert (
        new.host["cpu_model"] == "B"
        and new.recorded["commit"] == "abc"
        and "--perf-only" in new.recorded["perf"]["command"]
    )


def test_perf_only_refuses_a_moved_curve_or_another_ferry():
    old = stored()
    with pytest.raises(golden_record.RecordingFailed, match="new golden"):
        golden_record.check_curve(old, [golden.RunFacts("base", curve(1.02), {}, run_id="r1")])
    other = dataclasses.replace(old, ferry_version=2)
    with pytest.raises(ConfigError, match="--perf-only"):
        golden_record.with_perf_of(old, other, {})


def perf_summary_fast():
    from test_golden import perf_summary

    return perf_summary(tps=20_000)


def test_a_recording_says_which_runs_were_too_busy_to_measure_speed():
    quiet = golden.RunFacts("base", curve(), {"throughput/quiet_steps": 190}, run_id="01-base")
    held = golden.RunFacts(
        "base", curve(), {"throughput/quiet_steps": 3, "throughput/others_share": 0.55}, run_id="02-base"
    )
    variant = golden.RunFacts("devices=4", curve(), {"throughput/quiet_steps": 0}, run_id="03", perf_comparable=False)
    assert golden_record.busy_runs([quiet, variant]) == ""  # a variant's speed is not recorded
    assert golden_record.busy_runs([quiet, held]) == "02-base (3 quiet steps, others used 55% of the CPUs)"
