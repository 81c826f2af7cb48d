"""What the notifier states about a run beyond its record: the lane's description, and what the
run history says (the streak, the last pass, the regression window, the streak a pass ends)."""

from __future__ import annotations

from canary.errors import ConfigError
from canary.notify.compose import Facts
from canary.record import RunRecord


def lane_facts(lane_name: str) -> tuple[str, str]:
    """(context, platform) of a lane as lanes.toml describes it; empty when the lane is unknown here."""
    from canary.config import get_lane

    try:
        lane = get_lane(lane_name)
    except ConfigError:
        return "", ""
    return lane.context, lane.platform


def facts_for(record: RunRecord, history: list[RunRecord] | None = None) -> Facts:
    context, platform = lane_facts(record.lane)
    if history is None:
        return Facts(lane_context=context, platform=platform,
                     window_note="no run history was given, so the streak and the window are unknown")
    return Facts(lane_context=context, platform=platform)
