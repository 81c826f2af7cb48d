"""The model's statistics: read from a run's steps, banded in a golden from its recording's own
runs, judged by the stats_curve gate, placed in a part of the model, and a failed run's identity
built from what moved. Pure functions on recorded figures, no training; and the notifier, through
the real client against the local GitHub server."""

import dataclasses
import json
import math
from pathlib import Path

import pytest
from github_server import REPO, client, github, spool_dir  # noqa: F401 (fixtures)

from canary.config import LaneGates
from canary.formats.metrics import Z_TERMS, RunMetrics, parse_step_metrics, part_of
from canary.golden import curve as golden
from canary.golden import model as golden_model
from canary.judge import gates, stats_gates
from canary.notify import notify
from canary.record import Attempt, RunRecord
from canary.signature import gate_signature

ROOT = Path(__file__).resolve().parent.parent
STEPS = 100
STATS = {
    "stats/router/layer0/load_balance": lambda i: 1.0 + 0.2 * math.exp(-i / 20),
    "stats/attention/layer0/output_rms": lambda i: 0.01 + 0.0001 * i,
    "optim/grad_norm": lambda i: 2.0 * math.exp(-i / 50) + 0.5,
    "train/cross_entropy_loss": lambda i: 1.0 + 5.0 * math.exp(-i / 30),
}


def loss(i):
    return 1.0 + 5.0 * math.exp(-i / 30)


def series(scale=None, steps=STEPS):
    """Each statistic's steps, ``scale`` moving some of them from a step on: {name: (factor, from)}."""
    scale = scale or {}

    def f(name, i):
        k, first = scale.get(name, (1.0, 0))
        return k if i >= first else 1.0

    return {name: [(i, fn(i) * f(name, i)) for i in range(steps)] for name, fn in STATS.items()}


def recording():
    """A base run, and variants that move each statistic by up to 0.4%."""
    runs = [golden.RunFacts("base", [(i, loss(i)) for i in range(STEPS)], {}, series=series())]
    for k, variant in ((1.004, "devices=4"), (0.997, "nudged=1")):
        moved = {name: (k, 0) for name in STATS}
        runs.append(
            golden.RunFacts(
                variant, [(i, loss(i) * k) for i in range(STEPS)], {}, perf_comparable=False, series=series(moved)
            )
        )
    return golden.build(runs, ferry="grug-moe-canary", ferry_version=2, lane="cpu", steps=STEPS, window=20)


def run(scale=None, losses=None):
    losses = losses or [(i, loss(i)) for i in range(STEPS)]
    return RunMetrics(STEPS, losses[-1][1], losses, {}, series=series(scale))


GATES = LaneGates(
    min_steps=STEPS,
    max_final_loss=8.0,
    golden="x.golden.json",
    final_loss_golden="off",
    throughput="off",
    compile_seconds="off",
    peak_memory="off",
)


def test_a_runs_statistics_are_read_from_its_steps_and_each_is_of_a_part_of_the_model():
    lines = [
        {"global_step": i, "train/loss": 2.0, "optim/grad_norm": 0.5 + i, "stats/router/layer0/z_loss": 3.0, "x/y": 1}
        for i in range(3)
    ]
    m = parse_step_metrics("\n".join(json.dumps(x) for x in lines))
    assert m.series == {
        "optim/grad_norm": [(0, 0.5), (1, 1.5), (2, 2.5)],
        "stats/router/layer0/z_loss": [(0, 3.0), (1, 3.0), (2, 3.0)],
    }
    assert [part_of(k) for k in (*STATS, "optim/update_norm", "stats/experts/layer3/usage_entropy")] == [
        "router",
        "attention",
        "optimizer",
        "loss",
        "optimizer",
        "experts",
    ]


def test_each_statistic_gets_windows_banded_from_the_recordings_runs_and_survives_a_round_trip():
    g = recording()
    assert sorted(g.stats) == sorted(STATS)
    w = g.stats["optim/grad_norm"][0]
    assert (w.first, w.last) == (0, 19)
    assert w.spread == pytest.approx(0.004, rel=1e-3)  # devices=4 moved it by 0.4%
    assert w.rtol == pytest.approx(0.006, rel=1e-3)  # x 1.5
    again = golden_model.loads(golden_model.dumps(g))
    assert list(again.stats) == list(g.stats) and golden_model.dumps(again) == golden_model.dumps(g)
    assert '\n      {"steps": [0, 19]' in golden_model.dumps(g)  # one window a line, for a reviewable diff


def test_a_golden_recorded_before_the_statistics_loads_and_judges_as_before():
    text = (ROOT / "gates" / "moe-canary.cpu.golden.json").read_text()
    old = golden_model.loads(text)
    if old.stats:
        old = dataclasses.replace(old, stats={})
    assert "stat_windows" not in golden_model.dumps(old)
    m = RunMetrics(old.steps, 3.0, [(i, 3.0) for i in range(old.steps)], {}, series=series())
    [r] = stats_gates.evaluate(GATES, old, m)
    assert r.status == "SKIP" and "re-record" in r.detail
    assert "moved" not in r.to_dict()


