"""``canary signature PATH``: the failure signature of a run (what it recorded) or of a log."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import click
from rich.markup import escape

from canary import signature as signature_mod
from canary.commands._common import emit_json, handle_errors, json_option
from canary.errors import ConfigError
from canary.formats.directory import RESULT_FILE, decided_log, read_record
from canary.record import RunRecord
from canary.render import console
from canary.text.redact import env_secrets, redact
from canary.textio import LogStream, printable

OUTCOMES = ["failed", "timeout", "never_started", "lost", "stopped"]


@click.command()
@click.argument("logfile", metavar="PATH", type=click.Path(path_type=Path))
@click.option(
    "--outcome",
    type=click.Choice(OUTCOMES),
    default=None,
    help="How the attempt ended, for a bare log that cannot say (a timeout leaves no trace in the log). "
    "A run directory's record says it already.",
)
@click.option(
    "--keep",
    multiple=True,
    metavar="GLOB",
    help="Also keep library frames matching GLOB in the call path (e.g. 'mylib/*'); repeatable. The fingerprint holds "
    "the call path only for a message too terse to name its failure alone.",
)
@click.option(
    "--max-frames",
    type=click.IntRange(min=1),
    default=signature_mod.DEFAULT_MAX_FRAMES,
    show_default=True,
    help="Keep at most this many innermost frames.",
)
@json_option
@handle_errors
def signature(logfile, outcome, keep, max_frames, as_json):
    """Fingerprint the failure of a run or a log: its kind, exception, normalized message, call
    path, and the coarser group (error class and failing op) it shares with related failures.

    PATH may be a run directory: the signature its record (result.json) holds is shown, the one
    the history and the notifier use, gate failures and runs that never started included. For an
    attempt-N folder, that attempt's. Without a record, or for a log file, the log is read (a run
    directory's train.log). Use `-` to read standard input (from a terminal, canary says so on
    stderr; Ctrl-D ends the log).

    Two occurrences of one bug give one fingerprint, whatever the run, host, pid, temp path,
    sizes, jax release or timestamp; two bugs with the same exception type give two.

    Exit status: 0 a failure was found, 1 none (a passing run, a clean log), 2 bad input.
    """
    record, attempt = _record_for(logfile)
    if record is not None:
        if outcome:
            raise ConfigError(f"--outcome is for bare logs: {logfile}'s record says how the run ended")
        sig = signature_mod.of_record(record, attempt)
        source = RESULT_FILE
    else:
        text = _read_log(logfile)
        options = signature_mod.Options(max_frames=max_frames).with_keep(keep)
        sig = signature_mod.extract(text, outcome=outcome, options=options)
        if sig is not None:  # shown as a run's record keeps it: secrets redacted, fingerprint as taken
            secrets = env_secrets(os.environ)
            sig = sig.scrubbed(lambda t: redact(t, secrets))
        source = "log"
    if as_json:
        emit_json({**(sig.to_dict() if sig else NO_FAILURE), "source": source})
    else:
        _render(console(), sig, logfile)
    sys.exit(0 if sig else 1)


NO_FAILURE = {
    "fingerprint": None,
    "group": None,
    "kind": None,
    "exception": None,
    "message": "no failure found",
    "frames": [],
}


def _render(c, sig, logfile: Path) -> None:
    if sig is None:
        c.print(f"no failure found in {escape(printable(str(logfile)))}")
        return
    c.print(
        f"[bold]{escape(printable(sig.fingerprint))}[/]  {escape(printable(sig.kind))}  "
        f"[bold]{escape(printable(sig.exception or '-'))}[/]"
    )
    c.print(escape(printable(sig.message)))
    if sig.group:
        key = signature_mod.group_key(sig.kind, sig.exception, sig.message)
        c.print(f"[dim]group {escape(printable(sig.group))}: {escape(printable(key))}[/]")
    if sig.frames:
        c.print("[dim]call path (outermost first):[/]")
        for f in sig.frames:
            c.print(f"  {escape(printable(f))}")


def _record_for(path: Path) -> tuple[RunRecord | None, int | None]:
    """The run record that speaks for ``path`` (a run directory, its result.json, or one of its
    attempt-N folders) and the attempt it names; ``(None, None)`` for a log."""
    if str(path) == "-":
        return None, None
    attempt = None
    if path.is_dir() and not (path / RESULT_FILE).is_file():
        m = re.fullmatch(r"attempt-(\d+)", path.name)
        if not m or not (path.parent / RESULT_FILE).is_file():
            return None, None
        attempt, path = int(m.group(1)), path.parent
    result = path / RESULT_FILE if path.is_dir() else path
    if result.name != RESULT_FILE or not result.is_file():
        return None, None
    return read_record(result), attempt


def _read_log(logfile: Path) -> str:
    """The log's window (tail and error region), streamed: a log of any size, by path or on
    standard input, in bounded memory; a NUL byte is bad input either way."""
    if str(logfile) == "-":
        if sys.stdin.isatty():  # someone at a terminal: say what is awaited and how to end it
            click.echo("canary: reading a log from standard input (Ctrl-D ends it)", err=True)
        return signature_mod.read_window(LogStream(sys.stdin.buffer, "<stdin>"))
    if logfile.is_dir():
        logfile = decided_log(logfile)
    try:
        with logfile.open("rb") as f:
            return signature_mod.read_window(LogStream(f, str(logfile)))
    except OSError as e:
        raise ConfigError(f"cannot read log {logfile}: {e.strerror or e}") from None
