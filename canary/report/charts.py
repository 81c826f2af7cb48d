"""The report's charts: matplotlib figures rendered to inline SVG (text kept as text, no
external fonts or images). matplotlib is imported here only, on first use, with the Agg
backend, so the rest of canary starts without it; :class:`PlottingUnavailable` says when it
is missing (``pip install matplotlib``; canary's own install brings it). The loss image
``canary run`` leaves in a run directory is plain SVG written here without matplotlib: its
import and its teardown (about 1.5 s of CPU) would sit between the training and the exit."""

from __future__ import annotations

import io
import math
from collections.abc import Sequence
from datetime import datetime
from html import escape
from typing import Any

from canary.errors import CanaryError

INSTALL_HINT = "pip install matplotlib"

# The series' colours (matplotlib's tab10, grey left out: it is the cancelled cells' colour),
# dealt out in the order of the sorted series keys by :func:`series_colours`.
PALETTE = ("#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2", "#bcbd22", "#17becf")


def series_colours(labels: Sequence[str]) -> dict[str, str]:
    """One colour per series (``cpu/moe-canary``), from the sorted labels, for every chart and
    the legend of a page: a series keeps its colour in every panel, whichever panels it has
    figures in. Past the palette the colours repeat. Pure."""
    return {label: PALETTE[i % len(PALETTE)] for i, label in enumerate(sorted(set(labels)))}


def series_id(label: str) -> str:
    """An id fragment for a series (``cpu/moe-canary`` -> ``cpu-moe-canary``). Pure."""
    return "".join(c if c.isalnum() or c in "-_" else "-" for c in label)


class PlottingUnavailable(CanaryError):
    """matplotlib is not installed (exit 2: this machine cannot draw, as with bad input)."""

    exit_code = 2


def _pyplot() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise PlottingUnavailable(f"charts need matplotlib, which is not installed ({INSTALL_HINT})") from None
    matplotlib.use("Agg", force=True)
    import matplotlib.pyplot as plt

    plt.rcParams.update(
        {
            "svg.fonttype": "none",  # text as <text>, sized by the page's own fonts
            "svg.hashsalt": "canary",  # stable element ids: the same data gives the same page
            "font.size": 9,
            "axes.spines.top": False,
            "axes.spines.right": False,
        }
    )
    return plt


def to_svg(fig: Any) -> str:
    """The figure as an ``<svg>`` element (no XML prolog or doctype), then closed."""
    plt = _pyplot()
    buf = io.StringIO()
    try:
        fig.savefig(buf, format="svg", bbox_inches="tight", metadata={"Date": None})
    finally:
        plt.close(fig)
    text = buf.getvalue()
    return text[text.index("<svg") :]


def loss_figure(
    losses: Sequence[tuple[int, float]],
    band: Sequence[tuple[int, float, float]] | None = None,
    title: str = "",
    size: tuple[float, float] = (7.0, 3.0),
    means: Sequence[tuple[float, float]] | None = None,
    colour: str = "#1a237e",
    gid: str | None = None,
) -> Any:
    """The loss per step, in ``colour`` (the series'); with ``band`` (step, low, high), the golden
    band behind it, and with ``means`` (step, loss), the run's windowed means that a windowed
    golden judges."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=size)
    if band:
        ax.fill_between(
            [b[0] for b in band],
            [b[1] for b in band],
            [b[2] for b in band],
            color="#90caf9",
            alpha=0.5,
            linewidth=0,
            label="golden band",
        )
    ax.plot([s for s, _ in losses], [v for _, v in losses], color=colour, linewidth=1.2, label="train/loss", gid=gid)
    if means:
        ax.plot([s for s, _ in means], [v for _, v in means], "o", color="#212121", markersize=4, label="window mean")
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    if title:
        ax.set_title(title, loc="left", fontsize=9)
    if band:
        ax.legend(loc="upper right", frameon=False)
    ax.grid(alpha=0.3)
    return fig


def loss_svg(
    losses: Sequence[tuple[int, float]],
    band: Sequence[tuple[int, float, float]] | None = None,
    title: str = "",
    means: Sequence[tuple[float, float]] | None = None,
    colour: str = "#1a237e",
    gid: str | None = None,
) -> str:
    return to_svg(loss_figure(losses, band, title, means=means, colour=colour, gid=gid))


def nice_ticks(lo: float, hi: float, count: int = 5, least: float = 0.0) -> list[float]:
    """Round tick values (1, 2 or 5 times a power of ten apart, ``least`` at the closest) within
    [lo, hi]. Pure."""
    if not hi > lo:
        return [lo]
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = max(next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw), least)
    first = math.ceil(lo / step - 1e-9)
    return [round(i * step, 12) for i in range(first, math.floor(hi / step + 1e-9) + 1)]


def loss_image_svg(losses: Sequence[tuple[int, float]], title: str = "") -> str:
    """The loss per step as a small standalone SVG document (700 x 300), drawn without
    matplotlib: axes with round ticks, a light grid, one line (broken where the loss is not
    finite), "step" and "loss" labels, the title. ``canary run``'s loss image; the report's
    charts are matplotlib's. Pure."""
    w, h, left, right, top, bottom = 700, 300, 58, 16, 28, 40
    pts = [(float(s), float(v)) for s, v in losses]
    finite = [(s, v) for s, v in pts if math.isfinite(v)]
    x0, x1 = min(s for s, _ in pts), max(s for s, _ in pts)
    x0, x1 = (x0 - 1, x1 + 1) if x0 == x1 else (x0, x1)
    y0, y1 = (min(v for _, v in finite), max(v for _, v in finite)) if finite else (0.0, 1.0)
    pad = (y1 - y0) * 0.05 or 0.5
    y0, y1 = y0 - pad, y1 + pad

    def px(x: float) -> float:
        return left + (x - x0) / (x1 - x0) * (w - left - right)

    def py(y: float) -> float:
        return h - bottom - (y - y0) / (y1 - y0) * (h - top - bottom)

    out = [
        '<?xml version="1.0" encoding="utf-8" standalone="no"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" viewBox="0 0 {w} {h}" '
        'font-family="DejaVu Sans, sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="#ffffff"/>',
    ]
    for t in nice_ticks(x0, x1, least=1):  # steps are whole
        out.append(
            f'<line x1="{px(t):.1f}" y1="{top}" x2="{px(t):.1f}" y2="{h - bottom}" stroke="#b0b0b0" '
            f'stroke-opacity="0.3"/><text x="{px(t):.1f}" y="{h - bottom + 15}" text-anchor="middle">{t:g}</text>'
        )
    for t in nice_ticks(y0, y1):
        out.append(
            f'<line x1="{left}" y1="{py(t):.1f}" x2="{w - right}" y2="{py(t):.1f}" stroke="#b0b0b0" '
            f'stroke-opacity="0.3"/><text x="{left - 6}" y="{py(t) + 4:.1f}" text-anchor="end">{t:g}</text>'
        )
    out.append(f'<path d="M{left} {top}V{h - bottom}H{w - right}" fill="none" stroke="#000000" stroke-width="0.8"/>')
    runs: list[list[tuple[float, float]]] = [[]]
    for s, v in pts:
        if math.isfinite(v):
            runs[-1].append((px(s), py(v)))
        elif runs[-1]:
            runs.append([])
    for run in runs:
        if run:
            coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in run)
            out.append(
                f'<polyline points="{coords}" fill="none" stroke="#1a237e" stroke-width="1.6" stroke-linejoin="round"/>'
            )
    out.append(f'<text x="{(left + w - right) / 2:.0f}" y="{h - 6}" text-anchor="middle">step</text>')
    out.append(
        f'<text transform="translate(14 {(top + h - bottom) / 2:.0f}) rotate(-90)" text-anchor="middle">loss</text>'
    )
    if title:
        out.append(f'<text x="{left}" y="{top - 10}">{escape(title)}</text>')
    out.append("</svg>")
    return "\n".join(out) + "\n"


