"""The ferry's own training program. Everything under this package imports JAX and runs in the
workload's process (``python -m canary.workload.train SPEC``), never in the harness."""

from canary.shutdown import freeze_at_exit

# The workload's process ends without the collector's last walk over JAX's objects (0.3-0.5 s):
# registered before JAX is imported, so JAX's own exit handlers run first.
freeze_at_exit()
