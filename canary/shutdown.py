"""A process's exit without the collector's last walk.

At shutdown CPython collects garbage once more, walking every object still alive to find
reference cycles whose finalizers should run. In a process that imported JAX (the workload) or
matplotlib (``canary run`` after its loss image), that walk takes 0.2-0.5 s on two cores, after
the work is done and before whoever waits for the process learns its exit status.

:func:`freeze_at_exit` registers ``gc.freeze`` as an exit handler: it moves every object still
alive into the collector's permanent generation, so the walk finds nothing to do. Registered
early, it runs after the exit handlers registered later (JAX's, W&B's, temporary directories')
run. Everything else of an exit still happens: the standard streams are flushed, and objects
freed by reference count (an open file, a socket) are closed as before. What is skipped is
what Python never promised: finalizers of objects in reference cycles that are still alive at
exit. canary closes its files, stores and connections itself.
"""

from __future__ import annotations

import atexit
import gc

_armed = False


def freeze_at_exit() -> None:
    """Once per process; call it before the imports and work whose exit handlers must run."""
    global _armed
    if not _armed:
        atexit.register(gc.freeze)
        _armed = True
