"""Running the workload: a run from its inputs to its run directory, and what it wrote there."""
