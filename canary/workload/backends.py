"""A kernel with several implementations, one per module, chosen by name or by ``auto``.

The ragged_dot (grouped matmul) backends are one of these: each backend is a module with
``make(platform=..., **options)``; ``auto`` maps to a backend per platform.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class Choice:
    kind: str  # what the backends implement, for messages: "ragged_dot"
    modules: dict[str, str]  # name -> module defining make(platform=..., **options)
    auto: dict[str, str]  # platform -> what "auto" means there
    default: str  # what "auto" means on any other platform

    def resolve(self, name: str, platform: str) -> str:
        if name == "auto":
            return self.auto.get(platform, self.default)
        if name not in self.modules:
            raise ValueError(f"unknown {self.kind} backend {name!r}; known: {', '.join(sorted(self.modules))}")
        return name

    def make(self, name: str, platform: str = "cpu", **options) -> Callable:
        module = importlib.import_module(self.modules[self.resolve(name, platform)])
        return module.make(platform=platform, **options)
