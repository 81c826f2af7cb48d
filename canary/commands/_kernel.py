"""The options of the commands that build a train step (run, repro, lower): which grouped-matmul
backend and which megablox tiling. Choices come from the config's own
types, so a backend added there is offered everywhere at once."""

from __future__ import annotations

from collections.abc import Callable
from typing import get_args

import click

from canary.config import RaggedDot, Tiling


def kernel_options(fn: Callable) -> Callable:
    fn = click.option(
        "--tiling",
        type=click.Choice(list(get_args(Tiling))),
        default=None,
        help="megablox tiling policy [default: the lane's].",
    )(fn)
    return click.option(
        "--ragged-dot",
        type=click.Choice(list(get_args(RaggedDot))),
        default=None,
        help="Grouped-matmul backend [default: $RAGGED_DOT_IMPL, else the lane's].",
    )(fn)
