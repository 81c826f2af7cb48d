"""Change points in a lane's run history: where a metric of its passing runs stepped, and when.

    points = series(records, "cpu", "moe-canary", "throughput")   # the passing full runs, oldest first
    found = steps(points)                                           # each: its run, size, p-value
    every = changes(records, lane="cpu")                            # every metric, every (lane, ferry)

Each run is judged alone against a golden, with tolerances wide enough for one noisy run; a slow
drift (3% a week) passes every gate for a month. Across runs it is a step in a series, found here
by **E-divisive means** (Matteson and James, "A Nonparametric Approach for Multiple Change Point
Analysis of Multivariate Data", JASA 109(505), 2014), the method Apache Otava (Hunter) and
MongoDB's signal-processing-algorithms use: the split of a segment that maximises the
energy-distance statistic Q̂ (α = 1) is a candidate; a permutation test of the segment (its points
shuffled ``permutations`` times, a seeded generator, so the same series always gives the same
answer) says how often chance alone splits it as well: the p-value. Significant splits are kept
and each side is searched again, hierarchically, until none is. At least ``min_size`` points
stand on each side of a split (Otava's test needs 3).

Pure functions over records (numpy for the arithmetic); no I/O. The shape follows asv's
``step_detect``: a series in, the steps out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np

from canary.history.series import evidence
from canary.history.windows import VersionChange, version_changes
from canary.record import RunRecord

MAX_PVALUE = 0.01  # a split is a step when chance splits the segment as well this rarely
PERMUTATIONS = 199  # the smallest p-value is then 1/200
MIN_SIZE = 3  # points on each side of a step
SEED = 0
PERMUTATION_BATCH = 20  # shuffles scored together; a test stops after the batch that settles it
CONFIRM = 2  # a step is news once the analyses after two runs in a row find it
RECENT = 10  # and when it is among the last this many runs (older steps were news before)
WINDOW = 100  # the notifier analyses a series' latest runs only: its cost stays that of 100 runs


@dataclass(frozen=True)
class Metric:
    name: str  # as the lane's gates name it
    label: str
    unit: str
    higher_is_better: bool
    key: str | None  # the run summary's key; None: the record's final loss
    gates: tuple[str, ...]  # the gates that judge it: a step in it is news when the lane has one of them


METRICS: dict[str, Metric] = {
    m.name: m
    for m in (
        Metric("throughput", "throughput", "tokens/s", True, "throughput/tokens_per_second", ("throughput",)),
        Metric("compile_seconds", "compile time", "s", False, "compile/seconds", ("compile_seconds",)),
        Metric("peak_memory", "peak memory", "bytes", False, "memory/peak_bytes", ("peak_memory",)),
        Metric(
            "compiled_memory", "compiled memory per chip", "bytes", False, "memory/compiled_bytes", ("compiled_memory",)
        ),
        Metric("final_loss", "final loss", "", False, None, ("max_final_loss", "final_loss_golden")),
    )
}


@dataclass(frozen=True)
class Point:
    run_id: str
    started_at: str
    commit: str | None
    value: float
    versions: dict[str, str] = field(default_factory=dict, compare=False)


@dataclass(frozen=True)
class Step:
    """A change point: the series is different from ``run_id`` on (the first run after the change)."""

    metric: str
    lane: str
    ferry: str
    index: int  # of the run in the series
    run_id: str
    started_at: str
    commit: str | None
    previous_run: str  # the last run before the change
    previous_commit: str | None
    before: float  # the median of the segment before the step
    after: float  # and after it
    pvalue: float
    versions: tuple[VersionChange, ...] = ()  # what changed between the previous run and this one

    @property
    def change(self) -> float:
        """The step's size, relative to the level before it (+0.05: 5% up)."""
        return (self.after - self.before) / abs(self.before) if self.before else math.inf

    @property
    def worse(self) -> bool:
        return (self.change < 0) == METRICS[self.metric].higher_is_better

    def to_dict(self) -> dict[str, Any]:
        return {
            "metric": self.metric,
            "lane": self.lane,
            "ferry": self.ferry,
            "index": self.index,
            "run_id": self.run_id,
            "started_at": self.started_at,
            "commit": self.commit,
            "previous_run": self.previous_run,
            "previous_commit": self.previous_commit,
            "before": self.before,
            "after": self.after,
            "change": round(self.change, 6),
            "worse": self.worse,
            "pvalue": self.pvalue,
            "versions": [{"name": v.name, "before": v.before, "after": v.after} for v in self.versions],
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Step:
        keys = (
            "metric",
            "lane",
            "ferry",
            "index",
            "run_id",
            "started_at",
            "commit",
            "previous_run",
            "previous_commit",
            "before",
            "after",
            "pvalue",
        )
        return cls(
            **{k: d.get(k) for k in keys},
            versions=tuple(VersionChange(v["name"], v.get("before"), v.get("after")) for v in d.get("versions") or ()),
        )


# ----------------------------------------------------------------------------- the series


def value_of(r: RunRecord, metric: Metric) -> float | None:
    v = r.final_loss if metric.key is None else (r.summary or {}).get(metric.key)
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
        return None
    return float(v)


def passing_runs(records: Iterable[RunRecord], lane: str, ferry: str | None = None) -> list[RunRecord]:
    """The lane's (and ferry's) passing full runs, oldest first: a short run (a repro, ``--steps``)
    is mostly compilation, and an experiment's ferry or gates are not the series': their figures
    are not the series'."""
    return [r for r in evidence(records, lane, ferry) if r.verdict == "pass"]


def series(records: Iterable[RunRecord], lane: str, ferry: str | None, metric: str) -> list[Point]:
    """One metric over the lane's passing full runs, oldest first; runs without a finite value
    (not recorded, NaN) are left out."""
    m = METRICS[metric]
    out = []
    for r in passing_runs(records, lane, ferry):
        v = value_of(r, m)
        if v is not None:
            out.append(Point(r.run_id, r.started_at, r.commit, v, dict(r.versions or {})))
    return out


# ----------------------------------------------------------------------------- E-divisive means


def _row_sums(x: np.ndarray) -> np.ndarray:
    """Σ_j |x_i − x_j| for each point of a segment, from the gaps between its sorted values (O(n)
    memory; a gap of 0, between equal points, adds exactly nothing)."""
    n = len(x)
    order = np.argsort(x, kind="stable")
    gaps = np.diff(x[order])  # gap i-1 lies between sorted points i-1 and i: i points below it, n-i above
    i = np.arange(1, n)
    below = np.concatenate(([0.0], np.cumsum(gaps * i)))
    above = np.concatenate((np.cumsum((gaps * (n - i))[::-1])[::-1], [0.0]))
    out = np.empty(n)
    out[order] = below + above
    return out


def _qhat(y: np.ndarray, r: np.ndarray, total: float, min_size: int) -> tuple[np.ndarray, np.ndarray]:
    """The best split of each row of ``y`` (orders of one segment's points; ``r`` their row sums
    in the same order, ``total`` their sum): (τ, Q̂(τ)) per row, the first τ points on one side.
    Matteson and James's Q̂ with the end of the segment fixed (κ = n):
    Q̂ = m·k/(m+k) · (2/(m·k)·Σ|x−y| − Σ|x−x'|/C(m,2) − Σ|y−y'|/C(k,2)). The sums within the first
    t points grow a column block at a time, so a row needs O(n) memory, never an n x n matrix."""
    rows, n = y.shape
    last = n - min_size  # splits end there: no distance from a later point is needed
    grow = np.zeros((rows, last))  # Σ_{i<j} |y_j − y_i| for each j < last
    block = max(1, (1 << 18) // (rows * n))  # columns at a time: a 2 MB block, close to the triangle
    for j0 in range(0, last, block):
        j1 = min(last, j0 + block)
        d = np.abs(y[:, j0:j1, None] - y[:, None, :j1])
        d *= np.arange(j1)[None, None, :] < np.arange(j0, j1)[None, :, None]
        grow[:, j0:j1] = d.sum(axis=2)
    t = np.arange(min_size, last + 1)
    within_x = np.cumsum(grow, axis=1)[:, t - 1]
    into = np.cumsum(r, axis=1)[:, t - 1]  # Σ over the first t points of their distances to all
    m, k = t.astype(float), (n - t).astype(float)
    within_y = (total - 2 * into + 2 * within_x) / 2
    between = into - 2 * within_x
    e = 2 * between / (m * k) - within_x / (m * (m - 1) / 2) - within_y / (k * (k - 1) / 2)
    q = m * k / (m + k) * e
    i = np.argmax(q, axis=1)
    return t[i], q[np.arange(rows), i]


def _permutation_test(
    x: np.ndarray, q: float, rng: np.random.Generator, permutations: int, max_pvalue: float, min_size: int
) -> int:
    """How many of ``permutations`` shuffles of the segment split it as well as ``q``, drawn in
    order from ``rng`` a batch at a time. The count stops at the batch that makes the p-value
    exceed ``max_pvalue``: the split is then not significant, whatever the other shuffles say."""
    r = _row_sums(x)
    total = float(r.sum())
    as_good = drawn = 0
    while drawn < permutations and not (as_good + 1) / (permutations + 1) > max_pvalue:
        batch = min(PERMUTATION_BATCH, permutations - drawn)
        orders = np.stack([rng.permutation(len(x)) for _ in range(batch)])
        as_good += int((_qhat(x[orders], r[orders], total, min_size)[1] >= q).sum())
        drawn += batch
    return as_good


def _best_split(x: np.ndarray, min_size: int) -> tuple[int, float]:
    r = _row_sums(x)
    tau, q = _qhat(x[None, :], r[None, :], float(r.sum()), min_size)
    return int(tau[0]), float(q[0])


def e_divisive(
    values: Sequence[float],
    *,
    max_pvalue: float = MAX_PVALUE,
    permutations: int = PERMUTATIONS,
    min_size: int = MIN_SIZE,
    seed: int = SEED,
) -> list[tuple[int, float]]:
    """The change points of a series: (index, p-value) pairs, by index; ``index`` is the first
    point after the change. Empty for fewer than ``2 * min_size`` points or a constant series."""
    x = np.asarray(values, dtype=float)
    if min_size < 2:
        raise ValueError("min_size must be 2 or more")
    if x.ndim != 1 or not np.isfinite(x).all():
        raise ValueError("values must be a flat series of finite numbers")
    rng = np.random.default_rng(seed)
    segments = [(0, len(x))]
    splits: dict[tuple[int, int], tuple[int, float]] = {}
    found: list[tuple[int, float]] = []
    while True:
        best = None
        for a, b in segments:
            if b - a >= 2 * min_size:
                if (a, b) not in splits:
                    splits[(a, b)] = _best_split(x[a:b], min_size)
                tau, q = splits[(a, b)]
                if best is None or q > best[0]:
                    best = (q, a, b, a + tau)
        if best is None or not best[0] > 0:
            break
        q, a, b, tau = best
        as_good = _permutation_test(x[a:b], q, rng, permutations, max_pvalue, min_size)
        pvalue = (as_good + 1) / (permutations + 1)
        if pvalue > max_pvalue:
            break
        found.append((tau, pvalue))
        segments.remove((a, b))
        segments += [(a, tau), (tau, b)]
    return sorted(found)


def steps(
    points: Sequence[Point],
    metric: str = "throughput",
    lane: str = "",
    ferry: str = "",
    *,
    max_pvalue: float = MAX_PVALUE,
    permutations: int = PERMUTATIONS,
    min_size: int = MIN_SIZE,
    seed: int = SEED,
) -> list[Step]:
    """The steps of one series: each with its run, the level (median) of the segments either side,
    the p-value, and the version changes between the run before it and its own."""
    found = e_divisive(
        [p.value for p in points], max_pvalue=max_pvalue, permutations=permutations, min_size=min_size, seed=seed
    )
    bounds = [0] + [i for i, _ in found] + [len(points)]
    out = []
    for n, (i, pvalue) in enumerate(found):
        before = [p.value for p in points[bounds[n] : i]]
        after = [p.value for p in points[i : bounds[n + 2]]]
        prev, run = points[i - 1], points[i]
        out.append(
            Step(
                metric,
                lane,
                ferry,
                i,
                run.run_id,
                run.started_at,
                run.commit,
                prev.run_id,
                prev.commit,
                float(np.median(before)),
                float(np.median(after)),
                pvalue,
                tuple(version_changes(prev.versions, run.versions)),
            )
        )
    return out


def changes(
    records: Iterable[RunRecord],
    lane: str | None = None,
    ferry: str | None = None,
    metrics: Iterable[str] = tuple(METRICS),
    **options: Any,
) -> list[Step]:
    """Every step of every metric, for each (lane, ferry) of the records (or only ``lane``'s,
    ``ferry``'s), ordered by when the step's run started."""
    records = list(records)
    pairs = sorted(
        {(r.lane, r.ferry) for r in records if (lane is None or r.lane == lane) and (ferry is None or r.ferry == ferry)}
    )
    out = []
    for ln, fy in pairs:
        for metric in metrics:
            out += steps(series(records, ln, fy, metric), metric, ln, fy, **options)
    return sorted(out, key=lambda s: (s.started_at or "", s.run_id, s.metric))


def gated_metrics(record: RunRecord) -> list[str]:
    """The metrics a run's lane gates (a gate for it in the record, of any severity but off)."""
    names = {g.get("name") for g in record.gates}
    return [m.name for m in METRICS.values() if names & set(m.gates)]


def _confirmed(
    points: Sequence[Point], end: int, confirm: int, metric: str, lane: str, ferry: str, options: dict[str, Any]
) -> list[Step]:
    """The steps of the series' latest ``WINDOW`` runs up to ``end`` also found (within a run of
    the same place) in each of the ``confirm - 1`` analyses before it, the series one, two ...
    runs shorter. Indices are the runs' places in the whole series."""
    start = max(0, end - WINDOW)
    if end - start - confirm + 1 < 0:
        return []
    window = points[start:end]
    now = steps(window, metric, lane, ferry, **options)
    for shorter in range(len(window) - confirm + 1, len(window)):
        there = [s.index for s in steps(window[:shorter], metric, lane, ferry, **options)]
        now = [s for s in now if any(abs(s.index - i) <= 1 for i in there)]
    return [replace(s, index=s.index + start) for s in now]


def new_steps(
    records: Iterable[RunRecord], record: RunRecord, within: int = RECENT, confirm: int = CONFIRM, **options: Any
) -> list[Step]:
    """The steps a run brings to light, in the metrics its lane gates. A step is found when the
    series up to and including ``record`` has it and so do the ``confirm - 1`` series before
    (a run shorter each: a split that one new run takes back was noise, and analysing after
    every run would otherwise raise it); it is new when it was not found so at the run before,
    and it is at one of the last ``within`` runs. Empty when ``record`` is not in the series (a
    failure, a short run). Only the series' latest ``WINDOW`` runs are analysed."""
    records = list(records)
    out = []
    for metric in gated_metrics(record):
        points = series(records, record.lane, record.ferry, metric)
        ids = [p.run_id for p in points]
        if record.run_id not in ids:
            continue
        n = ids.index(record.run_id) + 1
        args = (confirm, metric, record.lane, record.ferry, options)
        before = [s.index for s in _confirmed(points, n - 1, *args)]
        out += [
            s
            for s in _confirmed(points, n, *args)
            if s.index >= n - within and not any(abs(s.index - i) <= 1 for i in before)
        ]
    return out
