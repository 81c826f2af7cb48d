"""Per-step metrics to a Weights & Biases run, under levanter's metric names.

A lane says ``wandb = "off" | "offline" | "online"``; the environment has the last word:

* ``WANDB_MODE=disabled`` turns tracking off, ``WANDB_MODE=offline`` keeps it local;
* a run goes online only with a ``WANDB_API_KEY`` and either ``WANDB_MODE=online`` or a lane
  that says ``online``; everything else logs offline, into ``<out_dir>/wandb/``, which
  ``wandb sync`` can upload later.

The run is named after the canary run, grouped by ferry and tagged ``canary`` and the lane.
``wandb.json`` in the attempt's directory says what happened (mode, run id, URL when online, or
the error); the harness reads it into the run record's context (``wandb_url``). Tracking is a
bystander: an import error, a failed ``wandb.init`` (W&B down, a bad key) or a failed ``log``
is written to the log and to ``wandb.json``, and training goes on.

This module imports nothing heavy: wandb is imported only when tracking is on, and the harness
imports only :func:`run_context`.
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

from canary.formats.directory import WANDB_FILE

# Bookkeeping keys of the metrics record that W&B keeps itself.
_NOT_LOGGED = ("_step", "_runtime")


def resolve_mode(lane_mode: str, environ: Mapping[str, str]) -> str:
    """off | offline | online, from the lane's setting and the environment. Pure."""
    env_mode = environ.get("WANDB_MODE", "").strip().lower()
    if lane_mode == "off" or env_mode in ("disabled", "dryrun"):
        return "off"
    if env_mode == "offline":
        return "offline"
    if environ.get("WANDB_API_KEY") and (env_mode == "online" or (lane_mode == "online" and not env_mode)):
        return "online"
    return "offline"


class _Off:
    mode = "off"
    url = None

    def log(self, record: Mapping[str, Any], step: int) -> None: ...
    def finish(self, summary: Mapping[str, Any] | None = None) -> None: ...


class WandbTracker:
    """A live W&B run; the first failing call turns it off (with one line in the log)."""

    def __init__(self, run: Any, mode: str, log_line: Callable[[str], None]):
        self.run, self.mode, self.log_line = run, mode, log_line
        self.url = getattr(run, "url", None) if mode == "online" else None

    def _guard(self, what: str, fn: Callable[[], None]) -> None:
        if self.run is None:
            return
        try:
            fn()
        except Exception as e:
            self.log_line(f"W&B {what} failed, tracking stops here (training goes on): {type(e).__name__}: {e}")
            self.run = None

    def log(self, record: Mapping[str, Any], step: int) -> None:
        data = {k: _number(v) for k, v in record.items() if k not in _NOT_LOGGED}
        self._guard("log", lambda: self.run.log(data, step=step))

    def finish(self, summary: Mapping[str, Any] | None = None) -> None:
        def done():
            if summary:
                self.run.summary.update({k: _number(v) for k, v in summary.items() if k not in _NOT_LOGGED})
            self.run.finish()

        self._guard("finish", done)


def _number(v: Any) -> Any:
    if isinstance(v, str) and v in ("nan", "inf", "-inf"):
        return float(v)
    return v


def open_tracker(
    lane_mode: str,
    out_dir: Path,
    *,
    project: str | None,
    group: str,
    lane: str,
    name: str,
    config: Mapping[str, Any],
    environ: Mapping[str, str],
    log: Callable[[str], None] = print,
    enabled: bool = True,
):
    """A tracker for one attempt (``log(record, step)``, ``finish(summary)``); never raises."""
    mode = resolve_mode(lane_mode, environ) if enabled else "off"
    if mode == "off":
        return _Off()
    info: dict[str, Any] = {"mode": mode, "project": project or "canary", "group": group}
    try:
        import wandb

        # wandb also reads WANDB_MODE itself (and rejects an empty one): make it agree with ours.
        os.environ["WANDB_MODE"] = mode
        run = wandb.init(
            project=project or "canary",
            group=group,
            tags=["canary", lane],
            name=name,
            job_type="canary",
            config=dict(config),
            dir=str(out_dir),
            mode=mode,
            settings=wandb.Settings(silent=True),
        )
        tracker = WandbTracker(run, mode, log)
        info.update(id=run.id, url=tracker.url, dir=str(Path(run.dir).parent))
        log(f"W&B run {run.id} ({mode})" + (f": {tracker.url}" if tracker.url else f" in {info['dir']}"))
    except BaseException as e:  # ImportError, CommError, a timeout, ...: tracking is never the failure
        if isinstance(e, KeyboardInterrupt):
            raise
        info.update(mode="off", error=f"{type(e).__name__}: {e}".strip()[:500])
        log(f"W&B tracking is off for this run: {info['error']}")
        tracker = _Off()
    try:
        (out_dir / WANDB_FILE).write_text(json.dumps(info, indent=2))
    except OSError:
        pass
    return tracker


def run_context(attempt_dir: Path) -> dict[str, Any]:
    """What the run record's context says about W&B: ``wandb_url`` when the run was online, and
    the mode, id, directory or error (read by the harness; no W&B import)."""
    try:
        info = json.loads((Path(attempt_dir) / WANDB_FILE).read_text())
    except (OSError, ValueError):
        return {}
    ctx: dict[str, Any] = {"wandb": info}
    if info.get("url"):
        ctx["wandb_url"] = info["url"]
    return ctx
