"""A project's pyproject.toml against the pip and setuptools that build it, in their words by release: pip refusing an
editable install its build backend cannot do (since PEP 660: "ERROR: Project file:///x has a 'pyproject.toml' and its
build backend is missing the 'build_editable' hook. ..."; before it: 'ERROR: File "setup.py" not found. Directory
cannot be installed in editable mode: x' above "(A "pyproject.toml" file was found, but editable mode currently requires
a setup.py based build.)", later '"setup.py" or "setup.cfg"' and "a setuptools-based build"), and a setuptools older
than a project's license string refusing it ("configuration error: `project.license` must be valid exactly by one
definition (2 matches found):", which it raises as "ValueError: invalid pyproject.toml config: `project.license`."; a
title may drop the backticks); and pip's and uv's hash-checking mode refusing a requirements file before any download
(a requirement not pinned, one without a hash, an editable one). Pure. Which refusal and which field are the failure;
which project, which requirements and which directory are the run's. They take their place in
:data:`canary.signature.toolchain_checks.TOOLCHAIN_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

_HASH_MODE = {
    "pin": "a requirement not pinned with ==",
    "hash": "a requirement without a hash",
    "editable": "an editable requirement, no single file to hash",
}


PYPROJECT_CHECKS: list[BareError] = [
    environment_check(
        "pip-editable",
        ("missing the 'build_editable' hook", "cannot be installed in editable mode"),
        r"(?P<hook>has a 'pyproject\.toml' and its build backend is missing the 'build_editable' hook)|"
        r"File \"setup\.py\"(?: or \"setup\.cfg\")? not found\. Directory cannot be installed in editable mode",
        None,
        message=lambda m: (
            "pip: the build backend is missing the 'build_editable' hook (PEP 660)"
            if m["hook"]
            else "pip: editable mode requires a setup.py-based build"
        ),
    ),
    BareError(
        "setuptools-config-field",
        ("must be valid exactly by one definition",),
        re.compile(r"configuration error: `?(?P<field>[\w.-]{1,100})`? must be valid exactly by one definition"),
        "ValueError",
        message=lambda m: f"invalid pyproject.toml config: `{m['field']}`",
    ),
    # pip's and uv's hash-checking mode refusing a requirements file before any download: a requirement not pinned
    # with == ("In --require-hashes mode, all requirements must have their versions pinned with ==. These do not:"),
    # one without a hash (pip's "Hashes are required in --require-hashes mode, but they are missing from some
    # requirements.", uv's "In `--require-hashes` mode, all requirement must have a hash"), an editable one ("...
    # cannot be installed when requiring hashes, because there is no single file to hash."): which, whichever installer
    environment_check(
        "require-hashes",
        ("require-hashes", "when requiring hashes"),
        r"(?P<pin>all requirements must have their versions pinned with ==)|(?P<hash>Hashes are required in "
        r"--require-hashes mode|all requirements? must have a hash)|"
        r"(?P<editable>cannot be installed when requiring hashes)",
        None,
        message=lambda m: "--require-hashes: " + _HASH_MODE[m.lastgroup],
    ),
]
