"""``canary signature LOGFILE``: the failure signature of a log (what a run records per attempt),
or of a run directory's log."""

from __future__ import annotations

import sys
from pathlib import Path

import click
from rich.markup import escape

from canary import signature as signature_mod
from canary.commands._common import emit_json, handle_errors, json_option
from canary.errors import ConfigError
from canary.metrics import LOG_FILE
from canary.render import console
from canary.textio import decode

OUTCOMES = ["failed", "timeout", "never_started", "lost", "stopped"]


@click.command()
@click.argument("logfile", type=click.Path(path_type=Path))
@click.option("--outcome", type=click.Choice(OUTCOMES), default=None,
              help="How the attempt ended, when the log cannot say (a timeout leaves no trace in the log).")
@click.option("--keep", multiple=True, metavar="GLOB",
              help="Also keep library frames matching GLOB in the call path (e.g. 'mylib/*'); repeatable.")
@click.option("--max-frames", type=click.IntRange(min=1), default=signature_mod.DEFAULT_MAX_FRAMES, show_default=True,
              help="Keep at most this many innermost frames.")
@json_option
@handle_errors
def signature(logfile, outcome, keep, max_frames, as_json):
    """Fingerprint the failure in LOGFILE: its kind, exception, normalized message and call path.

    LOGFILE may be a run directory (or one of its attempt-N folders): its train.log is read.

    Two occurrences of one bug give one fingerprint, whatever the run, host, pid, temp path or
    timestamp; two bugs with the same exception type give two. Use `-` to read standard input.

    Exit status: 0 a failure was found, 1 the log shows no failure, 2 bad input.
    """
    if str(logfile) == "-":
        text = decode(sys.stdin.buffer.read(), "<stdin>", lenient=True)
    else:
        if logfile.is_dir():
            logfile = logfile / LOG_FILE
        try:
            text = logfile.read_text(errors="replace")
        except OSError as e:
            raise ConfigError(f"cannot read log {logfile}: {e.strerror or e}") from None
    options = signature_mod.Options(max_frames=max_frames).with_keep(keep)
    sig = signature_mod.extract(text, outcome=outcome, options=options)
    if as_json:
        emit_json(sig.to_dict() if sig else {"fingerprint": None, "kind": None, "exception": None,
                                             "message": "no failure found", "frames": []})
    else:
        c = console()
        if sig is None:
            c.print(f"no failure found in {escape(str(logfile))}")
        else:
            c.print(f"[bold]{sig.fingerprint}[/]  {sig.kind}  [bold]{escape(sig.exception or '-')}[/]")
            c.print(escape(sig.message))
            if sig.frames:
                c.print("[dim]call path (outermost first):[/]")
                for f in sig.frames:
                    c.print(f"  {escape(f)}")
    sys.exit(0 if sig else 1)
