"""What every subcommand shares: turning library errors into exit codes, and --json."""

from __future__ import annotations

import functools
import json
import sys
from collections.abc import Callable
from typing import Any

import click

from canary.errors import CanaryError
from canary.textio import printable


def handle_errors(fn: Callable) -> Callable:
    """Bad input exits 2 with a one-paragraph message and no traceback."""

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        try:
            return fn(*args, **kwargs)
        except CanaryError as e:
            click.echo(f"canary: {printable(str(e))}", err=True)
            sys.exit(e.exit_code)

    return wrapper


def json_option(fn: Callable) -> Callable:
    return click.option("--json", "as_json", is_flag=True, help="Print a machine-readable JSON result.")(fn)


def emit_json(obj: Any) -> None:
    click.echo(json.dumps(obj, indent=2, default=str))
