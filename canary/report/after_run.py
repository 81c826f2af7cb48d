"""What ``canary run`` leaves beside its verdict, none of which can change it: the loss curve
as an image in the run directory, a terminal sparkline of the loss, and, under GitHub Actions
(``$GITHUB_STEP_SUMMARY`` set), the job summary. A failure here is a note, never a failed run."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from canary.formats.directory import LOSS_IMAGE
from canary.record import RunRecord
from canary.render import sparkline

if TYPE_CHECKING:
    from canary.notify.model import Facts

ENV_SUMMARY = "GITHUB_STEP_SUMMARY"


@dataclass
class AfterRun:
    loss_line: str = ""  # "▇▆▄▃▂▁ 11.80 → 6.10 over 200 steps"
    loss_image: str | None = None
    step_summary: str | None = None  # the file the job summary was appended to
    notes: list[str] = field(default_factory=list)  # what could not be done, and why

    def to_dict(self) -> dict[str, Any]:
        return {
            "loss_line": self.loss_line,
            "loss_image": self.loss_image,
            "step_summary": self.step_summary,
            "notes": self.notes,
        }


def loss_line(losses: list[tuple[int, float]], width: int = 32) -> str:
    if not losses:
        return ""
    (s0, first), (s1, last) = losses[0], losses[-1]
    return f"{sparkline([v for _, v in losses], width)} {first:.2f} → {last:.2f} (steps {s0}–{s1})"


def write_loss_image(record: RunRecord, losses: list[tuple[int, float]]) -> str:
    from canary.report.charts import write_loss_image as draw

    path = Path(record.run_dir) / LOSS_IMAGE
    draw(str(path), losses, title=f"{record.ferry} v{record.ferry_version} on {record.lane}, {record.run_id}")
    return str(path)


def append_step_summary(record: RunRecord, line: str, path: str, facts: Callable[[], Facts]) -> None:
    """The job summary appended to ``path``; a failure's states ``facts()``."""
    from canary.notify import env_secrets
    from canary.report.summary import run_summary

    text = run_summary(record, facts() if record.verdict != "pass" else None, line, env_secrets())
    with open(path, "a", encoding="utf-8") as f:
        f.write(text)


def issue_url(record: RunRecord, notified: Any = None) -> str | None:
    """The GitHub issue the notifier just created or commented on for this run, if it did."""
    for d in getattr(notified, "deliveries", None) or []:
        if d.run_id == record.run_id and d.status == "sent":
            return next((a.url for a in d.actions if a.url and a.kind != "closed-duplicate"), None)
    return None


def after_run(
    record: RunRecord,
    facts: Callable[[], Facts] | None = None,
    environ: Mapping[str, str] = os.environ,
    notified: Any = None,
) -> AfterRun:
    """``facts``: what the history and git say of the run, computed once for the notifier and the
    job summary (:func:`canary.notify.after_run.run_facts`; None: no history was read).
    ``notified``: the notifier's result for this run (its issue is linked from the summary)."""
    from canary.notify.after_run import run_facts
    from canary.report import run_losses

    out = AfterRun()
    losses = run_losses(record.run_dir) or []
    out.loss_line = loss_line(losses)
    if losses:
        try:
            out.loss_image = write_loss_image(record, losses)
        except Exception as e:  # noqa: BLE001 - a picture never fails a canary
            out.notes.append(f"no loss image: {type(e).__name__}: {e}")
    summary = environ.get(ENV_SUMMARY)
    url = issue_url(record, notified)
    if url:
        record = replace(record, context={**record.context, "issue_url": url})
    if summary:
        try:
            append_step_summary(record, out.loss_line, summary, facts or run_facts(record, None))
            out.step_summary = summary
        except Exception as e:  # noqa: BLE001 - nor does a job summary
            out.notes.append(f"no job summary: {type(e).__name__}: {e}")
    return out
