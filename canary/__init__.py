"""canary: keep a pinned tiny training run healthy on every accelerator lane.

The package is a library first; ``canary.cli`` is a thin click skin over it.
Nothing imported here pulls in JAX: the workload (``canary.workload``) runs in
its own process and is the only part that does.
"""

__version__ = "0.1.0"
