"""Classifying a run from its attempts: pass | deterministic | intermittent | cache-masked."""

import pytest

from canary.judge.classify import classify
from canary.record import Attempt, cold_reason, lowered_cold
from canary.signature import make

PALLAS = make("compile_error", "ValueError", "The Pallas TPU lowering currently requires ...")
OOM = make("compile_error", "XlaRuntimeError", "RESOURCE_EXHAUSTED: Out of memory")

WARM = {"mode": "warm", "requests": 12, "hits": 12, "misses": 0, "errors": [], "compile_seconds": 0.4}
MISS = {"mode": "warm", "requests": 12, "hits": 9, "misses": 3, "errors": [], "compile_seconds": 41.0}
READ_FAILED = {
    "mode": "warm",
    "requests": 12,
    "hits": 0,
    "misses": 0,
    "errors": [
        "Error reading persistent compilation cache entry for 'jit__create_lm_example': RuntimeError: Session is closed"
    ],
}
COLD = {"mode": "cold", "requests": 0, "hits": 0, "misses": 0, "errors": []}


def ok(n=1, cache=None):
    return Attempt(n, "succeeded", 0, 10.0, f"attempt-{n}/train.log", 238, 5.8, cache=cache)


def bad(n=1, sig=PALLAS, cache=None, outcome="failed"):
    return Attempt(n, outcome, 1, 3.0, f"attempt-{n}/train.log", None, None, error="...", cache=cache, signature=sig)


@pytest.mark.parametrize(
    "cache, cold",
    [
        (None, None),
        ({}, None),
        (WARM, False),
        (MISS, True),
        (READ_FAILED, True),
        (COLD, True),
        ({"mode": "off"}, True),
        ({"mode": "warm", "requests": 5, "hits": 0, "misses": 0, "errors": []}, True),  # asked, never served
        ({"mode": "warm", "requests": 0, "hits": 0, "misses": 0, "errors": []}, None),  # never asked
        # a failed write comes after a compile whose miss is counted: alone it is no cold lowering
        (
            {
                "mode": "warm",
                "requests": 3,
                "hits": 3,
                "misses": 0,
                "errors": ["UserWarning: Error writing persistent compilation cache entry for 'jit_step': quota"],
            },
            False,
        ),
    ],
)
def test_lowered_cold(cache, cold):
    assert lowered_cold(cache) is cold
    assert (cold_reason(cache) is not None) == (cold is True)  # the notifier's words say the same


def test_pass():
    assert classify([ok()]) == "pass"
    assert classify([]) is None


def test_deterministic_every_attempt_same_fingerprint():
    # the incident: 4 attempts, all the same compile error
    assert classify([bad(n) for n in range(1, 5)]) == "deterministic"
    assert classify([bad(n) for n in range(1, 3)]) == "deterministic"


def test_one_attempt_is_unconfirmed():
    # one attempt (the cpu lane, any lane with attempts = 1) cannot show that a failure repeats
    assert classify([bad(1)]) == "unconfirmed"
    assert classify([bad(1, outcome="timeout", sig=None)]) == "unconfirmed"
    assert classify([ok(1)]) == "pass"


def test_intermittent():
    assert classify([bad(1), bad(2, OOM)]) == "intermittent"  # attempts fail differently
    assert classify([bad(1), ok(2)]) == "intermittent"  # passed after a failure, cache facts unknown
    assert classify([bad(1, cache=WARM), ok(2, cache=WARM)]) == "intermittent"  # warm failure: not the cache


def test_cache_masked():
    # the failure appears only where the program was lowered cold; cache-served attempts pass
    assert classify([bad(1, cache=READ_FAILED), ok(2, cache=WARM)]) == "cache-masked"
    assert classify([bad(1, cache=MISS), bad(2, cache=COLD), ok(3, cache=WARM)]) == "cache-masked"
    # a passing attempt that also lowered cold shows the failure is not about the cache
    assert classify([bad(1, cache=COLD), ok(2, cache=COLD)]) == "intermittent"
    # every attempt cold and failing: nothing passed from the cache to compare with
    assert classify([bad(1, cache=COLD), bad(2, cache=MISS)]) == "deterministic"


def test_completed_attempt_with_failed_gates_counts_as_failed():
    gated = Attempt(
        1,
        "succeeded",
        0,
        9.0,
        "train.log",
        10,
        6.4,
        signature=make("gate_regression", None, "failed gates: max_final_loss"),
    )
    assert gated.failed
    assert classify([gated]) == "unconfirmed"
    assert classify([gated, gated]) == "deterministic"
    assert not ok().failed
    assert bad(outcome="timeout", sig=None).failed
