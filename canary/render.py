"""Rich renderings shared by the commands."""

from __future__ import annotations

import math
from typing import Any, Iterable

from rich.console import Console
from rich.table import Table


def fmt(v: Any) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        if not math.isfinite(v):
            return str(v)
        return f"{v:.4f}" if abs(v) < 1e4 else f"{v:,.0f}"
    return str(v)


def gates_table(gates: Iterable[dict[str, Any]], title: str = "Gates") -> Table:
    t = Table(title=title, title_justify="left")
    t.add_column("check")
    t.add_column("value", justify="right")
    t.add_column("threshold", justify="right")
    t.add_column("status")
    t.add_column("detail", style="dim")
    for g in gates:
        style = {"PASS": "bold green", "SKIP": "bold yellow"}.get(g["status"], "bold red")
        t.add_row(g["name"], fmt(g["value"]), fmt(g["threshold"]), f"[{style}]{g['status']}[/]", g.get("detail", ""))
    return t


def verdict_line(verdict: str, what: str) -> str:
    if verdict == "cancelled":
        return f"[bold yellow]CANCELLED[/] {what}"
    return f"[bold green]PASS[/] {what}" if verdict == "pass" else f"[bold red]FAIL[/] {what}"


def cache_line(cache: dict[str, Any]) -> str:
    """The compilation cache facts of a run, in one line."""
    parts = [f"cache {cache.get('mode')}", f"{cache.get('hits', 0)} hits / {cache.get('requests', 0)} requests"]
    if cache.get("compile_seconds") is not None:
        parts.append(f"train step compiled in {cache['compile_seconds']:.2f}s")
    if cache.get("errors"):
        parts.append(f"[bold red]{len(cache['errors'])} cache errors[/]: {cache['errors'][0]}")
    if cache.get("dir") and cache.get("mode") == "warm":
        parts.append(f"[dim]{cache['dir']}[/]")
    return "  ".join(parts)


def console(stderr: bool = False) -> Console:
    return Console(stderr=stderr, highlight=False)


def failure_line(record: Any) -> str:
    """``classification  kind  fingerprint  exception: message`` of a failed run (rich markup)."""
    from rich.markup import escape

    sig = record.signature
    parts = [f"[bold]{record.classification or 'unclassified'}[/]"]
    if sig:
        parts += [sig.kind, f"[bold]{sig.fingerprint}[/]"]
        what = f"{sig.exception}: {sig.message}" if sig.exception else sig.message
        parts.append(escape(what if len(what) <= 160 else what[:157] + "..."))
    return "  ".join(parts)


def history_line(status: dict[str, Any] | None) -> str:
    from rich.markup import escape

    if not status:
        return "[dim]history: not recorded[/]"
    if status.get("status") == "stored":
        return f"[dim]history: recorded in {escape(status['location'])}[/]"
    return f"[yellow]history: {status.get('status')} ({escape(status.get('detail', ''))})[/]"
