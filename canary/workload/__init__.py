"""The ferry's own training program. Everything under this package imports JAX and runs in the
workload's process (``python -m canary.workload.train SPEC``), never in the harness."""
