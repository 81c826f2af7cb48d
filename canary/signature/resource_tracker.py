"""Python's multiprocessing resource tracker at exit, in the words of each release (and of joblib's loky, which keeps
its own). Pure.

The tracker warns of what the processes left at shutdown ("resource_tracker: There appear to be 1 leaked semaphore
objects to clean up at shutdown", Python 3.6's "semaphore_tracker: There appear to be 5 leaked semaphores ...", "...
leaked shared_memory objects ...", loky's "... leaked folder objects ..." and "... leaked semlock objects ..."), and of
its own process dying ("resource_tracker: process died unexpectedly, relaunching. Some resources might leak."): which
kind of resource, not how many (weak, UserWarnings the interpreter goes on after). They take their place in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError


def _tracked(m: re.Match[str]) -> str:
    if m["died"]:
        return "resource_tracker: process died unexpectedly, relaunching"
    kind = "semaphore" if m["kind"] == "semaphores" else m["kind"]
    return f"resource_tracker: leaked {kind} objects to clean up at shutdown"


RESOURCE_TRACKER_ERRORS: list[BareError] = [
    BareError(
        "resource-tracker",
        ("_tracker: There appear to be ", "resource_tracker: process died unexpectedly"),
        re.compile(
            r"(?:resource|semaphore)_tracker: (?:There appear to be \d{1,9} leaked (?P<kind>semaphores|\w{1,40}) "
            r"(?:objects )?to clean up at shutdown|(?P<died>process died unexpectedly))"
        ),
        "UserWarning",
        message=_tracked,
        weak=True,
    ),
]
