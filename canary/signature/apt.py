"""apt on a runner or in an image's build: a repository's signing key the machine lacks or lists twice, a release moved
to its distribution's archive, a package or a version a repository no longer serves, an index half-synced, dpkg's lock.
Pure.

apt says each as a line of its own ("W: GPG error: ... NO_PUBKEY A4B469963BF863CC", "E: The repository 'http://x/debian
buster Release' does not have a Release file.", "E: Unable to locate package x") and the build ends on its exit status
after it ("returned a non-zero code: 100"), which names nothing. Part of :data:`canary.signature.runners.RUNNER_CHECKS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment
from canary.signature.recogniser import infrastructure_check as _infrastructure

_NO_RELEASE = re.compile(
    r"(?:^|(?<=\s))(?:[WE]: )?The repository '(?:https?://)?(?P<host>[\w.-]{1,200})/\S{0,500}?"
    r"(?:\s{1,4}(?P<suite>[\w.-]{1,40})(?:/[\w.-]{1,40})?)?\s{1,4}(?:In)?Release' (?:does not|no longer) ha(?:ve|s) "
    r"a Release file"
)
# a distribution's suites of one release: "buster-updates", "impish-security", "stretch-backports"
_SUITE = re.compile(r"-(?:updates|security|backports|proposed)$")


def _no_release(m: re.Match[str]) -> str:
    """Which repository lost its Release file: a flat one (no suite) by its host, a distribution by its domain and
    release."""
    if not m["suite"]:
        return f"apt: the repository no longer has a Release file: {m['host']}"
    domain = ".".join(m["host"].split(".")[-2:])
    return f"apt: the repository no longer has a Release file: {domain} {_SUITE.sub('', m['suite'])}"


def _archived(lines: list[str], i: int, said: str) -> str:
    """A 404 after apt warned that the repository has no Release file (apt 1.4 warns, then fails on the files): the
    release moved to an archive, as the warning says, not the host's bad day."""
    for j in range(i - 1, max(-1, i - 12), -1):
        m = _NO_RELEASE.search(lines[j])
        if m:
            return _no_release(m)
    return said


