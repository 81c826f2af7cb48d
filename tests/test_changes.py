"""Change points over the run history (pure): E-divisive means with a seeded permutation test, on
synthetic series with known steps."""

import math
from dataclasses import replace

import pytest

from canary.history import changes as ch
from tests.perf_records import LOOSE_GATES, history, noisy, run, stepped


def test_a_3_percent_step_in_40_noisy_points_is_found_at_the_right_run():
    records = history(stepped(40, at=20, size=-0.03, seed=1))
    found = ch.changes(records, lane="cpu", metrics=["throughput"])
    assert len(found) == 1
    s = found[0]
    assert (s.index, s.run_id, s.previous_run) == (20, records[20].run_id, records[19].run_id)
    assert s.commit == records[20].commit and s.previous_commit == records[19].commit
    assert s.metric == "throughput" and s.worse and -0.05 < s.change < -0.015
    assert s.pvalue <= ch.MAX_PVALUE


def test_60_points_of_pure_noise_give_no_step():
    for seed in range(5):
        assert ch.changes(history(noisy(60, seed=seed)), metrics=["throughput"]) == [], seed


def test_over_many_series_the_3_percent_step_is_mostly_found_within_a_run_of_its_place():
    near = sum(any(abs(i - 20) <= 1 for i, _ in ch.e_divisive(stepped(40, 20, -0.03, seed=s))) for s in range(20))
    false = sum(bool(ch.e_divisive(noisy(60, seed=100 + s))) for s in range(20))
    assert near >= 12 and false <= 2, (near, false)


def test_same_series_same_answer():
    x = stepped(50, 30, 0.04, seed=3)
    assert ch.e_divisive(x) == ch.e_divisive(x) == ch.e_divisive(list(x), seed=ch.SEED)


def test_two_steps_are_both_found_hierarchically():
    x = noisy(90, noise=0.01, seed=4)
    x[30:] *= 0.95
    x[60:] *= 1.08
    assert [i for i, _ in ch.e_divisive(x)] == [30, 60]


@pytest.mark.parametrize("values", [[], [1.0], [1.0, 2.0, 3.0, 4.0, 5.0], [7.0] * 40])
def test_too_few_points_or_a_constant_series_give_no_step(values):
    assert ch.e_divisive(values) == []


def test_a_step_of_min_size_points_at_the_end_is_allowed_but_not_fewer():
    x = [1.0] * 20 + [2.0] * 3
    assert [i for i, _ in ch.e_divisive(x)] == [20]
    assert ch.e_divisive([1.0] * 20 + [2.0] * 2) == []


def test_bad_values_are_refused_by_the_bare_search():
    with pytest.raises(ValueError):
        ch.e_divisive([1.0, math.nan, 2.0])
    with pytest.raises(ValueError):
        ch.e_divisive([1.0] * 10, min_size=1)


def test_the_series_skips_missing_and_non_finite_values_failures_side_runs_and_other_ferries():
    records = [
        run(0),
        run(1, tokens=None),
        run(2, tokens=math.nan),
        run(3, verdict="fail"),
        run(4, ferry="grug-moe-canary"),
        run(5, lane="tpu"),
        replace(run(6), steps_requested=10, ferry_steps=200),
        run(7),
    ]
    pts = ch.series(records, "cpu", "moe-canary", "throughput")
    assert [p.run_id for p in pts] == [records[0].run_id, records[7].run_id]
    assert [p.run_id for p in ch.series(records, "cpu", "moe-canary", "compile_seconds")] == [
        records[i].run_id for i in (0, 1, 2, 7)
    ]
    assert [p.run_id for p in ch.series(records, "cpu", None, "throughput")] == [records[i].run_id for i in (0, 4, 7)]


def test_each_metric_and_each_ferry_is_its_own_series():
    x = stepped(30, 15, 0.10, noise=0.01, seed=5)
    records = [run(i, compile_s=float(v) / 2000, peak=9e8, loss=1.9) for i, v in enumerate(x)]
    records += [run(i, ferry="grug-moe-canary", tokens=9000.0) for i in range(30)]
    found = ch.changes(records)
    assert {(s.metric, s.ferry, s.index) for s in found} == {("compile_seconds", "moe-canary", 15)}
    assert found[0].worse  # compile time went up
    assert ch.changes(records, ferry="grug-moe-canary") == []


def test_a_step_names_the_version_changes_at_its_run():
    x = stepped(30, 18, -0.08, noise=0.01, seed=6)
    new = {"jax": "0.10.1", "jaxlib": "0.10.1", "python": "3.11.7"}
    records = [run(i, tokens=float(v), versions=new if i >= 18 else None) for i, v in enumerate(x)]
    (s,) = ch.changes(records, metrics=["throughput"])
    assert [(v.name, v.before, v.after) for v in s.versions] == [
        ("jax", "0.10.0", "0.10.1"),
        ("jaxlib", "0.10.0", "0.10.1"),
    ]
    assert ch.Step.from_dict(s.to_dict()) == s