def write_loss_image(path: str, losses: Sequence[tuple[int, float]], title: str = "") -> None:
    """Writes the loss curve to ``path`` as SVG (:func:`loss_image_svg`)."""
    with open(path, "w", encoding="utf-8") as f:
        f.write(loss_image_svg(losses, title))


def _when(iso: str) -> datetime | None:
    try:
        return datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return None


def perf_svg(
    series: Sequence[Any],
    metrics: Sequence[tuple[str, str]],
    marks: Sequence[Any] = (),
    colours: dict[str, str] | None = None,
) -> str:
    """One row per metric, one line per series, over the runs' start times (runs without the
    metric are left out of its line), each series in its colour of ``colours`` (label to
    colour; :func:`series_colours` of the series when not given) in every row, its line's group
    id ``perf-<metric>-<series>``; each change point in ``marks`` (lane, ferry, chart,
    started_at, label, worse) a dashed vertical line at its run, in its series' colour,
    labelled with its size. The page's legend names the colours."""
    plt = _pyplot()
    colours = colours or series_colours([s.label for s in series])
    fig, axes = plt.subplots(len(metrics), 1, figsize=(12.0, 1.4 * len(metrics)), sharex=True, squeeze=False)
    for (key, label), ax in zip(metrics, axes[:, 0], strict=True):
        for s in series:
            pts = [
                (t, v)
                for t, v in zip(map(_when, s.started_at), s.values[key], strict=False)
                if t is not None and v is not None
            ]
            if pts:
                colour = colours[s.label]
                ax.plot(
                    [t for t, _ in pts],
                    [v for _, v in pts],
                    marker="o",
                    markersize=3,
                    linewidth=1,
                    color=colour,
                    label=s.label,
                    gid=f"perf-{key}-{series_id(s.label)}",
                )
                for m in marks:
                    when = _when(m.started_at)
                    if (m.lane, m.ferry, m.chart) == (s.lane, s.ferry, key) and when is not None:
                        ax.axvline(when, color=colour, linestyle="--", linewidth=1, gid=f"step-{m.run_id}")
                        ax.annotate(
                            f"step {m.label}",
                            (when, 1.0),
                            xycoords=("data", "axes fraction"),
                            xytext=(3, -2),
                            textcoords="offset points",
                            va="top",
                            fontsize=7,
                            color="#c62828" if m.worse else "#2e7d32",
                        )
        ax.set_ylabel(label.replace(" (", "\n("))  # two short lines: the rows are low
        ax.grid(alpha=0.3)
        if not ax.has_data():
            ax.text(0.5, 0.5, "not recorded", transform=ax.transAxes, ha="center", va="center", color="#757575")
    fig.autofmt_xdate()
    fig.align_ylabels(axes[:, 0])
    return to_svg(fig)