APT_CHECKS: list[BareError] = [
    # apt: a repository whose signing key the machine lacks (NVIDIA's CUDA repository rotated its key in 2022), a
    # package list never fetched ("E: Unable to locate package x": install before update), an index a mirror served
    # half-synced ("Hash Sum mismatch"), dpkg's lock held by another process (unattended-upgrades) or not there to take
    _environment(
        "apt-key",
        ("NO_PUBKEY ",),
        r"NO_PUBKEY (?P<key>[0-9A-F]{8,40})",
        None,
        message=lambda m: f"apt: the public key is not available: NO_PUBKEY {m['key']}",
    ),
    # (a source listed twice with different keyrings, after a key rotation's instructions added a second list: "E:
    # Conflicting values set for option Signed-By regarding source https://x/ubuntu2004/x86_64/ /: <keyring> != ";
    # which source; and a signature apt could not check at all, "At least one invalid signature was encountered.",
    # the mirror's or the machine's on the way in)
    _environment(
        "apt-signed-by",
        ("Conflicting values set for option Signed-By",),
        r"Conflicting values set for option Signed-By regarding source (?:https?://)?(?P<src>\S{1,300})",
        None,
        message=lambda m: f"apt: conflicting Signed-By values for the source {m['src'].rstrip('/')}",
    ),
    _infrastructure(
        "apt-invalid-signature",
        ("At least one invalid signature was encountered",),
        r"At least one invalid signature was encountered",
        "apt: at least one invalid signature was encountered",
    ),
    _environment(
        "apt-no-package",
        ("Unable to locate package",),
        r"^E: Unable to locate package \S{1,200}$",
        None,
        message=lambda m: "apt: Unable to locate package",
    ),
    # (a package a distribution's release renamed or dropped: "E: Package 'libgl1-mesa-glx' has no installation
    # candidate", Ubuntu 24.04's; which package is the failure)
    _environment(
        "apt-no-candidate",
        ("has no installation candidate",),
        r"(?:^|(?<=[\s\"]))E: Package '(?P<pkg>[\w.+-]{1,100})' has no installation candidate",
        None,
        message=lambda m: f"apt: Package '{m['pkg']}' has no installation candidate",
    ),
    # (a version a pin names that the repository no longer serves, "E: Version '2.3.7-1+cuda10.0' for 'libnccl2' was not
    # found", and a package whose dependency another pin holds back, "libnccl-dev : Depends: libnccl2 (= 2.18.5-1+
    # cuda12.2) but 2.17.1-1+cuda12.1 is to be installed": which packages; the versions are the image's and the pin's)
    _environment(
        "apt-version",
        ("' was not found",),
        r"(?:^|(?<=[\s\"`]))E: Version '[^']{1,100}' for '(?P<pkg>[\w.+-]{1,100})' was not found",
        None,
        message=lambda m: f"apt: the version pinned for '{m['pkg']}' was not found",
    ),
    _environment(
        "apt-depends",
        (" is to be installed",),
        r"(?:^|(?<=[\s:]))(?P<pkg>[\w.+-]{1,100}) : Depends: (?P<dep>[\w.+-]{1,100}) \([<>=]{1,2} [^)]{1,100}\) but "
        r"[^ ]{1,100} is to be installed",
        None,
        message=lambda m: f"apt: {m['pkg']} depends on a version of {m['dep']} other than the one to be installed",
    ),
    _infrastructure("apt-hash", ("Hash Sum mismatch",), r"Hash Sum mismatch", "apt: Hash Sum mismatch"),
    # a repository its publisher removed (NVIDIA's per-release libnvidia-container paths, 2023) or a distribution's
    # release moved to its archive after its end of life (Debian's buster and stretch, Ubuntu's impish): apt's "E: The
    # repository '<url> <suite> Release' does not have a Release file." (later "no longer has"; apt 1.4 only warns,
    # "W: ...", and fails on the 404s after it), a title's without its "E: ": a flat repository by its host, a
    # distribution by its domain and release (deb.debian.org and security.debian.org serve one; "buster-updates" and
    # "buster/updates" are buster's); a file the host serves 404 for one day ("E: Failed to fetch <url>/Packages  404
    # Not Found", NVIDIA's CDN in 2022) is the host's
    _environment(
        "apt-no-release",
        ("a Release file",),
        _NO_RELEASE.pattern,
        None,
        message=_no_release,
    ),
    BareError(
        "apt-fetch-404",
        ("Failed to fetch ",),
        re.compile(
            r"^(?:#\d{1,4} [\d.]{1,10} )?E: Failed to fetch (?:https?://)?[\w.-]{1,200}/\S{1,500}\s{1,4}404\s{1,4}"
            r"Not Found"
        ),
        None,
        lambda said: "environment" if "Release file" in said else "infrastructure",
        message=lambda m: "apt: a file of the repository was not found (404)",
        below=_archived,
    ),
    _infrastructure(
        "apt-lock-held",
        ("It is held by process", "Resource temporarily unavailable", "is another process using it"),
        r"^E: Could not get lock /var/lib/dpkg/\S{1,60}(?:\. It is held by process| - open \(11: Resource temporarily "
        r"unavailable\))|^E: Unable to acquire the dpkg frontend lock .{1,200}is another process using it\?",
        "apt: the dpkg lock is held by another process",
    ),
    _environment(
        "apt-lock-missing",
        ("are you root?",),
        r"^E: Unable to acquire the dpkg frontend lock .{1,200}are you root\?",
        None,
        message=lambda m: "apt: could not open the dpkg lock (are you root?)",
    ),
    # apt refusing a repository's Release file by its dates ("E: Release file for http://x/dists/focal/InRelease is not
    # valid yet (invalid for another 3h 54min 10s).", "... is expired (invalid since 4d 17h 44min 44s)."): a clock
    # behind the repository's (the machine's), or a mirror not refreshed (the repository's); which repository is not
    _environment(
        "apt-release-not-valid-yet",
        ("is not valid yet (invalid for another",),
        r"Release file for \S{1,500} is not valid yet \(invalid for another",
        None,
        message=lambda m: "apt: a Release file is not valid yet (the machine's clock is behind)",
    ),
    BareError(
        "apt-release-expired",
        ("is expired (invalid since",),
        re.compile(r"Release file for \S{1,500} is expired \(invalid since"),
        None,
        "infrastructure",
        message=lambda m: "apt: a Release file is expired (the repository is not refreshed)",
    ),
]