def test_final_loss_is_a_metric_too():
    loss = noisy(40, level=1.9, noise=0.005, seed=7)
    loss[25:] *= 1.03
    records = [run(i, loss=float(v)) for i, v in enumerate(loss)]
    (s,) = ch.changes(records, metrics=["final_loss"])
    assert s.index == 25 and s.worse


def test_gated_metrics_follow_the_lanes_gates():
    assert ch.gated_metrics(run(0)) == ["throughput", "compile_seconds", "peak_memory", "final_loss"]
    assert ch.gated_metrics(run(0, gates=LOOSE_GATES)) == ["final_loss"]


def test_a_step_is_new_once_and_within_5_runs_of_the_change():
    # a daily history growing run by run; a 6% throughput drop (3x the noise) from run 35 on
    x = stepped(45, 35, -0.06, seed=0)
    records = history(x)
    told = []
    for n in range(1, len(records) + 1):
        told += [(n - 1, s) for s in ch.new_steps(records[:n], records[n - 1])]
    assert len(told) == 1, told
    at, s = told[0]
    assert (s.metric, s.index, s.run_id) == ("throughput", 35, records[35].run_id)
    assert at <= 35 + 5


def test_within_5_runs_over_many_series():
    late = []
    for seed in range(10):
        records = history(stepped(40, 33, -0.06, seed=200 + seed))
        if not any(
            abs(s.index - 33) <= 1
            for n in range(33 + ch.MIN_SIZE, 33 + 6)
            for s in ch.new_steps(records[:n], records[n - 1])
        ):
            late.append(seed)
    assert len(late) <= 1, late


def test_no_new_step_for_a_failure_or_an_ungated_metric():
    x = stepped(30, 20, -0.10, noise=0.01, seed=9)
    records = history(x, gates=LOOSE_GATES)  # throughput not gated on this lane
    assert ch.new_steps(records[:24], records[23]) == []
    failing = run(40, tokens=1.0, verdict="fail")
    assert ch.new_steps(records + [failing], failing) == []


def test_the_notifier_analyses_the_latest_runs_and_names_the_step_by_its_place_in_the_whole_series():
    records = history(stepped(ch.WINDOW + 100, ch.WINDOW + 90, -0.06, seed=0))
    found = [s for n in range(ch.WINDOW + 93, ch.WINDOW + 97) for s in ch.new_steps(records[:n], records[n - 1])]
    assert [(s.index, s.run_id) for s in found] == [(ch.WINDOW + 90, records[ch.WINDOW + 90].run_id)]


def test_history_changes_lists_the_steps_as_json_and_text(tmp_path, cli):
    import json

    from canary.history.sqlite import SqliteStore

    store = SqliteStore(tmp_path / "h.sqlite3")
    records = history(stepped(40, 20, -0.03, seed=1)) + [run(i, lane="tpu", gates=LOOSE_GATES) for i in range(10)]
    for r in records:
        store.append(r)
    where = str(tmp_path / "h.sqlite3")
    proc = cli("history", "--history", where, "--changes", "--json")
    assert proc.returncode == 0, proc.stderr
    (step,) = json.loads(proc.stdout)["changes"]
    assert (step["lane"], step["ferry"], step["metric"], step["run_id"]) == (
        "cpu",
        "moe-canary",
        "throughput",
        records[20].run_id,
    )
    assert step["worse"] and step["pvalue"] <= ch.MAX_PVALUE and step["previous_run"] == records[19].run_id
    text = cli("history", "--history", where, "--changes", "--lane", "cpu").stdout
    assert records[20].run_id in text and "throughput" in text and "%" in text
    none = cli("history", "--history", where, "--changes", "--lane", "tpu", "--ferry", "moe-canary")
    assert none.returncode == 0 and "no steps found" in none.stdout


# ----------------------------------------------------------------------------- against the n x n search


def reference_qhat(d, min_size):
    """The best split from the segment's whole distance matrix and its 2-d prefix sums: the
    search as first written, kept here to check the one in canary against."""
    import numpy as np

    n = d.shape[0]
    p = np.zeros((n + 1, n + 1))
    p[1:, 1:] = d.cumsum(0).cumsum(1)
    t = np.arange(min_size, n - min_size + 1)
    m, k = t.astype(float), (n - t).astype(float)
    within_x = p[t, t] / 2
    within_y = (p[n, n] - p[t, n] - p[n, t] + p[t, t]) / 2
    between = p[t, n] - p[t, t]
    e = 2 * between / (m * k) - within_x / (m * (m - 1) / 2) - within_y / (k * (k - 1) / 2)
    q = m * k / (m + k) * e
    i = int(np.argmax(q))
    return int(t[i]), float(q[i])


