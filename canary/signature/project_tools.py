"""Python's project managers in their releases' words. Pure.

Poetry 2.0 no longer installs some commands by default and says so for the one asked ("Looks like you're trying to use a
Poetry command that is not available." above "Since Poetry (2.0.0), the shell command is not installed by default."); a
command it does not know at all, a plugin's that is not installed, is Cleo's refusal ('The command "export" does not
exist.'). PDM prints an error as its class in brackets before its words ("[NonExistentKey]: 'Key "url" does not
exist.'", tomlkit's class reading a lock file an older PDM wrote), quoted as a repr. Which command, or which class and
words, is the failure. Freezers refuse what they cannot bundle: PyInstaller a standard library module's obsolete
backport ("The 'pathlib' package is an obsolete backport of a standard library package and is incompatible with
PyInstaller."), Nuitka a Python newer than it ("FATAL: The Python version '3.12' is not supported by Nuitka '2.1.5',
...") or from the Windows store; twine a distribution or an upload, in rich's layout; setuptools-scm a setuptools older
than it needs; setup.py an option a builder passes that its setuptools dropped. The recognisers take their place in
:data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

# twine's errors in rich's layout: the level, the class and its words, which go on below indented under them
# ("ERROR    InvalidDistribution: Metadata is missing required fields: Name, Version." over "         Make sure the
# distribution includes ..."; PyPI's response to an HTTPError), or the class and words alone
_TWINE = re.compile(
    r"^(?:Checking \S{1,300}: )?(?:(?:ERROR {1,8})?(?P<cls>InvalidDistribution|PackageNotFound|InvalidConfiguration|"
    r"UploadToDeprecatedPyPIDetected|RedirectDetected|InvalidPyPIUploadURL|NonInteractive|TrustedPublishingFailure)|"
    r"ERROR {1,8}(?P<http>HTTPError)): (?P<msg>.{1,500}?)\s*$"
)
_UNDER = re.compile(r"^ {9}(\S.{0,500}?)\s*$")


def _twine_below(lines: list[str], i: int, said: str) -> str:
    """twine's words with the lines rich indented under them."""
    more = []
    for line in lines[i + 1 : i + 9]:
        if not (m := _UNDER.match(line)):
            break
        more.append(m[1])
    return " ".join([said, *more])


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
    BareError(
        "twine-error",
        ("InvalidDistribution: ", "ERROR "),
        _TWINE,
        lambda m: m["cls"] or m["http"],
        below=_twine_below,
    ),
    # setuptools-scm 8's warning that the setuptools it runs under is older than it needs ("ERROR: setuptools==56.0.0 is
    # used in combination with setuptools_scm>=8.x"; which older setuptools is the machine's)
    environment_check(
        "setuptools-scm-floor",
        (" is used in combination with setuptools",),
        r"^ERROR: setuptools==[\w.]{1,20} is used in combination with setuptools[_-]scm>=(?P<v>\d{1,2})\.x",
        None,
        message=lambda m: f"setuptools-scm>={m['v']} is used with a setuptools older than it requires",
    ),
    # distutils' refusal, under setup.py's usage, of an option a builder passes that the setuptools installed dropped
    # or never had (colcon's "--editable" for a symlink install under setuptools 80, "--install-layout" on a Debian
    # patch's absence): which option
    environment_check(
        "setup-option-refused",
        (" not recognized",),
        r"^error: option (?P<opt>--[\w-]{1,60}) not recognized$",
        None,
        message=lambda m: f"setup.py: option {m['opt']} not recognized",
    ),
]
