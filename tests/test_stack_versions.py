"""Run records carry the stack's installed versions; a new failure's version changes put first the
change of the distribution that owns the failing frame (as a window puts watched paths first)."""

import importlib.metadata

from canary.history.windows import version_changes
from canary.record import Signature
from canary.run.ownership import failing_distribution, owner_of_frame
from canary.run.workload import versions

BEFORE = {"jax": "0.10.2", "optax": "0.2.6", "marin-haliax": "0.2.19.dev1", "marin-levanter": "0.2.19.dev1"}
AFTER = {
    "jax": "0.10.3",
    "optax": "0.2.6",
    "marin-haliax": "0.2.20.dev202606180959",
    "marin-levanter": "0.2.20.dev202606180959",
}


def test_the_failing_distributions_change_comes_first():
    plain = version_changes(BEFORE, AFTER)
    assert [v.name for v in plain] == ["jax", "marin-haliax", "marin-levanter"]
    assert not any(v.owns_failure for v in plain)
    first = version_changes(BEFORE, AFTER, failing="marin-haliax")
    assert [v.name for v in first] == ["marin-haliax", "jax", "marin-levanter"]
    assert [v.owns_failure for v in first] == [True, False, False]
    # an owner whose version did not change is not listed
    assert [v.name for v in version_changes(BEFORE, AFTER, failing="optax")] == [
        "jax",
        "marin-haliax",
        "marin-levanter",
    ]


def test_records_carry_the_installed_stack():
    got = versions()
    for dist in ("marin-levanter", "marin-haliax", "jax"):
        assert got[dist] == importlib.metadata.version(dist)


def test_a_signatures_innermost_owned_frame_names_its_distribution():
    haliax = importlib.metadata.version("marin-haliax")
    assert owner_of_frame("haliax/nn/ragged_dot.py:_ragged_dot_megablox_impl") == ("marin-haliax", haliax)
    assert owner_of_frame("canary/workload/grug_model.py:__call__") is None
    sig = Signature(
        "f",
        "exception",
        frames=[
            "canary/workload/train.py:train",
            "levanter/grug/_moe/scatter.py:_moe_mlp_local_scatter",
            "haliax/nn/ragged_dot.py:_ragged_dot_megablox_impl",
        ],
    )
    assert failing_distribution(sig) == "marin-haliax"
    assert failing_distribution(Signature("f", "exception", frames=["canary/workload/train.py:train"])) is None
    assert failing_distribution(None) is None
