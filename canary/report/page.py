"""The report as one self-contained HTML page: inline CSS, inline SVG charts, one small inline
script (opening a run's details from its timeline cell); nothing fetched when it is viewed.
Pure: data in, a string out."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape

from canary.report.model import CLASSES, LaneView, RunDetails, SignatureRow
from canary.textio import web_url

CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;margin:0;color:#212121}
main{box-sizing:border-box;max-width:1800px;margin:0 auto;padding:16px 24px}
h1{font-size:20px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px;border-bottom:1px solid #e0e0e0}
.meta{color:#616161}.lane{margin:10px 0 16px}.lane h3{font-size:14px;margin:0 0 4px}
.timeline{display:flex;flex-wrap:wrap;gap:3px}
.cell{display:inline-block;min-width:26px;height:26px;line-height:26px;padding:0 3px;text-align:center;color:#fff;
font:bold 11px/26px ui-monospace,monospace;border-radius:3px;text-decoration:none}
.cell:focus,.cell:hover{outline:2px solid #212121;outline-offset:1px}
.legend span.cell{margin-right:4px}.legend{display:flex;flex-wrap:wrap;gap:12px;color:#424242}
table{border-collapse:collapse;margin:6px 0}
td,th{border-bottom:1px solid #eee;padding:3px 8px;text-align:left;vertical-align:top}
th{background:#fafafa}td.num{text-align:right;font-variant-numeric:tabular-nums}
.PASS{color:#2e7d32;font-weight:bold}.FAIL{color:#c62828;font-weight:bold}.SKIP,.WARN{color:#ef6c00;font-weight:bold}
details.run{border:1px solid #e0e0e0;border-radius:4px;margin:4px 0;padding:2px 8px}
details.run[open]{background:#fcfcfc}details.run:target{border-color:#212121}
details.run summary{cursor:pointer}code,pre{font:12px ui-monospace,monospace}pre{white-space:pre-wrap;margin:4px 0}
.chart svg{display:block;width:100%;height:auto}.note{color:#757575;font-style:italic}
.losses{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,520px),1fr));gap:0 24px}
.swatch{display:inline-block;width:14px;height:4px;border-radius:2px;margin-right:6px;vertical-align:middle}
"""

SCRIPT = """
function openRun(){var id=decodeURIComponent(location.hash.slice(1));if(!id)return;
var d=document.getElementById(id);if(d&&d.tagName==='DETAILS'){d.open=true;d.scrollIntoView({block:'nearest'});}}
window.addEventListener('hashchange',openRun);document.addEventListener('DOMContentLoaded',openRun);
"""


@dataclass(frozen=True)
class LossView:
    """A series' loss chart: the run it is from, the SVG (None when there is none) and why not.
    ``lane`` names the series (``cpu/moe-canary``)."""

    lane: str
    run_id: str
    svg: str | None
    note: str = ""


def run_anchor(run_id: str) -> str:
    return "run-" + run_id


def _cell_html(c) -> str:
    label = escape(c.label)
    return (
        f'<a class="cell c-{escape(c.classification)}" style="background:{c.colour}" '
        f'href="#{escape(run_anchor(c.run_id))}"'
        f' title="{escape(c.title)}" aria-label="{escape(c.title)}" data-run="{escape(c.run_id)}">{label}</a>'
    )


def legend_html() -> str:
    items = []
    for name, (label, colour, meaning) in CLASSES.items():
        items.append(
            f'<span title="{escape(meaning)}"><span class="cell" style="background:{colour}">{escape(label)}</span>'
            f"{escape(name)}</span>"
        )
    return '<div class="legend">' + "".join(items) + "</div>"


def swatch(series: str, colours: dict[str, str]) -> str:
    """The series' colour, as its lines are drawn in every chart."""
    colour = colours.get(series)
    if not colour:
        return ""
    return f'<span class="swatch" style="background:{colour}" data-series="{escape(series)}"></span>'


def series_legend_html(colours: dict[str, str]) -> str:
    """Each series' name beside its colour, the one it has in every chart."""
    items = "".join(f"<span>{swatch(s, colours)}{escape(s)}</span>" for s in sorted(colours))
    return f'<div class="legend series-legend">{items}</div>'


def lane_html(v: LaneView, colours: dict[str, str] | None = None) -> str:
    s = v.streak
    state = (
        (
            f"failing {s.runs} run{'s' if s.runs != 1 else ''} in a row ({escape(s.daily_ordinal)}), "
            + (f"<code>{escape(s.fingerprint)}</code>" if s.fingerprint else "no failure signature")
        )
        if s.failing
        else "latest run passed"
    )
    uncounted = [f"{v.short} short run{'s' if v.short != 1 else ''}"] if v.short else []
    uncounted += [f"{v.experiments} experiment{'s' if v.experiments != 1 else ''}"] if v.experiments else []
    short = f" ({' and '.join(uncounted)}, in lower case, not counted)" if uncounted else ""
    head = f"<h3>{swatch(v.series, colours or {})}{escape(v.series)}</h3>"
    return (
        f'<div class="lane" id="lane-{escape(v.series.replace("/", "-"))}">{head}'
        f'<div class="meta">{v.runs} runs{short}, {v.passes} passed, flakiness {v.flakiness:.2f}; {state}</div>'
        f'<div class="timeline">{"".join(_cell_html(c) for c in v.cells)}</div></div>'
    )


def _link(label: str, url: str) -> str:
    """A link, when ``url`` is http(s); any other scheme (``javascript:``, ``data:``), from a
    flag, the environment or a shared history's record, is the label alone, never an href."""
    if not web_url(url):
        return escape(label)
    return f'<a href="{escape(url)}" rel="noopener noreferrer">{escape(label)}</a>'


