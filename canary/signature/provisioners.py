"""Terraform and Ansible refusing an ML platform's infrastructure code after an upgrade of the tool, its providers or
collections, or the machine it runs on. Pure.

Terraform prints a diagnostic as a summary ("Error: Incompatible provider version", in a box of "│" since 0.15 or
bare before it) and a detail that names the provider, the platform, the constraint and the machine's Terraform
("Provider registry.terraform.io/hashicorp/template v2.2.0 does not have a package available for your current
platform, darwin_arm64.", "This configuration does not support Terraform version 1.4.0", "Module module.x (from ...)
does not support Terraform version 1.3.7", "Could not retrieve the list of available versions for provider
hashicorp/curl: provider registry registry.terraform.io does not have a provider named ..."), wrapped at any width;
``terraform providers lock`` words a missing platform its own way. Ansible names the module or action it could not
resolve, bare after "ERROR!" or in a task's JSON. Which summary, and what its detail says of the provider, the
platform, the configuration or module and its constraint, are the failure; versions, paths and hosts are the job's.
The recognisers take their place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check

_SUMMARIES = (
    "Incompatible provider version",
    "Unsupported Terraform Core version",
    "Failed to query available provider packages",
    "Failed to install provider",
    "Inconsistent dependency lock file",
)
_BOX = re.compile(r"^[\s│╷]*")
_PLATFORM = re.compile(
    r"Provider (?:[\w.-]{1,100}/)?(?P<p>[\w-]{1,100}/[\w-]{1,100}) v?[\w.+-]{1,40} does not have a package available "
    r"for your current platform, (?P<plat>\w{1,40})"
)
_CONSTRAINT = re.compile(r'required_version = "(?P<op>~>|>=|<=|!=|=|>|<)?')
_QUERY = (
    ("does not have a provider named", "the registry has no provider of that name"),
    ("no available releases match the given constraints", "no available releases match the given constraints"),
    ("could not connect to", "could not connect to the registry"),
)


def _detail(lines: list[str], i: int, said: str) -> str:
    """The summary's detail below it, inside its box or not, read for what it says of the failure."""
    words: list[str] = []
    for line in lines[i + 1 : i + 16]:
        s = _BOX.sub("", line).strip()
        if s.startswith(("╵", "Error: ", "$ ")) or line.strip().startswith("╵"):
            break
        words += s.split()
    text = " ".join(words)
    summary = said.removeprefix("Terraform: ")
    if summary == "Incompatible provider version" and (m := _PLATFORM.search(text)):
        return f"{said}: {m['p']} has no package for {m['plat']}"
    if summary == "Unsupported Terraform Core version":
        who = "a module" if re.search(r"\bModule \S", text) else "this configuration"
        op = (m["op"] or "=") if (m := _CONSTRAINT.search(text)) else None
        return f"{said}: {who}" + (f" requires {op} a version" if op else "")
    if summary == "Failed to query available provider packages":
        return next((f"{said}: {why}" for words_, why in _QUERY if words_ in text), said)
    return said


_V3_INDEX = re.compile(r"(/collections/index/)[\w-]{1,100}/[\w-]{1,100}(/versions/)")


def _kind(text: str) -> str:
    return "infrastructure" if text.endswith("could not connect to the registry") else "environment"


PROVISIONER_ERRORS: list[BareError] = [
    BareError(
        "terraform-diagnostic",
        tuple(f"Error: {s}" for s in _SUMMARIES),
        re.compile(r"^(?:[│╷] ?)?Error: (?P<s>" + "|".join(_SUMMARIES) + r")$"),
        None,
        _kind,
        message=lambda m: f"Terraform: {m['s']}",
        below=_detail,
    ),
    environment_check(
        "terraform-lock-platform",
        ("failed to fetch the requested providers for ",),
        r"Terraform failed to fetch the requested providers for (?P<plat>\w{1,40}) in order",
        None,
        message=lambda m: f"Terraform failed to fetch the requested providers for {m['plat']} to calculate checksums",
    ),
    environment_check(
        "ansible-unresolved",
        ("couldn't resolve module/action '",),
        r"couldn't resolve module/action '(?P<mod>[\w.]{1,200})'",
        None,
        message=lambda m: f"Ansible: couldn't resolve module/action '{m['mod']}'",
    ),
    # ansible-galaxy's report of an exception it did not expect ("ERROR! Unexpected Exception, this is probably a bug:
    # 'results'"), by the exception's words (a KeyError's key: a field Galaxy's reply lacks, or the moved v3 API's
    # path an older client asks for, whichever collection), alone, in a task's JSON or in an image build's quotes
    environment_check(
        "ansible-unexpected",
        ("ERROR! Unexpected Exception, this is probably a bug: ",),
        r"ERROR! Unexpected Exception, this is probably a bug: (?P<key>'[^']{1,300}'|[^\"']{1,300}?)(?=\"|$)",
        None,
        message=lambda m: "Ansible: Unexpected Exception: " + _V3_INDEX.sub(r"\1<collection>\2", m["key"]),
    ),
]
