"""``canary report``: the history as one self-contained HTML page."""

from __future__ import annotations

from pathlib import Path

import click
from rich.markup import escape

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._options import ferry_option, history_option, lane_option
from canary.render import console


@click.command()
@lane_option("Only this lane's runs [default: every lane].")
@ferry_option(None, help="Only this ferry's runs [default: every ferry].", metavar="NAME")
@click.option(
    "--since", default=None, metavar="DATE", help="Only runs started on or after DATE (YYYY-MM-DD or ISO time)."
)
@history_option()
@click.option(
    "--out",
    type=click.Path(dir_okay=False, path_type=Path),
    default=Path("report.html"),
    show_default=True,
    help="Where the page is written.",
)
@json_option
@handle_errors
def report(lane, ferry, since, history, out, as_json):
    """Render the history as one self-contained HTML page (no network needed to view it): a
    timeline per series (one lane, one ferry), one cell per run coloured and labelled by
    classification, each opening the run's verdict, gates with margins, signature, cache facts,
    versions and links; each series' latest full run's loss curve against its golden band where
    one exists (a short run, fewer steps than the ferry's, is shown but never counted); step time, tokens/s and compile
    seconds across runs; and the failure signatures with first and last seen, runs and streak.
    Each series' latest 365 runs are shown; the older stay in the history (`canary history --json`).

    Needs matplotlib (canary's own install brings it). Exit status: 0 written, 2 bad input (an
    unknown lane, no matplotlib).
    """
    from canary.report import write_report

    written = write_report(history, lane, since, out, ferry)
    if as_json:
        emit_json(written.to_dict())
        return
    n = len(written.series)
    console().print(
        f"wrote {escape(written.path)}: {written.runs} runs in {n} series "
        f"({escape(', '.join(written.series)) or 'none'}) from {escape(written.location)}",
        highlight=False,
        soft_wrap=True,
    )
