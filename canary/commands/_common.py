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


def emit_json(obj: Any, one_per_line: tuple[str, ...] = ()) -> None:
    """``obj`` as indented JSON on stdout. The lists (or iterables) of the top-level keys in
    ``one_per_line`` (a history's 100,000 records) are written an item to a line as each is
    encoded: the indented encoder is pure Python and builds the whole text first, several times
    slower."""
    if not one_per_line or not isinstance(obj, dict):
        click.echo(json.dumps(obj, indent=2, default=str))
        return
    out, encode = sys.stdout, json.JSONEncoder(default=str).encode  # json.dumps makes an encoder a call
    out.write("{")
    for n, (key, value) in enumerate(obj.items()):
        out.write("," if n else "")
        if key in one_per_line:
            out.write(f"\n  {json.dumps(key)}: [")
            n = 0
            for n, item in enumerate(value, 1):  # a list, or a generator: each item made as it is written
                out.write(("," if n > 1 else "") + "\n    " + encode(item))
            out.write("\n  ]" if n else "]")
        else:
            out.write(json.dumps({key: value}, indent=2, default=str)[1:-2])  # "\n  key: ...", as indented
    out.write("\n}\n" if obj else "}\n")
    out.flush()
