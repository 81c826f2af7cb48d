"""What a revision's test said, and what git bisect said: pure functions of their output."""

from __future__ import annotations

import json
import re
from typing import Any


def choose_test(kind: str | None, platform: str, launcher: str = "local") -> str | None:
    """Which test reproduces a failure of ``kind`` on a lane of ``platform`` here, or None.

    Compile and lowering errors lower (any lane: cross-lowering needs no accelerator); a crash,
    NaN or gate failure on a local cpu lane trains. Timeouts and infrastructure are not code."""
    if kind == "compile_error":
        return "lower"
    if platform == "cpu" and launcher == "local" and kind in ("runtime_crash", "nan", "gate_regression"):
        return "run"
    return None


def test_command(python: str, test: str, lane: str, ferry: str, scratch: str, steps: int | None = None) -> list[str]:
    """The child that tests one revision or version: ``canary lower`` or a ``canary run`` (no history)."""
    if test == "lower":
        return [python, "-m", "canary", "lower", "--lane", lane, "--ferry", ferry, "--json"]
    cmd = [python, "-m", "canary", "run", lane, "--ferry", ferry, "--json", "--no-history", "--out", scratch]
    return cmd + (["--steps", str(steps)] if steps else [])


def _result_json(stdout: str) -> dict[str, Any] | None:
    try:
        d = json.loads(stdout)
    except ValueError:
        return None
    return d if isinstance(d, dict) else None


def _untestable(returncode: int, stderr: str) -> str:
    lines = [ln.strip() for ln in stderr.splitlines() if ln.strip()]
    return f"cannot be tested (exit {returncode}): {lines[-1] if lines else 'no result printed'}"[:300]


def _first_line(text: str | None) -> str:
    return next((ln.strip() for ln in (text or "").splitlines() if ln.strip()), "")[:300]


def judge_lower(returncode: int, stdout: str, stderr: str = "") -> tuple[str, str]:
    """(verdict, detail) of ``canary lower --json`` at a revision."""
    report = _result_json(stdout)
    if returncode not in (0, 1) or report is None or "ok" not in report:
        return "skip", _untestable(returncode, stderr)
    platforms = report.get("platforms") or []
    if report["ok"] and returncode == 0:
        return "good", "lowered for " + (", ".join(str(p.get("platform")) for p in platforms) or "every platform")
    failed = [p for p in platforms if not p.get("ok")]
    if not failed or returncode != 1:
        return "skip", _untestable(returncode, stderr)
    p = failed[0]
    return "bad", f"{p.get('platform')}: {_first_line(p.get('diagnosis') or p.get('error'))}"


def judge_run(
    returncode: int, stdout: str, stderr: str = "", fingerprint: str | None = None, other_failure: str = "skip"
) -> tuple[str, str, str | None]:
    """(verdict, detail, fingerprint seen) of ``canary run --json`` at a revision. With
    ``fingerprint`` None any failure is bad (how the failure at --bad is learnt)."""
    record = _result_json(stdout)
    if returncode not in (0, 1) or record is None or record.get("verdict") not in ("pass", "fail"):
        return "skip", _untestable(returncode, stderr), None
    if record["verdict"] == "pass":
        return "good", f"passed: {record.get('steps_completed')} steps, final loss {record.get('final_loss')}", None
    sig = record.get("signature") or {}
    seen = sig.get("fingerprint")
    what = f"{sig.get('kind', 'failed')} {seen or '(no signature)'}"
    message = _first_line(
        f"{sig['exception']}: {sig.get('message', '')}" if sig.get("exception") else sig.get("message")
    )
    if fingerprint is None or seen == fingerprint:
        return "bad", f"{what}: {message}".rstrip(": "), seen
    return other_failure, f"another failure, {what}: {message}".rstrip(": "), seen


_SHA = r"(?:[0-9a-f]{64}|[0-9a-f]{40})"  # SHA-256 or SHA-1


def parse_git_bisect(text: str) -> tuple[str, list[str], int]:
    """What ``git bisect start|good|bad|skip`` said: ("next", [sha]), ("found", [sha]),
    ("only-skipped", [candidates]) or ("error", []), and roughly how many steps are left."""
    left = re.search(r"roughly (\d+) steps?", text)
    steps = int(left.group(1)) if left else 0
    m = re.search(rf"^({_SHA}) is the first bad commit", text, re.M)
    if m:
        return "found", [m.group(1)], 0
    if "only 'skip'ped commits left" in text:
        after = text.split("could be any of:", 1)[-1]
        return "only-skipped", re.findall(rf"^({_SHA})\s*$", after, re.M), 0
    m = re.search(rf"^\[({_SHA})\]", text, re.M)
    if m:
        return "next", [m.group(1)], steps
    return "error", [], 0


def lower_fingerprint(stdout: str) -> str | None:
    """The failure a ``canary lower --json`` report shows, as a fingerprint (None: nothing failed).

    A failure the lowering traced to a kernel is named by what it found (platform, kernel, grouped
    matmul, projection, operand, shapes), which no path, line number or library version changes;
    else by the report's own fingerprint; else by the platform and the error's first line, its
    source paths cut to the file name and line numbers masked."""
    from canary.signature import make

    report = _result_json(stdout) or {}
    failed = [p for p in report.get("platforms") or [] if isinstance(p, dict) and not p.get("ok")]
    if not failed:
        return None
    p = failed[0]
    if p.get("block_shape") is not None:
        parts = [
            str(p.get(k))
            for k in ("platform", "kernel", "gmm", "projection", "tensor", "operand", "array_shape", "block_shape")
        ]
        return make("compile_error", "BlockShapeError", " ".join(parts)).fingerprint
    if p.get("fingerprint"):
        return str(p["fingerprint"])
    head = _first_line(str(p.get("error") or p.get("diagnosis") or ""))
    head = re.sub(r"[\w.~+/\\-]*/([\w.-]+\.py)(?::\d+)?", r"\1", head)
    exception, _, message = head.partition(": ") if re.match(r"[\w.]+: ", head) else ("", "", head)
    return make("compile_error", exception or None, message, [str(p.get("platform"))]).fingerprint


def judge_lower_failure(
    returncode: int, stdout: str, stderr: str = "", fingerprint: str | None = None, other_failure: str = "skip"
) -> tuple[str, str, str | None]:
    """:func:`judge_lower` that tells failures apart, as :func:`judge_run` does: (verdict, detail,
    fingerprint seen). With ``fingerprint`` None any lowering failure is bad; otherwise one that
    fails another way counts as ``other_failure``."""
    verdict, detail = judge_lower(returncode, stdout, stderr)
    if verdict != "bad":
        return verdict, detail, None
    seen = lower_fingerprint(stdout)
    if fingerprint is None or seen == fingerprint:
        return "bad", f"{detail} [{seen}]", seen
    return other_failure, f"another failure [{seen}], {detail}", seen
