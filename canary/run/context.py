"""Where a run happened, for the people reading about it: job id, CI run URL, W&B URL.

Explicit values (``canary run --job-id/--ci-run-url/--wandb-url``) win; otherwise they come from
the environment GitHub Actions sets (``GITHUB_SERVER_URL``, ``GITHUB_REPOSITORY``,
``GITHUB_RUN_ID``, ``GITHUB_RUN_ATTEMPT``) or canary's own (``CANARY_JOB_ID``,
``CANARY_CI_RUN_URL``, ``CANARY_WANDB_URL``). Pure: the environment is passed in.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from canary.errors import ConfigError
from canary.textio import printable, web_url


def check_urls(env: Mapping[str, str], ci_run_url: str | None = None, wandb_url: str | None = None) -> None:
    """The run's links, when given, are http(s) URLs: anything else (``javascript:``, ``data:``,
    ``file:``) is bad input naming the flag or the variable, before any training."""
    for flag, var, value in (
        ("--ci-run-url", "CANARY_CI_RUN_URL", ci_run_url),
        ("--wandb-url", "CANARY_WANDB_URL", wandb_url),
    ):
        source, url = (flag, value) if value else (var, env.get(var))
        if url and not web_url(url):
            raise ConfigError(
                f"{source}={printable(url)[:80]!r}: not an http(s) URL (a link must be http:// or https://)"
            )


def github_run_url(env: Mapping[str, str]) -> str | None:
    server, repo, run_id = (env.get(k) for k in ("GITHUB_SERVER_URL", "GITHUB_REPOSITORY", "GITHUB_RUN_ID"))
    if not (repo and run_id):
        return None
    url = f"{(server or 'https://github.com').rstrip('/')}/{repo}/actions/runs/{run_id}"
    attempt = env.get("GITHUB_RUN_ATTEMPT")
    return f"{url}/attempts/{attempt}" if attempt and attempt != "1" else url


def run_context(
    env: Mapping[str, str],
    *,
    job_id: str | None = None,
    ci_run_url: str | None = None,
    wandb_url: str | None = None,
    lane_context: str = "",
    host: str = "",
) -> dict[str, Any]:
    """The run's context; ``host`` is the machine it ran on (the words for a run made by hand)."""
    ctx: dict[str, Any] = {
        "job_id": job_id or env.get("CANARY_JOB_ID"),
        "ci_run_url": ci_run_url or env.get("CANARY_CI_RUN_URL") or github_run_url(env),
        "wandb_url": wandb_url or env.get("CANARY_WANDB_URL"),
    }
    if lane_context:
        ctx["lane_context"] = lane_context
    if host:
        ctx["host"] = host
    if env.get("GITHUB_ACTIONS") == "true":
        ctx["ci"] = {
            k.removeprefix("GITHUB_").lower(): env[k]
            for k in ("GITHUB_WORKFLOW", "GITHUB_EVENT_NAME", "GITHUB_REF", "GITHUB_SHA", "GITHUB_JOB")
            if env.get(k)
        }
    return {k: v for k, v in ctx.items() if v not in (None, "", {})}
