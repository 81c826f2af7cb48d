"""Ferries, lanes and gates: the plain-text files people review, loaded into pydantic models.

Every model rejects unknown keys (``extra="forbid"``) and impossible values; a load error
names the file and the dotted key, the way pre-commit names a bad hook key. The models are
pure (:mod:`~canary.config.ferry`, :mod:`~canary.config.lanes`, :mod:`~canary.config.gates`,
on :mod:`~canary.config.base`); file I/O is :mod:`~canary.config.files`' alone. The names
below are the package's interface: import them from ``canary.config``.
"""

from canary.config.base import MAX_STEPS, DType, RaggedDot, Strict, Tiling, WandbMode
from canary.config.ferry import (
    COMMAND_PLACEHOLDERS,
    FERRY_KINDS,
    AnyFerry,
    CommandConfig,
    CommandFerry,
    CommandLane,
    DataConfig,
    Ferry,
    LaneOverrides,
    ModelConfig,
    OptimizerConfig,
    TrainerConfig,
    placeholders,
)
from canary.config.files import (
    config_identity,
    experiment,
    file_sha256,
    get_lane,
    load_ferry,
    load_gates,
    load_lanes,
    load_model,
    project_root,
    resolve,
    search_dirs,
    source_note,
)
from canary.config.gates import GatesFile, LaneGates, Severity
from canary.config.lanes import Lane, LanesFile, LauncherConfig

__all__ = [
    "COMMAND_PLACEHOLDERS",
    "FERRY_KINDS",
    "MAX_STEPS",
    "AnyFerry",
    "CommandConfig",
    "CommandFerry",
    "CommandLane",
    "DType",
    "DataConfig",
    "Ferry",
    "GatesFile",
    "Lane",
    "LaneGates",
    "LaneOverrides",
    "LanesFile",
    "LauncherConfig",
    "ModelConfig",
    "OptimizerConfig",
    "RaggedDot",
    "Severity",
    "Strict",
    "Tiling",
    "TrainerConfig",
    "WandbMode",
    "config_identity",
    "experiment",
    "file_sha256",
    "get_lane",
    "load_ferry",
    "load_gates",
    "load_lanes",
    "load_model",
    "placeholders",
    "project_root",
    "resolve",
    "search_dirs",
    "source_note",
]
