"""The scheduled lane's rehearsal (tests/rehearsal_cases.py): the workflow's doctor and canary
steps, read from .github/workflows/canary-lane.yml and run with bash, against a Ray head,
fake-gcs-server, the local GitHub server and a shallow clone. It runs in a loopback-only
namespace for the Ray head (tests/netns.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from netns import assert_all_passed, run_cases

CASES = Path(__file__).resolve().parent / "rehearsal_cases.py"


@pytest.mark.slow
def test_the_scheduled_lane_rehearsed_as_its_workflow_runs_it():
    # Ray's job start timeout at a minute: a supervisor slow to start on a loaded machine is not
    # what this rehearses.
    assert_all_passed(run_cases(CASES, timeout=1500, env={"CANARY_TEST_RAY_START_TIMEOUT_S": "60"}), CASES)
