"""The ground floor every layer reads: what a run leaves on disk (``directory``, ``metrics``,
``compile_cache``'s facts) and the contract between the harness and the workload process
(``spec``, ``signals``). It imports only ``config`` and the shared basics."""