def test_a_hand_edited_statistic_window_is_bad_input_naming_it():
    d = recording().to_dict()
    d["stat_windows"]["optim/grad_norm"][2]["rtol"] = -1
    with pytest.raises(Exception, match=r"stat_windows.optim/grad_norm.2.rtol"):
        golden_model.loads(json.dumps(d))


def test_clean_statistics_pass_and_a_moved_one_fails_placed_in_its_part():
    g = recording()
    [ok] = stats_gates.evaluate(GATES, g, run({"optim/grad_norm": (1.003, 0)}))
    assert ok.status == "PASS" and ok.margin > 0, ok.detail

    bad = run({"stats/router/layer0/load_balance": (0.97, 40), "optim/grad_norm": (1.1, 60)})
    [r] = stats_gates.evaluate(GATES, g, bad)
    assert r.status == "FAIL" and r.value == 2 and r.margin < 0
    by_series = {m["series"]: m for m in r.moved}
    lb = by_series["stats/router/layer0/load_balance"]
    assert (lb["part"], lb["direction"], lb["first"]) == ("router", "below", [40, 59])
    assert lb["times"] > 2  # a 3% drop against a 0.6% band
    assert by_series["optim/grad_norm"]["first"] == [60, 79]
    assert r.detail.startswith("placed: router (first out, steps 40-59")
    assert "furthest: optimizer" in r.detail  # 10% up against 0.6%: further than the router's 3%


def _steps(z_terms, steps=STEPS):
    """A run's metrics.jsonl: the cross-entropy, and the loss with ``z_terms(i)`` on top of it."""
    return "\n".join(
        json.dumps({"global_step": i, "train/cross_entropy_loss": loss(i), "train/loss": loss(i) + z_terms(i)})
        for i in range(steps)
    )


def test_the_loss_terms_besides_the_cross_entropy_are_a_statistic_of_the_loss():
    m = parse_step_metrics(_steps(lambda i: 0.016))
    assert [round(v, 9) for _, v in m.series[Z_TERMS][:2]] == [0.016, 0.016] and part_of(Z_TERMS) == "loss"
    logged = json.dumps({"train/loss": 2.0, "train/cross_entropy_loss": 1.0, Z_TERMS: 0.5})
    assert parse_step_metrics(logged).series[Z_TERMS] == [(0, 0.5)]  # a step that logs it is believed
    assert Z_TERMS not in parse_step_metrics(json.dumps({"train/loss": 2.0})).series


def test_a_dropped_loss_term_is_placed_in_the_loss():
    """The library's loss regressions (a dropped LM-head z-loss, a loss in bfloat16) move the
    loss's own terms from the first step and the model's statistics only once training has carried
    them into the weights: placed in the loss, the first part out, not in the furthest later one."""
    recorded = [parse_step_metrics(_steps(lambda i, k=k: 0.016 * k)) for k in (1.0, 1.001)]
    runs = [
        golden.RunFacts(v, m.losses, {}, series=m.series) for v, m in zip(("base", "nudged=1"), recorded, strict=True)
    ]
    g = golden.build(runs, ferry="moe-canary", ferry_version=2, lane="cpu", steps=STEPS, window=20)
    dropped = parse_step_metrics(_steps(lambda i: 0.012))
    [r] = stats_gates.evaluate(GATES, g, dropped)
    assert r.status == "FAIL" and r.detail.startswith("placed: loss (first out, steps 0-19: stats/loss/z_terms below")
    experts = {"series": "stats/experts/layer2/usage_entropy", "part": "experts", "direction": "below"}
    later = [{**experts, "first": [20, 39], "times": 150.0}, *r.moved]
    assert stats_gates.placed(later).startswith("placed: loss (first out, steps 0-19")
    assert "furthest: experts" in stats_gates.placed(later)
    # a model bug moves the loss's statistics too, after its own part's: it stays placed there
    loss_later = [{**m, "first": [40, 59]} for m in r.moved]
    assert stats_gates.placed([*loss_later, {**experts, "first": [0, 19], "times": 3.0}]).startswith("placed: experts")


def test_the_statistics_gate_is_skipped_for_a_quick_run_and_can_be_switched_off():
    g = recording()
    [r] = stats_gates.evaluate(GATES, g, run(), requested_steps=10)
    assert r.status == "SKIP"
    assert stats_gates.evaluate(GATES.model_copy(update={"stats_curve": "off"}), g, run()) == []
    names = [x.name for x in gates.evaluate(GATES, run(), golden=g)]
    assert names[-1] == "stats_curve" and "loss_curve" in names


def _failed(scale=None, losses=None):
    g = recording()
    return [r.to_dict() for r in gates.evaluate(GATES, run(scale, losses), golden=g) if r.status == "FAIL"]


