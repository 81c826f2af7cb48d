"""`canary signature RUN_DIR`: the signature the run recorded, the one history and notifier use."""

import json

import pytest

from canary.errors import ConfigError
from canary.record import Attempt, RunRecord
from canary.signature import extract, for_attempt, gate_signature, of_record

FAILED_GATES = [
    {"name": "max_final_loss", "value": 6.46, "threshold": 4.0, "status": "FAIL"},
    {"name": "min_steps", "value": 238, "threshold": 200, "status": "PASS"},
]


def record(attempts, verdict="fail", gates=(), signature="last"):
    r = RunRecord(
        "20260829T060000Z-tpu-ab12",
        "tpu",
        "moe-canary",
        1,
        verdict,
        None,
        None,
        list(gates),
        "/runs/x",
        attempts=attempts,
    )
    if signature == "last" and verdict == "fail":
        r.signature = attempts[-1].signature
    return r


def attempt(n, outcome, log="", gates=(), detail=""):
    return Attempt(
        n,
        outcome,
        None,
        1.0,
        "train.log",
        detail=detail,
        signature=for_attempt(log, outcome, detail=detail, gates=list(gates), ferry="moe-canary"),
    )


def test_a_gate_regression_and_a_run_that_never_started_have_their_recorded_signature():
    gated = record([attempt(1, "succeeded", "step 237 loss 6.46\n", FAILED_GATES)], gates=FAILED_GATES)
    assert of_record(gated).kind == "gate_regression"
    assert of_record(gated) == gate_signature(FAILED_GATES, ferry="moe-canary")
    assert extract("step 237 loss 6.46\n") is None  # the log alone says nothing failed
    never = record([attempt(1, "never_started", detail="no worker started within 1800s")])
    assert of_record(never).kind == "infrastructure"
    assert of_record(record([attempt(1, "succeeded")], verdict="pass")) is None


def test_an_attempts_own_signature_and_a_record_written_without_one():
    crashed = attempt(1, "failed", "Fatal Python error: Segmentation fault\n")
    r = record([crashed, attempt(2, "never_started")])
    assert of_record(r, 1).exception == "SIGSEGV"
    assert of_record(r, 2).kind == "infrastructure"
    with pytest.raises(ConfigError, match="no attempt 3"):
        of_record(r, 3)
    old = record([Attempt(1, "succeeded", 0, 1.0, "train.log")], gates=FAILED_GATES, signature=None)
    assert of_record(old) == gate_signature(FAILED_GATES, ferry="moe-canary")  # recomputed from the recorded gates
    lost = record([Attempt(1, "lost", None, 1.0, "train.log", detail="node died")], signature=None)
    assert (of_record(lost).kind, of_record(lost).message) == ("infrastructure", "attempt 1 lost: node died")


def test_signature_command_reads_the_record(cli, tmp_path):
    gated = record([attempt(1, "succeeded", "step 237 loss 6.46\n", FAILED_GATES)], gates=FAILED_GATES)
    never = record([attempt(1, "never_started", detail="no worker started within 1800s")])
    for name, rec in (("gated", gated), ("never", never)):
        (tmp_path / name / "attempt-1").mkdir(parents=True)
        (tmp_path / name / "result.json").write_text(json.dumps(rec.to_dict()))
        (tmp_path / name / "train.log").write_text("step 237 loss 6.46\n")
    r = cli("signature", str(tmp_path / "gated"), "--json")
    assert r.returncode == 0, r.stderr
    d = json.loads(r.stdout)
    assert (d["kind"], d["fingerprint"], d["source"]) == (
        "gate_regression",
        gate_signature(FAILED_GATES, ferry="moe-canary").fingerprint,
        "result.json",
    )
    assert d["group"]
    r = cli("signature", str(tmp_path / "never" / "attempt-1"))
    assert r.returncode == 0 and "infrastructure" in r.stdout and "never started" in r.stdout
    r = cli("signature", str(tmp_path / "never" / "result.json"), "--outcome", "timeout")
    assert r.returncode == 2 and "--outcome is for bare logs" in r.stderr
    r = cli("signature", str(tmp_path / "never" / "train.log"), "--outcome", "timeout", "--json")
    assert r.returncode == 0 and json.loads(r.stdout)["source"] == "log"
