"""A kernel with several implementations, one per module, chosen by name or by ``auto``.

The ragged_dot (grouped matmul) and attention backends are both one of these: each backend is a
module with ``make(platform=..., **options)``; ``auto`` maps to a backend per platform; a
backend that cannot run here (a module with ``unavailable_reason()`` returning a reason) is
swapped for its fallback when it was chosen by ``auto``, never when it was asked for by name.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable


@dataclass(frozen=True)
class Choice:
    kind: str                   # what the backends implement, for messages: "ragged_dot"
    modules: dict[str, str]     # name -> module defining make(platform=..., **options)
    auto: dict[str, str]        # platform -> what "auto" means there
    default: str                # what "auto" means on any other platform
    fallback: dict[str, str] = field(default_factory=dict)  # backend -> where auto goes without it

    def fallback_reason(self, name: str, platform: str) -> str | None:
        """Why ``auto`` on this platform is not its first choice here (None when it is)."""
        choice = self.auto.get(platform, self.default) if name == "auto" else None
        if choice not in self.fallback:
            return None
        reason = importlib.import_module(self.modules[choice]).unavailable_reason()
        return f"{choice} is unavailable, using {self.fallback[choice]}: {reason}" if reason else None

    def resolve(self, name: str, platform: str) -> str:
        if name == "auto":
            choice = self.auto.get(platform, self.default)
            return self.fallback[choice] if self.fallback_reason(name, platform) else choice
        if name not in self.modules:
            raise ValueError(f"unknown {self.kind} backend {name!r}; known: {', '.join(sorted(self.modules))}")
        return name

    def make(self, name: str, platform: str = "cpu", **options) -> Callable:
        module = importlib.import_module(self.modules[self.resolve(name, platform)])
        return module.make(platform=platform, **options)
