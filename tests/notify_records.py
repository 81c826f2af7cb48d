"""Run records shaped like the field notes' incident, for the notifier's tests."""

from __future__ import annotations

from canary.record import Attempt, RunRecord, Signature

PALLAS_MESSAGE = (
    "The Pallas TPU lowering currently requires that the last two dimensions of your block shape are "
    "divisible by 8 and 128 respectively, or be equal to the respective dimensions of the overall array. "
    "Block spec for outputs in pallas_call kernel at <site>/pallas/ops/tpu/megablox/gmm.py has block shape "
    "(Blocked(block_size=512), Blocked(block_size=32)), array shape (524288, 128)"
)
CACHE_ERROR = (
    "UserWarning: Error reading persistent compilation cache entry for 'jit__create_lm_example': "
    "RuntimeError: Session is closed"
)
FRAMES = [
    "canary/workload/model.py:expert_mlp",
    "canary/workload/ragged_dot/megablox.py:ragged_dot",
    "jax/experimental/pallas/ops/tpu/megablox/gmm.py:gmm",
]
EXCERPT = "\n".join(
    [
        "Traceback (most recent call last):",
        '  File "canary/workload/train.py", line 120, in main',
        "    state, metrics = step(state, batch)",
        '  File "canary/workload/model.py", line 88, in expert_mlp',
        "    return ragged_dot(x, w, group_sizes)",
        "ValueError: " + PALLAS_MESSAGE,
    ]
)


def signature(fp: str = "3f9a1c2b7d4e", message: str = PALLAS_MESSAGE) -> Signature:
    return Signature(
        fingerprint=fp,
        kind="compile_error",
        exception="ValueError",
        message=message,
        frames=list(FRAMES),
        excerpt=EXCERPT,
    )


def failing(
    run_id: str = "20260828T060000Z-tpu-ab12",
    date: str = "2026-08-28",
    fp: str = "3f9a1c2b7d4e",
    lane: str = "tpu",
    attempts: int = 4,
    **kw,
) -> RunRecord:
    sig = signature(fp)
    atts = []
    for n in range(1, attempts + 1):
        errors = [CACHE_ERROR] if n in (1, 3) else []
        atts.append(
            Attempt(
                n,
                "failed",
                1,
                12.5,
                f"/runs/{run_id}/attempt-{n}/train.log",
                0,
                None,
                error=EXCERPT,
                job_id=f"/runner/canary-tpu-{run_id[-4:]}-{n}",
                cache={
                    "mode": "warm",
                    "requests": 3,
                    "hits": 0 if errors else 2,
                    "misses": 3 if errors else 1,
                    "errors": errors,
                    "compile_seconds": 9.0,
                },
                signature=sig,
            )
        )
    fields = dict(
        run_id=run_id,
        lane=lane,
        ferry="moe-canary",
        ferry_version=1,
        verdict="fail",
        steps_completed=0,
        final_loss=None,
        gates=[{"name": "min_steps", "value": 0, "threshold": 200, "status": "FAIL", "detail": "0 < 200"}],
        run_dir=f"/nonexistent/runs/{run_id}",
        attempts=atts,
        error=EXCERPT,
        started_at=f"{date}T06:00:00+00:00",
        ended_at=f"{date}T06:20:00+00:00",
        commit="c0ffee1234567890c0ffee1234567890c0ffee12",
        classification="deterministic" if attempts > 1 else "unconfirmed",
        signature=sig,
        context={
            "job_id": f"/runner/canary-tpu-{run_id[-4:]}",
            "ci_run_url": "https://github.com/acme/canary/actions/runs/1234567",
            "wandb_url": "https://wandb.ai/acme/canary/runs/abc123",
            "ci": {"event_name": "schedule"},
        },
    )
    fields.update(kw)
    return RunRecord(**fields)


def passing(run_id: str = "20260901T060000Z-tpu-cd34", date: str = "2026-09-01", lane: str = "tpu", **kw) -> RunRecord:
    fields = dict(
        run_id=run_id,
        lane=lane,
        ferry="moe-canary",
        ferry_version=1,
        verdict="pass",
        steps_completed=238,
        final_loss=5.7976,
        gates=[{"name": "min_steps", "value": 238, "threshold": 200, "status": "PASS", "detail": ""}],
        run_dir=f"/nonexistent/runs/{run_id}",
        attempts=[Attempt(1, "succeeded", 0, 600.0, "train.log", 238, 5.7976)],
        started_at=f"{date}T06:00:00+00:00",
        ended_at=f"{date}T06:10:00+00:00",
        classification="pass",
        commit="feedface" * 5,
        context={"ci_run_url": "https://github.com/acme/canary/actions/runs/99", "ci": {"event_name": "schedule"}},
    )
    fields.update(kw)
    return RunRecord(**fields)


def no_git(good: str, bad: str) -> list:
    """The ``commits`` of facts whose records name no commit to compare: a git call would be a bug."""
    raise AssertionError(f"no commits were to be listed ({good}..{bad})")
