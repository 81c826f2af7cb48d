"""Rich renderings shared by the commands."""

from __future__ import annotations

import math
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from rich import box
from rich.console import Console
from rich.table import Table

from canary.judge.results import fmt, gate_value
from canary.record.cache_facts import cache_read_errors, verified_words
from canary.textio import printable


def fold_skips(gates: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive gates skipped for one reason (a quick run skips every golden gate) as one row
    that names them; ``--json`` keeps every gate."""
    groups: list[list[dict[str, Any]]] = []
    for g in gates:
        prev = groups[-1][-1] if groups else None
        if (
            prev
            and g["status"] == "SKIP" == prev["status"]
            and g.get("detail")
            and g.get("detail") == prev.get("detail")
            and g.get("value") is None
            and prev.get("value") is None
        ):
            groups[-1].append(g)
        else:
            groups.append([g])
    return [
        group[0]
        if len(group) == 1
        else {
            **group[0],
            "name": f"{group[0]['name']} … {group[-1]['name']} ({len(group)})"
            if len(group) > 2
            else f"{group[0]['name']}, {group[1]['name']}",
        }
        for group in groups
    ]


WIDE_TABLE = 100  # narrower than this, a gate's detail goes under the table: its name is never cut


def gates_table(gates: Iterable[dict[str, Any]], title: str = "Gates", width: int | None = None):
    """The gates as a table. Below ``WIDE_TABLE`` columns (a pipe at 80, a narrow terminal) the
    details are listed under the table, one per gate, so that no gate's name is cut."""
    from rich.console import Group
    from rich.markup import escape
    from rich.text import Text

    rows = fold_skips(list(gates))
    narrow = width is not None and width < WIDE_TABLE
    t = Table(title=title, title_justify="left")
    t.add_column("check", no_wrap=True, min_width=max((len(g["name"]) for g in rows), default=5))
    t.add_column("value", justify="right")
    t.add_column("threshold", justify="right")
    t.add_column("margin", justify="right")
    t.add_column("status")
    if not narrow:
        t.add_column("detail", style="dim")
    for g in rows:
        style = {"PASS": "bold green", "SKIP": "bold yellow", "WARN": "bold magenta"}.get(g["status"], "bold red")
        margin = g.get("margin")
        cells = [
            g["name"],
            gate_value(g),
            fmt(g["threshold"]),
            "" if margin is None else f"{margin * 100:+.1f}%",
            f"[{style}]{g['status']}[/]",
        ]
        t.add_row(*cells, *([] if narrow else [g.get("detail", "")]))
    if not narrow:
        return t
    details = [
        Text.from_markup(f"[dim]{escape(g['name'])}: {escape(str(g['detail']))}[/]") for g in rows if g.get("detail")
    ]
    return Group(t, *details)


def verdict_line(verdict: str, what: str) -> str:
    if verdict == "cancelled":
        return f"[bold yellow]CANCELLED[/] {what}"
    return f"[bold green]PASS[/] {what}" if verdict == "pass" else f"[bold red]FAIL[/] {what}"


def _programs(n: int) -> str:
    return f"{n} program{'s' if n != 1 else ''}"


def cache_served(cache: dict[str, Any]) -> str:
    """What the compilation cache did for a run, in words: ``filled with 33 programs (none were
    cached yet)`` on a first run, ``all 33 programs read from it`` on the next, ``20 of 33
    programs read from it, 13 compiled and stored`` in between; ``bypassed (--cold)``. A program
    missed is stored unless a cache error says otherwise."""
    requests, hits = int(cache.get("requests") or 0), int(cache.get("hits") or 0)
    if cache.get("mode") == "cold":
        return "bypassed (--cold): nothing read or stored"
    if cache.get("mode") == "verify":
        return "verify: " + verified_words(cache)
    if requests == 0:
        return "not asked for any program"
    stored = "compiled" if cache.get("errors") else "compiled and stored"
    if hits == 0:
        return (
            f"none of {_programs(requests)} read from it, all compiled"
            if cache.get("errors")
            else f"filled with {_programs(requests)} (none were cached yet)"
        )
    if hits >= requests:
        return f"all {_programs(requests)} read from it"
    return f"{hits} of {_programs(requests)} read from it, {requests - hits} {stored}"


def cache_line(cache: dict[str, Any]) -> str:
    """The compilation cache facts of a run, in one line."""
    from rich.markup import escape

    parts = [f"compilation cache: {cache_served(cache)}"]
    if cache.get("compile_seconds") is not None:
        parts.append(f"train step compiled in {cache['compile_seconds']:.2f}s")
    if cache.get("errors"):
        parts.append(f"[bold red]{len(cache['errors'])} cache errors[/]: {escape(str(cache['errors'][0]))}")
    if cache.get("dir") and cache.get("mode") in ("warm", "verify"):
        parts.append(f"[dim]{escape(str(cache['dir']))}[/]")
    return "  ".join(parts)


def cache_brief(cache: dict[str, Any] | None) -> str:
    """``warm 12/12 hits``, ``cold``, ``warm 3/12 hits, 1 read error``; ``—`` when unknown."""
    if not cache:
        return "—"
    parts = [str(cache.get("mode") or "?")]
    if cache.get("requests"):
        parts.append(f"{cache.get('hits', 0)}/{cache['requests']} hits")
    n = len(cache_read_errors(cache))
    if n:
        parts.append(f"{n} read error{'s' if n != 1 else ''}")
    return " ".join(parts[:2]) + (", " + parts[2] if len(parts) > 2 else "")


class _Console(Console):
    """A rich console that shows text, never acts on it: every string it renders (printed, or a
    table's cell) loses its control sequences first (a log's window title, clipboard write,
    hyperlink or clear-screen reaches no terminal)."""

    def render_str(self, text: str, *args: Any, **kwargs: Any):
        return super().render_str(printable(text), *args, **kwargs)


# The width of output to a pipe or a file (a CI log, a saved report) when COLUMNS does not give
# one: there every line is data (paths, errors, call paths), never cut or wrapped at 80 columns.
UNWRAPPED = 10_000


def console(stderr: bool = False, file: Any = None) -> Console:
    """A console for the command's output (stdout, stderr or ``file``). A terminal's width is its
    own; a pipe or a file gets lines as long as what they hold, unless COLUMNS sets a width."""
    c = _Console(stderr=stderr, file=file, highlight=False)
    if not c.is_terminal and not os.environ.get("COLUMNS"):
        c.width = UNWRAPPED
    return c


def failure_line(record: Any) -> str:
    """``classification  kind  fingerprint  exception: message`` of a failed run (rich markup)."""
    from rich.markup import escape

    sig = record.signature
    parts = [f"[bold]{record.classification or 'unclassified'}[/]"]
    if sig:
        parts += [sig.kind, f"[bold]{sig.fingerprint}[/]"]
        what = f"{sig.exception}: {sig.message}" if sig.exception else sig.message
        what = " ".join(printable(what).split())
        parts.append(escape(what if len(what) <= 160 else what[:157] + "..."))
    return "  ".join(parts)


def steps_cell(record: Any) -> str:
    """A run's steps against what it was to train: ``200``; ``5 of 30`` (it stopped early, a
    crash or a stop); ``3 of 200, a short run of 3`` (it asked for fewer than its ferry's)."""
    from canary.history import series

    done, asked, ferry = record.steps_completed, record.steps_requested, record.ferry_steps
    if series.is_short(record):
        return f"{fmt(done)} of {fmt(ferry)}, a short run of {fmt(asked)}"
    goal = asked or ferry
    return f"{fmt(done)} of {fmt(goal)}" if done is not None and goal and done < goal else fmt(done)


def history_line(status: dict[str, Any] | None, record: Any = None) -> str:
    """How the run went into the history; with its ``record``, in which series (lane/ferry), and
    whether it was a short run (fewer steps than the ferry's) or an experiment (a ferry or gates
    file not the pinned one): listed, never counted."""
    from rich.markup import escape

    from canary.history import series

    if not status:
        return "[dim]history: not recorded[/]"
    if status.get("status") == "stored":
        where = f"history: recorded in {escape(status['location'])}"
        if record is None:
            return f"[dim]{where}[/]"
        name = escape(str(series.series_of(record)))
        if series.is_experiment(record):
            return (
                f"[yellow]{where}, series {name}, as an experiment: listed apart, never the series' "
                "last pass, streak, flakiness, charts or notifications[/]"
            )
        if series.is_short(record):
            return (
                f"[dim]{where}, series {name}, as a short run ({record.steps_requested} of the ferry's "
                f"{record.ferry_steps} steps): listed, never the series' last pass or streak[/]"
            )
        return f"[dim]{where}, series {name}[/]"
    line = f"[yellow]history: {status.get('status')} ({escape(status.get('detail', ''))})[/]"
    if status.get("pending"):
        pending = Path(status["pending"])
        line += (
            f"\n[yellow]history: the record waits in {escape(str(pending))}; "
            f"`canary history import {escape(str(pending.parent))}` adds it[/]"
        )
    return line


def narrow_table(title: str, columns: Iterable[str], numeric: Iterable[str] = ()) -> Table:
    """A table that fits 80 columns without cutting anything: no vertical rules, one space
    between columns, and every cell (header included) wrapped or folded onto more lines rather
    than shortened with an ellipsis."""
    numeric = set(numeric)
    t = Table(title=title, title_justify="left", box=box.SIMPLE_HEAD, padding=0, pad_edge=False)
    for col in columns:
        t.add_column(col, overflow="fold", justify="right" if col in numeric else "left")
    return t


VERDICT_GLYPHS = {"P": ("✓", "green"), "F": ("✗", "red")}


def verdict_strip(strip: str) -> str:
    """A strip of verdicts (``P``/``F``, oldest first) as rich markup whose glyphs differ as
    well as their colours: ``✓`` pass, ``✗`` fail, so it reads the same without colour."""
    return "".join(
        f"[{VERDICT_GLYPHS.get(c, ('?', 'yellow'))[1]}]{VERDICT_GLYPHS.get(c, ('?', 'yellow'))[0]}[/]" for c in strip
    )


SPARK = "▁▂▃▄▅▆▇█"


def sparkline(values: Iterable[float], width: int = 32) -> str:
    """The values as one line of block characters, ``width`` at most (averaged into that many
    buckets, oldest first); non-finite values show as ``×``. Pure."""
    vals = list(values)
    if not vals:
        return ""
    n = min(width, len(vals))
    buckets = [vals[i * len(vals) // n : (i + 1) * len(vals) // n] for i in range(n)]
    means = [None if any(not math.isfinite(v) for v in b) else sum(b) / len(b) for b in buckets]
    finite = [m for m in means if m is not None]
    if not finite:
        return "×" * n
    lo, hi = min(finite), max(finite)
    scale = (len(SPARK) - 1) / (hi - lo) if hi > lo else 0.0
    return "".join("×" if m is None else SPARK[round((m - lo) * scale)] for m in means)


def notify_result(result: Any) -> None:
    """What a notification did (a :class:`canary.notify.NotifyResult`), per run: the calls and
    markdown of a dry run (printed byte for byte, as they would be posted), what was posted, or why
    nothing was."""
    import click
    from rich.markup import escape

    out = console()
    for d in result.deliveries:
        label = f"run {d.run_id}" + (" (spooled earlier)" if d.resent else "")
        if d.status == "dry-run":
            # plain echo, not rich: the markdown is printed byte for byte as it would be posted
            if d.error:
                what = "GitHub was unreachable" if d.unreachable else "GitHub could not be read"
                click.echo(
                    f"dry run for {label}: {what}, nothing was posted; deciding as if the repository "
                    "had no canary issues, these calls would be made (a guess, so the exit status is 1: "
                    "with the open issues read, a recurrence comments instead of opening one)"
                )
            elif not d.calls:
                click.echo(f"dry run for {label}: nothing to say, so GitHub was not contacted")
            else:
                click.echo(f"dry run for {label}: nothing was posted; these calls would be made")
            for call in d.calls:
                click.echo(f"  {call}")
            for i, m in enumerate(d.messages, 1):
                click.echo(f"\n--- markdown {i}: {m['call']}" + (f"  title: {m['title']}" if m["title"] else ""))
                click.echo(m["body"], nl=False)
        elif d.status == "failed":
            out.print(f"[red]notify failed[/] for {label}: {d.error} (the verdict stands)", highlight=False)
        elif d.status in ("spooled", "given-up"):
            to = f" to {d.repo}" if d.repo else ""
            where = escape(d.spool_path or "the history")
            out.print(f"[yellow]not sent[/] {label}{to}: {escape(d.error or '')}", highlight=False)
            if d.status == "spooled":
                out.print(f"  kept in {where}; the next notify sends it", highlight=False)
            else:
                out.print(
                    f"  GitHub refused it for good: kept in {where} as given up, never resent by itself; "
                    f"`canary notify --pending` lists it, `canary notify --resend {d.run_id} --repo OWNER/NAME` "
                    f"sends it, `canary notify --drop {d.run_id}` removes it",
                    highlight=False,
                )
        else:
            if not d.actions:
                out.print(f"{label}: nothing to say")
            for a in d.actions:
                out.print(f"{label}: {a.kind} #{a.issue} {a.url or ''} {a.detail}".rstrip(), highlight=False)


def pending_table(rows: list[dict[str, Any]], unreadable: list[str], out: Console) -> None:
    """``canary notify --pending``: a line per notification that waits (its state, repository,
    tries and where it is), its last error and why it is not resent by itself; then the files
    that cannot be read."""
    if not rows and not unreadable:
        out.print("no notification waits")
    for r in rows:
        head = f"{r['run_id']}  {r['state']}  {r['repo']}  tries {r['tries']}  {r['where']}"
        lines = [head] + [f"  {k}: {r[k]}" for k in ("error", "note") if r[k]]
        for line in lines:
            out.print(printable(str(line)), markup=False, highlight=False)
    for line in unreadable:
        out.print(printable(f"unreadable: {line}"), markup=False, highlight=False)


def lowering_report(report: Any, c: Console) -> None:
    """A cross-platform lowering (a :class:`canary.run.lowering.LowerReport`): a row per platform, its
    program's fingerprint against the last pass's, and for a failure its error and the grouped
    matmul, shapes and diagnosis it was traced to."""
    from rich.markup import escape

    t = Table(title=f"cross-platform lowering of {report.ferry}", title_justify="left")
    for col in ("platform", "lane", "ragged_dot", "tiling", "batch x seq (per device)", "seconds", "program", "result"):
        t.add_column(col)
    for p in report.platforms:
        t.add_row(
            p.platform,
            p.lane,
            p.ragged_dot,
            p.tiling,
            f"{p.batch_size} x {p.seq_len}",
            f"{p.seconds:.2f}",
            (p.fingerprint or "—")[:12],
            "[bold green]OK[/]" if p.ok else "[bold red]FAILED[/]",
        )
    c.print(t)
    for p in report.platforms:
        for note in p.notes:
            c.print(f"[dim]{p.platform}: {escape(note)}[/]", highlight=False)
        for line in report.check_lines(p):
            c.print(line, markup=False, highlight=False)
        if p.program and p.program.get("message"):
            c.print(
                ("[yellow]" if p.program.get("changed") else "[dim]") + escape(p.program["message"]) + "[/]",
                highlight=False,
            )
            for cause in p.program.get("causes") or []:
                c.print(f"  likely cause: {cause}", markup=False, highlight=False)
        if p.ok:
            continue
        c.print(f"[bold red]{p.platform}[/] (lane {p.lane}):", highlight=False)
        c.print(p.error, markup=False, highlight=False)
        if p.block_shape is not None:
            c.print(f"  kernel       {p.kernel}", markup=False)
            c.print(
                f"  grouped mm   {p.gmm or 'unknown'}" + (f" of the {p.projection} projection" if p.projection else ""),
                markup=False,
            )
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
                c.print(
                    f"  also fails   {f['gmm']} of the {f['projection']} projection: "
                    f"block {tuple(f.get('block_shape') or ())} on {f.get('tensor') or f.get('operand')} "
                    f"{tuple(f.get('array_shape') or ())}",
                    markup=False,
                )
