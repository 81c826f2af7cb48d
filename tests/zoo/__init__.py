"""The regression zoo (:mod:`zoo.regressions`): deliberate bugs the tests patch into canary's
workload from outside, through this directory's ``sitecustomize.py``."""
