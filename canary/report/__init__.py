"""``canary report``: a canary's health at a glance, as one self-contained HTML page.

    html = render(records, location="gs://bucket/runs")     # records in, a page out
    written = write_report(location, lane, since, Path("report.html"))

The page holds a timeline per series, one lane and one ferry (one cell per run, coloured and
labelled by classification; each opens the run's details; a short run's label in lower case),
each series' latest full run's loss curve against its golden band where there is one, step
time, tokens/s, compile time, peak memory and final loss across runs (each step that
:mod:`canary.history.changes` finds marked at its run), and the failure signatures. What the page shows is
computed purely in :mod:`canary.report.model`, drawn by matplotlib in :mod:`canary.report.charts`
and assembled in :mod:`canary.report.page`; this module reads what it needs (the history store,
the latest run's ``metrics.jsonl``, a golden curve) and nothing else.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from canary.errors import CanaryError, ConfigError
from canary.record import RunRecord
from canary.report import model
from canary.report.page import LossView, page

Band = list[tuple[int, float, float]]


def run_losses(run_dir: str | Path) -> list[tuple[int, float]] | None:
    """The per-step loss a run directory holds (its ``metrics.jsonl``); None when it is not on
    this machine or has no per-step metrics."""
    from canary.formats.metrics import load_run_metrics

    path = Path(run_dir)
    if not path.is_dir():
        return None
    try:
        return load_run_metrics(path).losses or None
    except CanaryError:
        return None


def golden_paths(ferry: str, lane: str) -> list[Path]:
    """Where a ferry's golden curve for a lane may be: ``gates/<ferry>.<lane>.golden.json`` (or
    ``gates/golden/<ferry>/<lane>.json``) in each gates directory."""
    from canary.config import search_dirs

    names = [f"{ferry}.{lane}.golden.json", f"golden/{ferry}/{lane}.json", f"golden/{ferry}.{lane}.json"]
    return [d / n for d in search_dirs("gates") for n in names]


def _window_band(data: dict[str, Any]) -> Band | None:
    """A golden of windowed loss means (``loss_windows``: ``{"steps": [first, last], "mean"}``,
    judged within each window's ``rtol``, else ``tolerance.loss_curve.rtol``): the band steps
    across each window."""
    try:
        curve_rtol = float(data["tolerance"]["loss_curve"]["rtol"])
        band: Band = []
        for w in data["loss_windows"]:
            first, last = (int(x) for x in w["steps"])
            mean, rtol = float(w["mean"]), float(w.get("rtol", curve_rtol))
            band += [(first, mean * (1 - rtol), mean * (1 + rtol)), (last, mean * (1 - rtol), mean * (1 + rtol))]
        return band or None
    except (KeyError, TypeError, ValueError):
        return None


def window_means(losses: Sequence[tuple[int, float]], band: Band) -> list[tuple[float, float]]:
    """The run's mean loss over each window of a windowed band (pairs of points with the same
    low and high), at the window's middle: what a windowed golden judges."""
    out = []
    for (first, lo, hi), (last, lo2, hi2) in zip(band[::2], band[1::2], strict=False):
        if (lo, hi) != (lo2, hi2) or last <= first:
            return []
        vals = [v for s, v in losses if first <= s <= last]
        if vals:
            out.append(((first + last) / 2, sum(vals) / len(vals)))
    return out


def parse_band(data: Any) -> Band | None:
    """A golden curve's band as (step, low, high) points, from any of these shapes: the golden
    file's windowed means (``loss_windows`` and ``tolerance.loss_curve.rtol``); ``points`` of
    ``{step, low, high}`` (or ``lower``/``upper``); parallel ``steps`` and ``low``/``high``
    lists; or ``steps`` and ``loss`` with a relative tolerance (``rtol``). None if none fits."""
    if not isinstance(data, dict):
        return None
    if isinstance(data.get("loss_windows"), list):
        return _window_band(data)
    lo_key = next((k for k in ("low", "lower", "min") if k in data), None)
    hi_key = next((k for k in ("high", "upper", "max") if k in data), None)
    try:
        if isinstance(data.get("points"), list):
            pts = data["points"]
            lk = next((k for k in ("low", "lower", "min") if pts and k in pts[0]), None)
            hk = next((k for k in ("high", "upper", "max") if pts and k in pts[0]), None)
            if lk and hk:
                return [(int(p["step"]), float(p[lk]), float(p[hk])) for p in pts]
            if pts and "loss" in pts[0]:
                rtol = float(data.get("rtol", data.get("tolerance", 0.05)))
                return [(int(p["step"]), float(p["loss"]) * (1 - rtol), float(p["loss"]) * (1 + rtol)) for p in pts]
        steps = data.get("steps")
        if isinstance(steps, list):
            if lo_key and hi_key:
                return [
                    (int(s), float(lo), float(hi)) for s, lo, hi in zip(steps, data[lo_key], data[hi_key], strict=False)
                ]
            if isinstance(data.get("loss"), list):
                rtol = float(data.get("rtol", data.get("tolerance", 0.05)))
                return [
                    (int(s), float(v) * (1 - rtol), float(v) * (1 + rtol))
                    for s, v in zip(steps, data["loss"], strict=False)
                ]
    except (KeyError, TypeError, ValueError):
        return None
    return None


