"""Python's project managers in their releases' words. Pure.

Poetry 2.0 no longer installs some commands by default and says so for the one asked ("Looks like you're trying to use
a Poetry command that is not available." above "Since Poetry (2.0.0), the shell command is not installed by
default."); a command it does not know at all, a plugin's that is not installed, is Cleo's refusal ('The command
"export" does not exist.'). PDM prints an error as its class in brackets before its words ("[NonExistentKey]: 'Key
"url" does not exist.'", tomlkit's class reading a lock file an older PDM wrote), quoted as a repr. Which command, or
which class and words, is the failure. Freezers refuse what they cannot bundle: PyInstaller a standard library module's
obsolete backport ("The 'pathlib' package is an obsolete backport of a standard library package and is incompatible
with PyInstaller."), Nuitka a Python newer than it ("FATAL: The Python version '3.12' is not supported by Nuitka
'2.1.5', ...") or from the Windows store. The recognisers take their place in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

PROJECT_TOOL_ERRORS: list[BareError] = [
    environment_check(
        "poetry-command-moved",
        ("the shell command is not installed by default", "command is not installed by default"),
        r"Since Poetry \((?P<v>\d[\d.]{0,10})\), the (?P<cmd>[\w-]{1,40}) command is not installed by default",
        None,
        message=lambda m: f"Poetry {m['v']}: the {m['cmd']} command is not installed by default",
    ),
    environment_check(
        "cleo-command-missing",
        ('" does not exist.',),
        r"^The command \"(?P<cmd>[\w -]{1,60})\" does not exist\.$",
        None,
        message=lambda m: f'The command "{m["cmd"]}" does not exist',
    ),
    # (PDM's own: its bracketed class is a class's name of two words or more, never a level's, "[ERROR]", or an issue
    # title's tag, "[Bug]: ...")
    BareError(
        "pdm-error",
        ("]: ",),
        re.compile(r"^\[(?P<cls>(?:[A-Z][a-z0-9]{1,30}){2,4})\]: (?P<q>['\"]?)(?P<msg>.{1,500}?)(?P=q)$"),
        lambda m: m["cls"],
        message=lambda m: m["msg"].rstrip("."),
    ),
    # (which package, and what to remove it with: pip or conda, where it is, is the machine's)
    environment_check(
        "pyinstaller-obsolete-backport",
        ("is an obsolete backport of a standard library package",),
        r"The '(?P<pkg>[\w.-]{1,60})' package is an obsolete backport of a standard library package and is "
        r"incompatible with PyInstaller",
        None,
        message=lambda m: f"PyInstaller: the '{m['pkg']}' package is an obsolete backport of a standard library module",
    ),
    # (the two versions are the machine's; which Python it refused, by why, is the failure)
    environment_check(
        "nuitka-python",
        ("is not supported by Nuitka", "from Windows store is not supported"),
        r"^FATAL: (?:Error, )?[Tt]he Python (?:version '[\d.]{1,10}' is not supported by Nuitka '[\d.]{1,12}'|"
        r"from (?P<store>Windows store) is not supported)",
        None,
        message=lambda m: (
            "Nuitka: the Python " + ("from Windows store is not supported" if m["store"] else "is too new")
        ),
    ),
]
