"""conda's refusals of an environment and of its channels, by what was refused and not the machine's names. Pure.

conda names the environment it could not find (4.3's ``CondaEnvironmentNotFoundError: Could not find environment:
/x/envs/orange3 .``, later ``EnvironmentNameNotFound: Could not find conda environment: test-stable``, a shell's
``conda activate`` printing the words without a class), the prefix that already exists (``CondaValueError: prefix
already exists: H:\\x\\env``) and the channel's URL it could not fetch (``CondaHTTPError: HTTP 000 CONNECTION FAILED for
url <https://conda.anaconda.org/conda-forge/linux-64/repodata.json>``, then ``Elapsed:`` and a CDN's ``CF-RAY:``): the
refusal, the HTTP status and whether the prefix is conda's own root (an environment file without a name) are the
failure; which environment, prefix, channel and platform are the job's. The rule
takes its place in :data:`canary.signature.stacks.STACK_RULES`, the recogniser in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

_NOT_FOUND = re.compile(r"^Could not find (conda )?environment: .{1,500}$")
_PREFIX = re.compile(r"^(prefix already exists): (?!the base prefix$|an environment$).{1,500}$")
# (conda's own root, an environment file without a name: "~/anaconda2", "C:\\Miniconda"; any other is an environment's)
_BASE = re.compile(r"(?i)[\\/](?:(?:ana|mini)conda|(?:mini|mamba)forge)\d?[\\/]?\s*$")
_HTTP = re.compile(r"^(HTTP \d{3} [A-Z][A-Z ]{1,40}?) for url <[^>]{1,500}>.*$")


def conda_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``conda-environments`` rule: an environment not found without its name, a prefix that exists by whether it
    is the base, a channel's HTTP error without its URL, time or CDN id."""
    if message.startswith("Could not find "):
        message = _NOT_FOUND.sub(lambda m: f"Could not find {m[1] or ''}environment", message)
    elif message.startswith("prefix already exists: ") and (m := _PREFIX.match(message)):
        message = f"{m[1]}: " + ("the base prefix" if _BASE.search(m[0]) else "an environment")
    elif message.startswith("HTTP ") and exc == "CondaHTTPError":
        message = _HTTP.sub(r"\1 for url <channel>", message)
    return exc, message, frames


CONDA_ERRORS: list[BareError] = [
    # conda activate's words printed without a class, by a shell's hook, or under conda's class that names no error: the
    # job's environment is not on the machine
    environment_check(
        "conda-env-missing",
        ("Could not find conda environment: ",),
        r"^(?:(?P<cls>EnvironmentNameNotFound): )?Could not find conda environment: \S{1,300}$",
        lambda m: m["cls"],
        message=lambda m: "conda: Could not find conda environment",
    ),
]