def reference_e_divisive(values, max_pvalue=ch.MAX_PVALUE, permutations=ch.PERMUTATIONS, min_size=ch.MIN_SIZE, seed=0):
    """E-divisive means with an n x n distance matrix and a permuted copy of it per shuffle."""
    import numpy as np

    x = np.asarray(values, dtype=float)
    rng = np.random.default_rng(seed)
    d = np.abs(x[:, None] - x[None, :])
    segments, found = [(0, len(x))], []
    while True:
        best = None
        for a, b in segments:
            if b - a >= 2 * min_size:
                tau, q = reference_qhat(d[a:b, a:b], min_size)
                if best is None or q > best[0]:
                    best = (q, a, b, a + tau)
        if best is None or not best[0] > 0:
            break
        q, a, b, tau = best
        seg = d[a:b, a:b]
        orders = [rng.permutation(b - a) for _ in range(permutations)]
        as_good = sum(reference_qhat(seg[np.ix_(o, o)], min_size)[1] >= q for o in orders)
        pvalue = (as_good + 1) / (permutations + 1)
        if pvalue > max_pvalue:
            break
        found.append((tau, pvalue))
        segments.remove((a, b))
        segments += [(a, tau), (tau, b)]
    return sorted(found)


def small_series(rng, n, whole):
    """A random series of ``n`` points with up to three steps; whole numbers (with ties) when
    ``whole``, so that every sum is exact whatever order it is taken in."""
    x = rng.normal(0, 4 if whole else 1, n)
    for at in rng.integers(0, n, rng.integers(0, 4)):
        x[at:] += rng.choice([-1, 1]) * rng.uniform(2, 12)
    return x.round() if whole else x


def test_the_search_finds_what_the_n_by_n_search_finds_with_the_same_p_values():
    import numpy as np

    rng = np.random.default_rng(42)
    cases = 0
    for _ in range(60):
        n = int(rng.integers(4, 48))
        x = small_series(rng, n, whole=True)
        for min_size, max_pvalue, permutations in ((3, 0.01, 199), (2, 0.05, 59), (4, 1.0, 30)):
            seed = int(rng.integers(0, 1000))
            args = dict(max_pvalue=max_pvalue, permutations=permutations, min_size=min_size, seed=seed)
            assert ch.e_divisive(x, **args) == reference_e_divisive(x, **args), (list(x), args)
            cases += 1
    assert cases == 180


def test_on_real_valued_series_the_steps_and_p_values_are_the_n_by_n_searchs():
    """Exactly so at the defaults. Split down to every last segment (``max_pvalue`` 1), a shuffle
    of a segment of six points puts the same points on each side as the split itself one time
    in ten: a tie that two sums taken in different orders break by a rounding either way, so
    there only the places are compared (the whole numbers above compare the p-values too)."""
    import numpy as np

    rng = np.random.default_rng(7)
    for _ in range(25):
        x = small_series(rng, int(rng.integers(20, 90)), whole=False)
        assert ch.e_divisive(x) == reference_e_divisive(x), list(x)
        ours, theirs = ch.e_divisive(x, max_pvalue=1.0), reference_e_divisive(x, max_pvalue=1.0)
        assert [i for i, _ in ours] == [i for i, _ in theirs], list(x)


def test_changes_and_the_report_take_each_series_latest_runs(tmp_path, cli):
    import json

    import numpy as np

    from canary.history.series import WINDOW
    from canary.history.sqlite import SqliteStore

    older = 60
    x = noisy(WINDOW + older, noise=0.01, seed=11)
    x[30:] *= 0.9  # before the window: the report and --changes no longer reach it
    x[older + 200 :] *= 1.1  # within it
    records = history(x) + [run(i, lane="tpu", gates=LOOSE_GATES) for i in range(12)]
    store = SqliteStore(tmp_path / "h.sqlite3")
    for r in records:
        store.append(r)
    where = str(tmp_path / "h.sqlite3")
    proc = cli("history", "--history", where, "--changes", "--json")
    assert proc.returncode == 0, proc.stderr
    found = [(s["metric"], s["run_id"]) for s in json.loads(proc.stdout)["changes"]]
    assert found == [("throughput", records[older + 200].run_id)]
    window = records[older : WINDOW + older]
    assert [(s.metric, s.run_id) for s in ch.changes(window)] == found  # the search on the window alone
    assert np.isclose(ch.changes(records[:WINDOW])[0].change, -0.1, atol=0.02)  # and the older step is there
    page = tmp_path / "r.html"
    proc = cli("report", "--history", where, "--out", str(page), "--json")
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["runs"] == WINDOW + 12
    html = page.read_text()
    assert records[older].run_id in html and records[older - 1].run_id not in html
    assert f"latest {WINDOW} at most" in html
