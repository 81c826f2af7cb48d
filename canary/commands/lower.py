"""``canary lower``: lower a lane's whole train step for TPU / CUDA on this machine (no accelerator)."""

from __future__ import annotations

import sys

import click
from rich.table import Table

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._kernel import kernel_options
from canary.render import console


def render_report(report, c) -> None:
    t = Table(title=f"cross-platform lowering of {report.ferry}", title_justify="left")
    for col in ("platform", "lane", "ragged_dot", "tiling", "batch x seq (per device)", "seconds", "result"):
        t.add_column(col)
    for p in report.platforms:
        t.add_row(p.platform, p.lane, p.ragged_dot, p.tiling, f"{p.batch_size} x {p.seq_len}",
                  f"{p.seconds:.2f}", "[bold green]OK[/]" if p.ok else "[bold red]FAILED[/]")
    c.print(t)
    for p in report.platforms:
        for note in p.notes:
            c.print(f"[dim]{p.platform}: {note}[/]", highlight=False)
        if p.ok:
            continue
        c.print(f"[bold red]{p.platform}[/] (lane {p.lane}):", highlight=False)
        c.print(p.error, markup=False, highlight=False)
        if p.block_shape is not None:
            c.print(f"  kernel       {p.kernel}", markup=False)
            c.print(f"  grouped mm   {p.gmm or 'unknown'}" + (f" of the {p.projection} projection" if p.projection else ""),
                    markup=False)
            c.print(f"  array shape  {tuple(p.array_shape)}", markup=False)
            c.print(f"  block shape  {tuple(p.block_shape)}", markup=False)
            c.print(f"  diagnosis    {p.diagnosis}", markup=False)
        for i, frame in enumerate(p.call_path):
            c.print(f"  {'call path' if i == 0 else '':<12} {frame}", markup=False)
        if p.owner:
            c.print(f"  owned by     {p.owner} (the failing frame's distribution)", markup=False)
        if p.block_shape is not None:
            others = [f for f in p.failures if (f["gmm"], f["projection"]) != (p.gmm, p.projection)]
            for f in others:
                c.print(f"  also fails   {f['gmm']} of the {f['projection']} projection: "
                        f"block {tuple(f.get('block_shape') or ())} on {f.get('tensor') or f.get('operand')} "
                        f"{tuple(f.get('array_shape') or ())}",
                        markup=False)


@click.command()
@click.option("--lane", default=None, help="Lower this lane's settings [default: each platform's own lane].")
@click.option("--platform", "platforms", multiple=True, type=click.Choice(["cpu", "tpu", "cuda"]),
              help="Target platform; repeat for several [default: the lane's, or every accelerator lane's].")
@kernel_options
@click.option("--ferry", default="moe-canary", show_default=True, help="Ferry name or TOML path.")
@json_option
@handle_errors
def lower(lane, platforms, tiling, ragged_dot, ferry, as_json):
    """Lower the lane's whole train step (forward, backward, optimizer update) for each target
    platform on this machine, through JAX's cross-platform lowering: no TPU or GPU needed.

    Inputs are abstract shapes at the lane's real per-device batch and sequence, so the kernels'
    platform lowering (Pallas/Mosaic on TPU) runs exactly as a cold compile would, in seconds.
    A Pallas block-shape failure is traced to its grouped matmul (forward, grad-lhs, grad-rhs).

    Exit status: 0 every platform lowered, 1 one failed, 2 bad input.
    """
    from canary.run.lowering import LowerOptions, lower_lanes

    report = lower_lanes(LowerOptions(lane=lane, platforms=list(platforms), tiling=tiling,
                                      ragged_dot=ragged_dot, ferry=ferry))
    if as_json:
        emit_json(report.to_dict())
    else:
        render_report(report, console())
    sys.exit(0 if report.ok else 1)
