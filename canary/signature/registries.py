"""Container registries as an image's build or pull meets them: a tag the registry retired, the registry out of
reach, its limits on requests, its refusal of the machine's credentials, and NVIDIA's end-of-life CUDA images. Pure.
Part of :data:`canary.signature.containers.CONTAINER_CHECKS`; each is the tool's line, with no class.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, match_below
from canary.signature.recogniser import environment_check as _environment

# the pull a refusal answers, where the daemon's words do not name the registry ("docker pull ghcr.io/o/x:1.0")
_PULL = re.compile(r"docker pull (?P<host>[\w-]{1,100}(?:\.[\w-]{1,100}){1,5})/")


def _pulled_from(lines: list[str], i: int, said: str) -> str:
    """A registry's refusal with the registry the pull above it named, where its own words name none."""
    if said.count(": ") > 1:
        return said
    m = match_below(_PULL, lines, max(0, i - 3), i)
    return f"{said}: {m['host']}" if m else said


REGISTRY_CHECKS: list[BareError] = [
    # a registry without the tag an image is built from or run as ("manifest for
    # nvidia/cuda:11.1-cudnn8-devel-ubuntu20.04 not found: manifest unknown: manifest unknown", podman's "reading
    # manifest 10.2-cudnn7-devel-ubuntu18.04 in docker.io/nvidia/cuda: manifest unknown"): a tag the registry retired;
    # which repository (its tags are retired together: the pinned one is the program's)
    _environment(
        "image-tag",
        ("manifest unknown", "failed to resolve source metadata for ", "failed to solve: ", "manifest for "),
        # (BuildKit's words: "failed to solve: nvidia/cuda:10.2-...: failed to resolve source metadata for
        # docker.io/nvidia/cuda:10.2-...: docker.io/nvidia/cuda:10.2-...: not found")
        # (Docker 1.13's daemon without the registry's words: "manifest for i3wm/travis-base:latest not found")
        r"manifest for (?:docker\.io/)?(?P<repo>[\w./-]{1,200}):[\w.-]{1,128} not found(?:: manifest unknown|\.?$)|"
        r"reading manifest [\w.-]{1,128} in (?:docker\.io/)?(?P<repo2>[\w./-]{1,200}): manifest unknown|"
        r"failed to resolve source metadata for (?:docker\.io/)?(?P<repo3>[\w./-]{1,200}):[\w.-]{1,128}: "
        r"(?:\S{1,300}: )?not found\b|"
        # (BuildKit since 0.11 without the metadata words: "ERROR: failed to solve: nvidia/cuda:9.2-devel-ubuntu18.04:
        # docker.io/nvidia/cuda:9.2-devel-ubuntu18.04: not found")
        r"failed to solve: (?:docker\.io/)?(?P<repo4>[\w./-]{1,200}):[\w.-]{1,128}: \S{1,300}: not found$",
        None,
        message=lambda m: f"manifest unknown: {m['repo'] or m['repo2'] or m['repo3'] or m['repo4']}:<tag>",
    ),
    # the Docker daemon not reaching a registry ("Error response from daemon: Get \"https://registry-1.docker.io/v2/\":
    # net/http: request canceled while waiting for connection (Client.Timeout exceeded while awaiting headers)"): the
    # network's or the registry's, not the job's time limit
    BareError(
        "registry-unreachable",
        ("Error response from daemon: Get ",),
        re.compile(
            r"Error response from daemon: Get \\?\"?https?://[\w.-]{1,200}/v2/\\?\"?: (?:net/http: request canceled|"
            r"dial tcp \S{1,200}: (?:i/o timeout|connect: connection refused)|context deadline exceeded)"
        ),
        None,
        "infrastructure",
        message=lambda m: "docker registry: the daemon could not reach it",
    ),
    # a registry's limits on requests ("toomanyrequests: ..."): Docker Hub's on anonymous pulls ("You have reached your
    # pull rate limit. ...", BuildKit's "unexpected status from HEAD request to https://registry-1.docker.io/v2/...: 429
    # Too Many Requests"), its throttle on pushes ("Too Many Requests (HAP429)"), ghcr.io's per-minute throttle
    # ("toomanyrequests: retry-after: 880.092µs, allowed: 44000/minute"): which limit, whichever image
    BareError(
        "registry-rate-limit",
        ("toomanyrequests", "429 Too Many Requests", "You have reached your pull rate limit"),
        re.compile(
            r"(?P<pull>(?:toomanyrequests: |^`? ?)You have reached your pull rate limit|"
            r"unexpected status from HEAD request to https?://registry-1\.docker\.io/\S{1,500}: 429 Too Many Requests)|"
            r"toomanyrequests: (?:(?P<retry>retry-after: )|Too Many Requests \((?P<code>\w{1,20})\))"
        ),
        None,
        "infrastructure",
        message=lambda m: (
            "docker registry: pull rate limit reached (429)"
            if m["pull"]
            else "docker registry: too many requests, retry after (429)"
            if m["retry"]
            else f"docker registry: too many requests ({m['code']})"
        ),
    ),
    # a registry refusing the machine: its token service refusing an anonymous token ("failed to fetch anonymous
    # token: unexpected status: 401 Unauthorized", BuildKit's later "unexpected status from GET request to
    # https://authn.nvidia.com/token?...: 401 Unauthorized"), its "denied" to stale saved credentials or its
    # "unauthorized" to a package that is not public ('Error response from daemon: Head "https://ghcr.io/v2/o/x/
    # manifests/latest": denied: denied', a later daemon's "error from registry: unauthorized"): the machine's
    # credentials; which answer, and which registry where the line or the pull above it names one
    _environment(
        "registry-anonymous-token",
        ("failed to fetch anonymous token",),
        r"failed to fetch anonymous token: unexpected status(?: from GET request to \S{1,500})?: 401\b",
        None,
        message=lambda m: "docker registry: an anonymous token was refused (401)",
    ),
    _environment(
        "registry-refused",
        ("denied: denied", ": unauthorized", "error from registry: ", "denied: requested access to the resource"),
        # (a push to a repository the machine's login may not write: "denied: requested access to the resource is
        # denied", alone after the layers or quoted in a sentence)
        r"(?:^|[`\s])(?P<push>denied: requested access to the resource is denied)|"
        r"(?:Head|Get) \\?\"?https?://(?P<host>[\w.-]{1,200})/v2/\S{1,500}\\?\"?: (?P<why>denied|unauthorized)\b|"
        r"Error response from daemon: error from registry: (?P<why2>denied|unauthorized)\b",
        None,
        message=lambda m: (
            f"docker registry: {m['push'] or m['why'] or m['why2']}" + (f": {m['host']}" if m["host"] else "")
        ),
        below=_pulled_from,
    ),
    # NVIDIA's end-of-life CUDA images saying so at start ("THIS IMAGE IS DEPRECATED and is scheduled for DELETION."):
    # the image's tag, a warning the job goes on after
    _environment(
        "cuda-image-deprecated",
        ("THIS IMAGE IS DEPRECATED",),
        r"THIS IMAGE IS DEPRECATED and is scheduled for DELETION",
        None,
        message=lambda m: "nvidia/cuda: the image is deprecated and scheduled for deletion",
        weak=True,
    ),
]
