"""``canary lower``: lower a lane's whole train step for TPU / CUDA on this machine (no accelerator)."""

from __future__ import annotations

import sys

import click

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._kernel import kernel_options
from canary.commands._options import ferry_option, history_option, lane_option
from canary.render import console, lowering_report


@click.command()
@lane_option("Lower this lane's settings [default: each platform's own lane].")
@click.option(
    "--platform",
    "platforms",
    multiple=True,
    type=click.Choice(["cpu", "tpu", "cuda"]),
    help="Target platform; repeat for several [default: the lane's, or every accelerator lane's].",
)
@kernel_options
@ferry_option()
@history_option()
@click.option("--no-history", is_flag=True, help="Compare with no run history.")
@json_option
@handle_errors
def lower(lane, platforms, tiling, ragged_dot, ferry, history, no_history, as_json):
    """Lower the lane's whole train step (forward, backward, optimizer update) for each target
    platform on this machine, through JAX's cross-platform lowering: no TPU or GPU needed.

    Inputs are abstract shapes at the lane's real per-device batch and sequence, so the kernels'
    platform lowering (Pallas/Mosaic on TPU) runs exactly as a cold compile would, in seconds.
    A Pallas block-shape failure is traced to its grouped matmul (forward, grad-lhs, grad-rhs).

    Each lowered program gets a fingerprint (a sha256 of its StableHLO, source locations
    stripped), compared with the one the lane's last passing run recorded: a changed program
    misses a shared compilation cache, and the likely cause (a commit on a watched path, a
    version change) is named.

    Exit status: 0 every platform lowered, 1 one failed, 2 bad input.
    """
    from canary.run.lowering import LowerOptions, against_history, lower_lanes

    report = lower_lanes(
        LowerOptions(lane=lane, platforms=list(platforms), tiling=tiling, ragged_dot=ragged_dot, ferry=ferry)
    )
    if not no_history:
        report = against_history(report, ferry, history)
    if as_json:
        emit_json(report.to_dict())
    else:
        lowering_report(report, console())
    sys.exit(0 if report.ok else 1)
