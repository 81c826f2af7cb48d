"""The GitHub Actions job summary of one run: markdown for ``$GITHUB_STEP_SUMMARY``. Pure.

It says what the run's issue would say, in the same words (the notifier's sections for the
signature, attempts, compilation cache and regression window), under a verdict headline, the
gates with their margins, the loss sparkline and the run's links.
"""

from __future__ import annotations

from collections.abc import Iterable

from canary.notify.model import Facts
from canary.notify.sections import attempts_section, cache_section, signature_section
from canary.notify.timeline import window_section
from canary.record import RunRecord
from canary.report.model import gate_margin, links

# The notifier's sections, so that the job summary and the issue read alike.
from canary.text.markdown import code, escape_inline
from canary.text.redact import redact
from canary.textio import web_url


def markdown_url(url: str) -> str:
    """An http(s) URL as a markdown link's target: its parentheses encoded, so none ends it early."""
    return url.replace("(", "%28").replace(")", "%29")


def _num(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, float):
        return f"{v:.4f}"
    return escape_inline(str(v))


def headline(r: RunRecord) -> str:
    mark = "✅ PASS" if r.verdict == "pass" else "❌ FAIL"
    cls = f" ({r.classification})" if r.classification and r.classification != "pass" else ""
    return f"## canary {mark}{cls}: {escape_inline(r.ferry)} v{r.ferry_version} on {escape_inline(r.lane)}"


def facts_line(r: RunRecord) -> str:
    s = r.summary or {}
    steps = _num(r.steps_completed) + (f"/{r.steps_requested}" if r.steps_requested else "")
    parts = [f"run {code(r.run_id)}", f"steps {steps}", f"final loss {_num(r.final_loss)}"]
    if isinstance(s.get("throughput/tokens_per_second"), (int, float)):
        parts.append(f"{s['throughput/tokens_per_second']:,.0f} tokens/s")
    if isinstance(s.get("compile/seconds"), (int, float)):
        parts.append(f"compile {s['compile/seconds']:.1f}s")
    if r.commit:
        parts.append(f"commit {code(r.commit[:12])}")
    return " · ".join(parts)


def gates_markdown(gates: Iterable[dict]) -> str:
    rows = ["| gate | value | threshold | margin | status | detail |", "|---|--:|--:|--:|---|---|"]
    for g in gates:
        status = str(g.get("status", ""))
        rows.append(
            f"| {escape_inline(str(g.get('name', '')))} | {_num(g.get('value'))} | {_num(g.get('threshold'))} | "
            f"{gate_margin(g) or '—'} | {'**' + status + '**' if status == 'FAIL' else status} | "
            f"{escape_inline(str(g.get('detail', '')))} |"
        )
    return "\n".join(rows)


def run_summary(r: RunRecord, facts: Facts | None = None, loss_line: str = "", secrets: tuple[str, ...] = ()) -> str:
    """The markdown for one run. ``facts`` (the history's streak and regression window, as the
    notifier computes them) is used for a failing run; ``loss_line`` is the loss sparkline."""
    facts = facts or Facts()
    parts = [headline(r), facts_line(r)]
    if loss_line:
        parts.append(f"Loss: {code(loss_line)}")
    parts.append("### Gates\n" + gates_markdown(r.gates))
    failed = r.verdict != "pass"
    if failed:
        parts += [signature_section(r, secrets), attempts_section(r)]
    parts.append(cache_section(r, secrets))
    if failed:
        parts.append(window_section(facts))
    found = [link for link in links(r) if web_url(link.url)]  # http(s) only: never a javascript: link
    if found:
        parts.append("### Links\n" + "\n".join(f"- [{link.label}]({markdown_url(link.url)})" for link in found))
    return redact("\n\n".join(parts), secrets) + "\n"
