"""Runs tests/ray_cases.py (a real local Ray head and jobs on it) inside a fresh network and
process namespace (tests/netns.py): only loopback, so Ray binds 127.0.0.1 and no traffic leaves
the machine, and the namespace's process tree ends with the run, taking every Ray process with it.
Needs root (CI runs as root) or unprivileged user namespaces."""

from __future__ import annotations

from pathlib import Path

import pytest
from netns import assert_all_passed, run_cases

CASES = Path(__file__).resolve().parent / "ray_cases.py"


@pytest.mark.slow
def test_ray_launcher_cases_in_a_loopback_only_namespace():
    assert_all_passed(run_cases(CASES), CASES)