def details_html(d: RunDetails) -> str:
    gates = "".join(
        f"<tr><td>{escape(str(g.get('name', '')))}</td><td class=num>{escape(g['value'])}</td>"
        f"<td class=num>{escape(g['threshold'])}</td><td class=num>{escape(g['margin'])}</td>"
        f'<td class="{escape(str(g.get("status", "")))}">{escape(str(g.get("status", "")))}</td>'
        f"<td>{escape(str(g.get('detail', '')))}</td></tr>"
        for g in d.gates
    )
    parts = [
        f'<details class="run" id="{escape(run_anchor(d.run_id))}"><summary><b>{escape(d.run_id)}</b> '
        f"{escape(d.lane)} · {escape(d.started_at[:16].replace('T', ' '))} · "
        f'<span class="{"PASS" if d.verdict == "pass" else "FAIL"}">{escape(d.verdict)}</span> · '
        f"{escape(d.classification)}</summary>",
        f"<p>steps {escape(d.steps)} · final loss {escape(d.final_loss)}"
        + (f" · commit <code>{escape(d.commit[:12])}</code>" if d.commit else "")
        + "</p>",
    ]
    if d.gates:
        parts.append(
            "<table><tr><th>gate</th><th>value</th><th>threshold</th><th>margin</th><th>status</th><th>detail</th></tr>"
            + gates
            + "</table>"
        )
    if d.signature:
        sig = d.signature
        parts.append(
            f"<p>signature <code>{escape(sig['fingerprint'])}</code> ({escape(sig['kind'])})</p>"
            f"<pre>{escape(sig['error'])}</pre>"
        )
        if sig["frames"]:
            parts.append("<p>call path: " + " → ".join(f"<code>{escape(f)}</code>" for f in sig["frames"]) + "</p>")
    if d.attempts:
        parts.append("<p>attempts: " + escape("; ".join(d.attempts)) + "</p>")
    if d.cache:
        parts.append("<p>compilation cache: " + "; ".join(f"{escape(k)} {escape(v)}" for k, v in d.cache) + "</p>")
    if d.versions:
        parts.append(
            "<p>versions: " + ", ".join(f"{escape(k)} {escape(str(v))}" for k, v in d.versions.items()) + "</p>"
        )
    if d.links:
        parts.append("<p>" + " · ".join(_link(link.label, link.url) for link in d.links) + "</p>")
    return "".join(parts) + "</details>"


def signatures_html(rows: Sequence[SignatureRow]) -> str:
    if not rows:
        return '<p class="note">No failure signatures in these runs.</p>'
    body = "".join(
        f"<tr><td><code>{escape(s.fingerprint)}</code></td><td>{escape(s.kind)}</td>"
        f"<td>{'failing now' if s.failing_now else 'not current'}</td>"
        f"<td>{escape(s.first_seen[:16].replace('T', ' '))}</td><td>{escape(s.last_seen[:16].replace('T', ' '))}</td>"
        f"<td class=num>{s.occurrences}</td><td class=num>{s.streak}</td><td>{escape(', '.join(s.lanes))}</td>"
        f"<td>{_link('issue', s.issue_url) if s.issue_url else '—'}</td><td>{escape(s.error)}</td></tr>"
        for s in rows
    )
    return (
        "<table><tr><th>fingerprint</th><th>kind</th><th>state</th><th>first seen</th><th>last seen</th>"
        "<th>runs</th><th>streak</th><th>lanes</th><th>issue</th><th>error</th></tr>" + body + "</table>"
    )


def loss_html(views: Sequence[LossView], colours: dict[str, str] | None = None) -> str:
    out = []
    for v in views:
        head = f"<h3>{swatch(v.lane, colours or {})}{escape(v.lane)}: run {escape(v.run_id)}</h3>"
        body = f'<div class="chart loss-chart">{v.svg}</div>' if v.svg else ""
        note = f'<p class="note">{escape(v.note)}</p>' if v.note else ""
        out.append(f'<div class="lane">{head}{body}{note}</div>')
    return '<div class="losses">' + "".join(out) + "</div>"


def page(
    *,
    title: str,
    subtitle: str,
    lanes: Sequence[LaneView],
    details: Sequence[RunDetails],
    losses: Sequence[LossView],
    perf_svg: str | None,
    signatures: Sequence[SignatureRow],
    colours: dict[str, str] | None = None,
) -> str:
    """``colours``: each series' colour (label to colour), the one its lines have in every
    chart; the page's series legend names them."""
    colours = colours or {}
    if not lanes:
        body = '<p class="note">No runs recorded.</p>'
    else:
        body = "".join(
            [
                "<h2>Timeline</h2>",
                legend_html(),
                "".join(lane_html(v, colours) for v in lanes),
                "<h2>Latest loss curve</h2>",
                loss_html(losses, colours),
                "<h2>Step time, throughput, compile time, memory and loss</h2>",
                '<p class="note">A dashed line marks a step in a lane\'s passing runs (a change point: the size is '
                "the level after against the level before).</p>",
                series_legend_html(colours),
                f'<div class="chart perf-chart">{perf_svg}</div>'
                if perf_svg
                else '<p class="note">No figures recorded.</p>',
                "<h2>Failure signatures</h2>",
                signatures_html(signatures),
                f"<h2>Runs ({len(details)}, newest first)</h2>",
                "".join(details_html(d) for d in details),
            ]
        )
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        '<link rel="icon" href="data:,">'  # no favicon fetch either
        f"<title>{escape(title)}</title><style>{CSS}</style><script>{SCRIPT}</script></head><body>"
        f'<main><h1>{escape(title)}</h1><div class="meta">{escape(subtitle)}</div>{body}</main></body></html>\n'
    )