def golden_band(ferry: str, lane: str) -> tuple[Band | None, str]:
    """The golden band for a ferry on a lane and the file it came from; (None, "") if there is none."""
    for path in golden_paths(ferry, lane):
        if path.is_file():
            try:
                band = parse_band(json.loads(path.read_text()))
            except (OSError, json.JSONDecodeError):
                band = None
            if band:
                return band, str(path)
    return None, ""


def loss_view(records: Sequence[RunRecord], lane: str, ferry: str | None = None, colour: str = "#1a237e") -> LossView:
    """The series' latest full run's loss chart (or the latest that has per-step losses here,
    saying so), its line in ``colour`` (the series' on the page), against the golden band where
    one exists. A short run (a repro, --steps), an experiment or a cancelled run is not the
    series' latest curve."""
    from canary.history import series
    from canary.report import charts

    label = f"{lane}/{ferry}" if ferry else lane
    runs = series.in_series(records, lane, ferry)
    rs = [r for r in runs if series.charted(r)]
    if not rs:
        return LossView(label, runs[-1].run_id, None, "only short, cancelled or experiment runs: no full curve")
    latest = rs[-1]
    for r in reversed(rs):
        losses = run_losses(r.run_dir)
        if not losses:
            continue
        band, source = golden_band(r.ferry, lane)
        notes = []
        if r is not latest:
            notes.append(f"the latest run, {latest.run_id}, left no per-step losses here; this is the latest that did")
        notes.append(f"golden band from {source}" if band else "no golden curve for this ferry and lane")
        svg = charts.loss_svg(
            losses,
            band,
            title=f"{r.ferry} v{r.ferry_version} on {lane}, {r.run_id}",
            means=window_means(losses, band) if band else None,
            colour=colour,
            gid=f"loss-{charts.series_id(label)}",
        )
        return LossView(label, r.run_id, svg, "; ".join(notes))
    return LossView(
        label,
        latest.run_id,
        None,
        f"no per-step losses: the run directories ({latest.run_dir}) are not on this machine or hold no metrics.jsonl",
    )


def render(
    records: Iterable[RunRecord], location: str = "", generated_at: datetime | None = None, title: str = "canary report"
) -> str:
    """The report page for ``records`` (all lanes present): each series' latest
    :data:`~canary.history.series.WINDOW` runs. Needs matplotlib when there are runs."""
    from canary.history.series import WINDOW, latest
    from canary.report import charts

    records = latest(records, WINDOW)
    lanes = model.lane_views(records)
    colours = charts.series_colours([v.series for v in lanes])  # one colour per series, every chart
    when = (generated_at or datetime.now(UTC)).isoformat(timespec="seconds")
    subtitle = (
        f"{len(records)} runs from {location or 'the history'} (each series' latest {WINDOW} at most); generated {when}"
    )
    return page(
        title=title,
        subtitle=subtitle,
        lanes=lanes,
        details=[model.run_details(r) for r in reversed(records)],
        losses=[loss_view(records, v.lane, v.ferry or None, colours[v.series]) for v in lanes],
        perf_svg=charts.perf_svg(model.perf_series(records), model.PERF_METRICS, model.step_marks(records), colours)
        if records
        else None,
        signatures=model.signature_rows(records),
        colours=colours,
    )


@dataclass(frozen=True)
class Written:
    path: str
    location: str
    runs: int
    lanes: list[str]
    bytes: int
    series: list[str] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "location": self.location,
            "runs": self.runs,
            "lanes": self.lanes,
            "series": self.series,
            "bytes": self.bytes,
        }


def write_report(
    location: str | None, lane: str | None, since: str | None, out: Path, ferry: str | None = None
) -> Written:
    """Reads each series' latest :data:`~canary.history.series.WINDOW` runs from the history
    store (``location``: a path or gs://, None: the default), renders the page and writes it
    to ``out``."""
    from canary.history.lanes import read_records
    from canary.history.series import WINDOW

    where, records = read_records(location, lane, since, ferry, per_series=WINDOW)
    which = "/".join(x for x in (lane, ferry) if x)
    html = render(records, where, title=f"canary report: {which}" if which else "canary report")
    out = Path(out)
    try:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(html, encoding="utf-8")
    except OSError as e:
        raise ConfigError(f"--out {out}: cannot write there: {e.strerror or e}") from None
    from canary.history.series import series_keys

    return Written(
        str(out),
        where,
        len(records),
        sorted({r.lane for r in records}),
        len(html.encode()),
        [str(k) for k in series_keys(records)],
    )
