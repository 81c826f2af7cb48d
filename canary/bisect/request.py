"""What a ``canary bisect`` asks for, made whole: a commit bisect (``--good``/``--bad``) or a
version bisect (``--package``/``--old``/``--new``), its lane, ferry, fingerprint, steps and test
taken from the failing run (``--run``) where the flags leave them out. Bad combinations are a
:class:`~canary.errors.ConfigError` naming the flags."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from canary.errors import ConfigError


@dataclass
class Request:
    """The flags of one ``canary bisect``, as given."""

    lane: str | None = None
    good: str | None = None
    bad: str | None = None
    packages: list[str] = field(default_factory=list)
    old: str | None = None
    new: str | None = None
    python: str | None = None
    cache: str | None = None
    test: str | None = None
    ferry: str | None = None
    fingerprint: str | None = None
    run: str | None = None  # the failing run: directory, result.json or run id
    steps: int | None = None
    other_failure: str = "skip"
    budget_s: float | None = None
    checkout: str = "."


def with_run(req: Request, runs_dir: Path = Path("runs")) -> Request:
    """The request with what the failing run says filled in where the flags are silent."""
    if req.run is None:
        return req
    from canary.bisect import lane_test
    from canary.history import load_record

    record = load_record(req.run, runs_dir)
    sig = record.signature
    lane = req.lane or record.lane
    return Request(
        **{
            **req.__dict__,
            "lane": lane,
            "ferry": req.ferry or record.ferry,
            "fingerprint": req.fingerprint or (sig.fingerprint if sig else None),
            "steps": req.steps or record.steps_requested,
            "test": req.test or lane_test(sig.kind if sig else None, lane) or "lower",
        }
    )


def prepare(req: Request) -> tuple[str, Callable[[Any], Any]]:
    """What is bisected ("commits" or "versions") and the bisect to run with a progress."""
    req = with_run(req)
    if req.lane is None:
        raise ConfigError("say which lane with --lane LANE (or give the failing run with --run)")
    shared: dict[str, Any] = {  # what a commit bisect and a version bisect are both given
        "lane": req.lane,
        "test": req.test or "lower",
        "ferry": req.ferry or "moe-canary",
        "fingerprint": req.fingerprint,
        "steps": req.steps,
        "budget_s": req.budget_s,
        "other_failure": req.other_failure,
    }
    if req.packages:
        if req.good or req.bad or req.old is None or req.new is None:
            raise ConfigError(
                "--package bisects published versions: give --old V1 and --new V2 "
                "(--good and --bad are revisions of a commit bisect)"
            )
        from canary.bisect.published import VersionBisectOptions, bisect_versions

        vopts = VersionBisectOptions(
            packages=list(req.packages), old=req.old, new=req.new, python=req.python, cache=req.cache, **shared
        )
        return "versions", lambda progress: bisect_versions(vopts, progress)
    if req.good is None or req.bad is None:
        raise ConfigError(
            "give --good REV and --bad REV (or --package NAME --old V1 --new V2 to bisect published versions)"
        )
    if req.old or req.new or req.python or req.cache:
        raise ConfigError("--old, --new, --python and --cache belong to a version bisect: add --package NAME")
    from canary.bisect import BisectOptions
    from canary.bisect import bisect as bisect_commits

    opts = BisectOptions(good=req.good, bad=req.bad, checkout=req.checkout, **shared)
    return "commits", lambda progress: bisect_commits(opts, progress)