def test_a_gate_regressions_identity_says_what_moved():
    router = _failed({"stats/router/layer0/load_balance": (0.97, 40)})
    attention = _failed({"stats/attention/layer0/output_rms": (1.05, 0)})
    a, b = gate_signature(router, ferry="grug-moe-canary"), gate_signature(attention, ferry="grug-moe-canary")
    assert "stats/router/layer0/load_balance below from steps 40-59 under 8x" in a.message
    assert a.fingerprint != b.fingerprint  # two regressions, two identities
    assert gate_signature(_failed({"stats/router/layer0/load_balance": (0.97, 40)}), ferry="grug-moe-canary") == a
    # the same statistic moved the other way, or from another window, is another regression
    up = gate_signature(_failed({"stats/router/layer0/load_balance": (1.03, 40)}), ferry="grug-moe-canary")
    later = gate_signature(_failed({"stats/router/layer0/load_balance": (0.97, 60)}), ferry="grug-moe-canary")
    assert len({a.fingerprint, up.fingerprint, later.fingerprint}) == 3


def test_the_loss_curves_move_is_named_first_and_the_old_identity_is_kept():
    lower = [(i, loss(i) * (0.99 if i >= 20 else 1.0)) for i in range(STEPS)]
    failed = _failed({"train/cross_entropy_loss": (0.99, 20)}, lower)
    assert [g["name"] for g in failed] == ["loss_curve", "stats_curve"]
    sig = gate_signature(failed, ferry="grug-moe-canary")
    assert sig.message.startswith(
        "failed gates: loss_curve, stats_curve (ferry grug-moe-canary); moved: train/loss below from steps 20-39"
    )
    # how earlier canaries named the loss curve's failure: its old issue is still found
    before = gate_signature([{"name": "loss_curve", "status": "FAIL", "value": -0.01}], ferry="grug-moe-canary")
    assert before.message == "failed gates: loss_curve (ferry grug-moe-canary)"
    assert before.fingerprint in sig.legacy
    # a gate that records nothing of what moved keeps its identity as it was
    assert gate_signature([{"name": "max_final_loss", "status": "FAIL", "value": 9.0}]).message == (
        "failed gates: max_final_loss"
    )


def _record(run_id, sig, gates_, started):
    attempts = [Attempt(1, "succeeded", 0, 30.0, f"/runs/{run_id}/attempt-1/train.log", signature=sig)]
    return RunRecord(
        run_id,
        "cpu",
        "grug-moe-canary",
        2,
        "fail",
        None,
        None,
        list(gates_),
        f"/runs/{run_id}",
        attempts=attempts,
        started_at=started,
        classification="confirmed",
        signature=sig,
    )


def test_an_issue_filed_under_the_old_identity_gets_the_recurrence_and_new_regressions_get_their_own(
    github,  # noqa: F811
    client,  # noqa: F811
    spool_dir,  # noqa: F811
):
    old_gates = [{"name": "loss_curve", "status": "FAIL", "value": -0.004, "threshold": "±0.10% /20 steps"}]
    old = gate_signature(old_gates, ferry="grug-moe-canary")
    record = _record("20261201T010000Z-cpu-0001", old, old_gates, "2026-12-01T01:00:00+00:00")
    res = notify(record, history=[], repo=REPO, client=client)
    [(kind, number)] = [(a.kind, a.issue) for a in res.deliveries[-1].actions]
    assert kind == "opened"

    lower = [(i, loss(i) * (0.99 if i >= 20 else 1.0)) for i in range(STEPS)]
    new_gates = _failed({"train/cross_entropy_loss": (0.99, 20)}, lower)
    new = gate_signature(new_gates, ferry="grug-moe-canary")
    record = _record("20261202T010000Z-cpu-0002", new, new_gates, "2026-12-02T01:00:00+00:00")
    res = notify(record, history=[], repo=REPO, client=client)
    assert [(a.kind, a.issue) for a in res.deliveries[-1].actions] == [("commented", number)]


def test_two_regressions_open_two_issues_each_saying_where_it_is_placed(github, client, spool_dir):  # noqa: F811
    numbers = []
    for n, scale in enumerate(({"stats/router/layer0/load_balance": (0.97, 40)}, {"optim/grad_norm": (1.1, 0)})):
        failed = _failed(scale)
        sig = gate_signature(failed, ferry="grug-moe-canary")
        record = _record(f"20261202T0{n}0000Z-cpu-000{n}", sig, failed, f"2026-12-02T0{n}:00:00+00:00")
        res = notify(record, history=[], repo=REPO, client=client)
        [(kind, number)] = [(a.kind, a.issue) for a in res.deliveries[-1].actions]
        assert kind == "opened"
        numbers.append(number)
    bodies = {i["number"]: i["body"] for i in github.state.issues()}
    first, second = (bodies[n] for n in numbers)
    assert "placed: router" in first and "placed: optimizer" in second
    assert numbers[0] != numbers[1]
