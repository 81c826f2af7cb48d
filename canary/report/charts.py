"""The report's charts: matplotlib figures rendered to inline SVG (text kept as text, no
external fonts or images). matplotlib is imported here only, on first use, with the Agg
backend, so the rest of canary starts without it; :class:`PlottingUnavailable` says when it
is missing (``pip install matplotlib``; canary's own install brings it)."""

from __future__ import annotations

import io
from datetime import datetime
from typing import Any, Sequence

from canary.errors import CanaryError

INSTALL_HINT = "pip install matplotlib"


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

    plt.rcParams.update({
        "svg.fonttype": "none",  # text as <text>, sized by the page's own fonts
        "svg.hashsalt": "canary",  # stable element ids: the same data gives the same page
        "font.size": 9,
        "axes.spines.top": False,
        "axes.spines.right": False,
    })
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
    return text[text.index("<svg"):]


def loss_figure(losses: Sequence[tuple[int, float]], band: Sequence[tuple[int, float, float]] | None = None,
                title: str = "", size: tuple[float, float] = (7.0, 3.0),
                means: Sequence[tuple[float, float]] | None = None) -> Any:
    """The loss per step; with ``band`` (step, low, high), the golden band behind it, and with
    ``means`` (step, loss), the run's windowed means that a windowed golden judges."""
    plt = _pyplot()
    fig, ax = plt.subplots(figsize=size)
    if band:
        ax.fill_between([b[0] for b in band], [b[1] for b in band], [b[2] for b in band],
                        color="#90caf9", alpha=0.5, linewidth=0, label="golden band")
    ax.plot([s for s, _ in losses], [v for _, v in losses], color="#1a237e", linewidth=1.2, label="train/loss")
    if means:
        ax.plot([s for s, _ in means], [v for _, v in means], "o", color="#d84315", markersize=4, label="window mean")
    ax.set_xlabel("step")
    ax.set_ylabel("loss")
    if title:
        ax.set_title(title, loc="left", fontsize=9)
    if band:
        ax.legend(loc="upper right", frameon=False)
    ax.grid(alpha=0.3)
    return fig


def loss_svg(losses: Sequence[tuple[int, float]], band: Sequence[tuple[int, float, float]] | None = None,
             title: str = "", means: Sequence[tuple[float, float]] | None = None) -> str:
    return to_svg(loss_figure(losses, band, title, means=means))


def write_loss_image(path: str, losses: Sequence[tuple[int, float]], title: str = "") -> None:
    """Writes the loss curve to ``path`` (the suffix picks the format: .svg, .png)."""
    plt = _pyplot()
    fig = loss_figure(losses, None, title)
    try:
        fig.savefig(path, bbox_inches="tight", metadata={"Date": None} if str(path).endswith(".svg") else None)
    finally:
        plt.close(fig)


def _when(iso: str) -> datetime | None:
    try:
        return datetime.fromisoformat(iso)
    except (TypeError, ValueError):
        return None


def perf_svg(series: Sequence[Any], metrics: Sequence[tuple[str, str]]) -> str:
    """One row per metric, one line per lane, over the runs' start times (runs without the
    metric are left out of its line)."""
    plt = _pyplot()
    fig, axes = plt.subplots(len(metrics), 1, figsize=(7.0, 1.9 * len(metrics)), sharex=True, squeeze=False)
    for (key, label), ax in zip(metrics, axes[:, 0]):
        for s in series:
            pts = [(t, v) for t, v in zip(map(_when, s.started_at), s.values[key]) if t is not None and v is not None]
            if pts:
                ax.plot([t for t, _ in pts], [v for _, v in pts], marker="o", markersize=3, linewidth=1, label=s.lane)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
        if ax.has_data() and len(series) > 1:
            ax.legend(loc="best", frameon=False, fontsize=8)
        if not ax.has_data():
            ax.text(0.5, 0.5, "not recorded", transform=ax.transAxes, ha="center", va="center", color="#757575")
    fig.autofmt_xdate()
    return to_svg(fig)
