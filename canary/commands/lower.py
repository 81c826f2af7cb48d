"""``canary lower``: lower a lane's whole train step for TPU / CUDA on this machine (no accelerator)."""

from __future__ import annotations

import io
import sys
from datetime import UTC, datetime

import click

from canary.commands._common import emit_json, handle_errors, json_option
from canary.commands._kernel import kernel_options
from canary.commands._options import (
    ferry_option,
    history_option,
    lane_option,
    out_option,
    run_notify,
    run_notify_options,
)
from canary.render import console, history_line, lowering_report, notify_result

HELP = """Lower the lane's whole train step (forward, backward, optimizer update) for each target
platform on this machine, through JAX's cross-platform lowering: no TPU or GPU needed.

Inputs are abstract shapes at the lane's real per-device batch and sequence, so the kernels'
platform lowering (Pallas/Mosaic on TPU) runs exactly as a cold compile would, in seconds.
A Pallas block-shape failure is traced to its grouped matmul (forward, grad-lhs, grad-rhs).

Each lowered program gets a fingerprint (a sha256 of its StableHLO, source locations
stripped), compared with the one the lane's last passing run recorded: a changed program
misses a shared compilation cache, and the likely cause (a commit on a watched path, a
version change) is named.

A TPU lane (platform tpu) is also lowered whole on its topology when libtpu is installed (the
tpu extra): the lane's chips (accelerator and topology keys, v6e-4 and 2x2: v6e:2x2) as the
mesh, the lane's global batch sharded as the ferry trains; --compile runs libtpu's compiler
on it, and a second identical compile is served from the host's compile cache (said so;
--no-compile-cache compiles afresh). Its grouped-matmul kernel (megablox) is executed in
Pallas interpret mode against XLA's ragged_dot (forward and both gradients): a mismatch fails
the lowering. Without libtpu only one chip's share is lowered, and the result says so.

The preflight is recorded like a run: a run directory under --out per lane, and a record in
the history in a series of its own (the ferry's name with ":preflight", e.g.
tpu/moe-canary:preflight), never counted in the lane's training series. A failure (a
lowering, the compile, parity) is classified and fingerprinted; --notify github (or `canary
notify RUN_DIR`) opens an issue per fingerprint, comments on a recurrence and says when it
recovered. A compiled program's footprint is judged by a memory gate: FAIL over the chip's
HBM, WARN near it or 10% over the series' last recorded footprint.

Exit status: 0 every platform lowered, 1 one failed, 2 bad input, 128 + a signal's number when
stopped by one while notifying (the notification is kept for the next notify).
"""


@click.command(help=HELP)
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
@click.option(
    "--no-history",
    is_flag=True,
    help="Neither compare with the run history nor record the preflight in it.",
)
@out_option("Where the preflight's run directory is written (result.json, lower.json, lower.log).")
@run_notify_options
@click.option(
    "--compile",
    "compile_",
    is_flag=True,
    help="Also compile a TPU lane's program on its topology with libtpu: per-chip memory against the "
    "chip's HBM, compile seconds, the compiled program's fingerprint (needs the tpu extra).",
)
@click.option(
    "--no-compile-cache",
    is_flag=True,
    help="Compile afresh: neither read nor write the host's compile cache, which serves a second identical "
    "compile (same program, topology, jax/libtpu and flags) in well under a second "
    "(~/.cache/canary/tpu-compile/LANE; delete it to clear it).",
)
@click.option(
    "--no-parity",
    is_flag=True,
    help="Skip executing a TPU lane's grouped-matmul kernel for parity (about 20 s on 2 cores).",
)
@click.option(
    "--compile-timeout",
    type=click.FloatRange(min=1),
    default=1800,
    show_default=True,
    help="Seconds before the topology's lowering and compile are killed and reported as a timeout.",
)
@json_option
@handle_errors
def lower(
    lane,
    platforms,
    tiling,
    ragged_dot,
    ferry,
    history,
    no_history,
    out,
    compile_,
    no_compile_cache,
    no_parity,
    compile_timeout,
    as_json,
    **notify_opts,
):
    from canary.formats import signals
    from canary.history import open_on_first_use
    from canary.run.lowering import LowerOptions, against_history, lower_lanes
    from canary.run.preflight import memory_gates, record_report

    notifying = run_notify(notify_opts)  # bad notify flags fail now, not after lowering
    started = datetime.now(UTC)
    report = lower_lanes(
        LowerOptions(
            lane=lane,
            platforms=list(platforms),
            tiling=tiling,
            ragged_dot=ragged_dot,
            ferry=ferry,
            compile=compile_,
            compile_timeout_s=compile_timeout,
            compile_cache=not no_compile_cache,
            parity=not no_parity,
        )
    )
    store = None if no_history else open_on_first_use(history)
    report = report if no_history else against_history(report, ferry, history)
    gates = memory_gates(report, store)
    shown = io.StringIO()
    lowering_report(report, console(file=shown))
    records = record_report(
        report,
        shown.getvalue(),
        ferry_ref=ferry,
        out=out,
        started=started,
        gates=gates,
        history=history,
        store=store,
        record_history=not no_history,
    )
    log = lambda msg: click.echo(f"canary: {msg}", err=True)  # noqa: E731
    notified = _notify(records, notifying, store, log)
    _say(report, records, notified if notifying else None, as_json)
    stopped = next((n.stopped for n in notified if n.stopped is not None), None)
    if stopped is not None:
        log(f"notifying was stopped by {signals.signal_name(stopped)}; what was not sent is kept for the next notify")
        sys.exit(signals.exit_code(stopped))
    sys.exit(0 if report.ok else 1)


def _notify(records, notifying, store, log) -> list:
    """Each preflight told GitHub (an experiment never); stopped meanwhile, the notification is
    kept and the verdict still said."""
    from canary.formats import signals
    from canary.notify.after_run import notify_run, run_facts

    with signals.interruptible():
        return [
            notify_run(r, notifying, run_facts(r, store), store, log=log)
            for r in records
            if notifying and not r.experiment
        ]


def _say(report, records, notified, as_json: bool) -> None:
    """The lowering, each preflight's run directory, reproducer and history line, and what was
    notified (``notified``: None when nothing was to be)."""
    if as_json:
        runs = [
            {"run_id": r.run_id, "run_dir": r.run_dir, "verdict": r.verdict, "fingerprint": r.fingerprint,
             "history": r.context.get("history"),
             "repro": {k: v for k, v in (r.context.get("repro") or {}).items() if k != "script"} or None}
            for r in records
        ]  # fmt: skip
        emit_json(
            {
                **report.to_dict(),
                "runs": runs,
                **({"notify": [n.to_dict() for n in notified]} if notified is not None else {}),
            }
        )
    else:
        c = console()
        lowering_report(report, c)
        for r in records:
            c.print(f"[dim]run directory: {r.run_dir}[/]")
            repro = r.context.get("repro")
            if repro:
                c.print(f"repro.py: {repro['detail']} ({repro['path']})", markup=False, highlight=False)
            c.print(history_line(r.context.get("history"), r))
        for n in notified or []:
            notify_result(n)
