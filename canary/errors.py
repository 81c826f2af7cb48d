"""Errors the harness distinguishes: bad input (exit 2) versus a failed canary (exit 1)."""


class CanaryError(Exception):
    """Base class for errors canary reports without a traceback."""

    exit_code = 1


class ConfigError(CanaryError):
    """Bad input: an unknown lane or ferry, an invalid file, an impossible value."""

    exit_code = 2
