"""Started by every Python process that has this directory on its ``PYTHONPATH``: when
``CANARY_ZOO`` names bugs, the regression zoo (regressions.py) patches them into canary's
workload process as its modules are imported. Nothing happens without ``CANARY_ZOO``; a name it
does not know stops the process (a test that meant a bug never runs without it)."""

import os

if os.environ.get("CANARY_ZOO"):
    import regressions

    try:
        regressions.install(os.environ["CANARY_ZOO"])
    except ValueError as e:
        raise SystemExit(f"{e}") from None
