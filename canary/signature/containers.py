"""A container's image against the machine that runs it, as the container runtime and the image's own entrypoint say
it: an image built for another CPU architecture (Docker's platform warning, a registry without a manifest for the
host's, the kernel refusing to exec its binaries), NVIDIA's images checking the host's driver, a runtime refused the
namespace or the GPU devices a container asks for (Apptainer, enroot, podman's CDI), and a cloud store refusing a
machine whose clock is off. Pure. They take
their place in :data:`canary.signature.checks.ENVIRONMENT_ERRORS`; all are the tool's checks, with no class.
"""

from __future__ import annotations

import re

from canary.signature.hpc_stacks import HPC_CHECKS
from canary.signature.recogniser import BareError, match_below
from canary.signature.recogniser import environment_check as _environment
from canary.signature.registries import REGISTRY_CHECKS
from canary.signature.sandboxes import SANDBOX_CHECKS

# the device a container asked NVIDIA's hook for, by index or a compose file's value ("device error: 2: unknown device",
# "device error: false: unknown device")
_DEVICE_ID = re.compile(r"^[\w-]{1,40}(?=: unknown device$)")

_SEE_HELP = re.compile(r"See '(docker(?: [\w-]{1,40}){1,2}) --help'")
_BUILDKIT_OFF = "BuildKit is currently disabled"


def _flag_command(lines: list[str], i: int, said: str) -> str:
    """docker's refusal of a flag with the subcommand that refused it, where its next line names one ("See 'docker
    stack deploy --help'."; docker's own refusal, "See 'docker --help'.", is the commonest and adds nothing)."""
    m = match_below(_SEE_HELP, lines, i + 1, i + 3)
    return f"{said} ({m[1]})" if m else said


def _legacy_why(lines: list[str], i: int, said: str) -> str:
    """The legacy builder's notice with BuildKit turned off, where its next lines say so (the commonest cause, buildx
    missing, adds nothing)."""
    return f"{said} ({_BUILDKIT_OFF})" if any(_BUILDKIT_OFF in line for line in lines[i + 1 : i + 3]) else said


# the hook's cause on the line below its stage, where a post wrapped runc's line by hand after "error:"
_CAUSE = re.compile(r"^\s*(?P<cause>[^\\\"`\s][^\\\"`]{0,199}?)(?:: unknown\b|\.?\s*$)")


def _cause_below(lines: list[str], i: int, said: str) -> str:
    m = match_below(_CAUSE, lines, i + 1, i + 2) if said.endswith("error: ") else None
    return said + m["cause"] if m else said


CONTAINER_CHECKS: list[BareError] = [
    # NVIDIA's NGC images check the host's driver at start ("ERROR: This container was built for NVIDIA Driver Release
    # 545.23 or later, but version 535.104.05 was detected and compatibility mode is UNAVAILABLE."); which versions are
    # the image's and the machine's (a post may run "but" into "version")
    _environment(
        "ngc-driver",
        ("This container was built for NVIDIA Driver Release",),
        r"(?P<msg>This container was built for NVIDIA Driver Release [\d.]{1,20} or later, ?but"
        r"(?: ?version [\d.]{1,20} was detected and compatibility mode is \w{1,20})?)",
        None,
        message=lambda m: m["msg"].replace(", butversion", ", but version"),
        context=2,  # (its banner wraps the sentence over three lines)
    ),
    # Docker pulling an image for another architecture than the host's ("The requested image's platform (linux/amd64)
    # does not match the detected host platform (linux/arm64/v8) and no specific platform was requested"), or finding
    # none ("no matching manifest for linux/arm64/v8 in the manifest list entries"): which platforms are the failure;
    # the warning names it only when nothing after it does
    _environment(
        "image-platform",
        ("does not match the detected host platform",),
        r"(?P<msg>The requested image's platform \([\w/]{1,40}\) does not match the detected host platform "
        r"\([\w/]{1,40}\))",
        None,
        weak=True,
    ),
    _environment(
        "image-manifest",
        ("matching manifest for",),
        r"[Nn]o matching manifest for (?P<platform>[\w/]{1,40}) in the manifest list entri",  # (a quote may cut it)
        None,
        message=lambda m: f"no matching manifest for {m['platform']} in the manifest list entries",
    ),
    # docker-py's client failing before it spoke to the daemon ("Error while fetching server API version: Not supported
    # URL scheme http+docker", requests 2.32 under docker-py 7.0; "...: ('Connection aborted.', FileNotFoundError(2,
    # ...))", no socket), logged by a program without its class: its DockerException, why after the colon
    BareError(
        "docker-py-api-version",
        ("Error while fetching server API version: ",),
        re.compile(
            r"(?:^|(?<=[\s:]))(?:docker\.errors\.DockerException: )?"
            r"(?P<msg>Error while fetching server API version: .{1,500})$"
        ),
        "DockerException",
    ),
    # a container runtime the Docker daemon has not registered ("docker: Error response from daemon: Unknown runtime
    # specified nvidia.", Docker 23's "unknown or invalid runtime name: nvidia"): NVIDIA's toolkit not configured for
    # the daemon; which runtime
    _environment(
        "container-runtime",
        ("Unknown runtime specified", "unknown or invalid runtime name"),
        r"(?:Unknown runtime specified|unknown or invalid runtime name:) (?P<name>[\w-]{1,40})",
        None,
        message=lambda m: f"unknown container runtime: {m['name']}",
    ),
    *REGISTRY_CHECKS,
    *HPC_CHECKS,
    *SANDBOX_CHECKS,
    # Kubernetes' kubelet failing to pull a pod's image, as the runtime words it: docker's "rpc error: code = Unknown
    # desc = Error response from daemon: manifest for <image> not found" (or "unauthorized: ..."), containerd's "code =
    # NotFound desc = failed to pull and unpack image ...: failed to resolve reference ...: not found": whether the
    # registry lacks the reference or refuses the node; which image is the program's
    _environment(
        "image-pull",
        ("Failed to pull image",),
        r"Failed to pull image \"[^\"]{1,500}\": rpc error: code = \w{1,20} desc = (?:Error response from daemon: "
        r"(?:manifest for \S{1,500} (?P<nf>not found)|(?P<auth>unauthorized|pull access denied))|"
        r"failed to pull and unpack image \"[^\"]{1,500}\": failed to resolve reference \"[^\"]{1,500}\": "
        r"(?:\S{1,500}: )?(?P<nf2>not found))",
        None,
        message=lambda m: "failed to pull image: " + ("not found" if m["nf"] or m["nf2"] else "unauthorized"),
    ),
    # NVIDIA's container hook failing before the container starts, relayed by runc in any of its wordings or printed
    # by `nvidia-container-cli info` ("nvidia-container-cli: initialization error: nvml error: driver not loaded",
    # "... driver error: failed to process request"): the host's driver as the hook found it; runc's escapes and
    # its ": unknown" are the relay's (a library it could not load is the loader's check, ``load library failed``)
    _environment(
        "container-cli",
        ("nvidia-container-cli",),
        # (runc's ": unknown" after the cause, not the hook's own "unknown device" or "unknown error"; CoreOS names
        # the binary "nvidia-container-cli.real")
        r"nvidia-container-cli(?:\.real)?: (?P<stage>[a-z]{1,20}) error:(?: (?!load library failed)"
        r"(?P<cause>[^\\\"\n`]{1,200}?)(?:: unknown(?! device| error)\b|\\|\"|`|\.?$)|$)",
        None,
        message=lambda m: f"nvidia-container-cli: {m['stage']} error: " + _DEVICE_ID.sub("<device>", m["cause"] or ""),
        below=_cause_below,
    ),
    # NVIDIA's container hook, or the CLI it runs, not installed where runc looks ('exec:
    # "nvidia-container-runtime-hook": executable file not found in $PATH', runc's escapes around it): which program
    _environment(
        "container-hook-missing",
        ("executable file not found in $PATH",),
        r"exec: [\\\"]{0,12}(?P<exe>nvidia-container-[\w-]{1,40})[\\\"]{0,12}: executable file not found in \$PATH",
        None,
        message=lambda m: f"{m['exe']}: executable file not found in $PATH",
    ),
    # a container CLI without the --gpus flag (docker before 19.03: "unknown flag: --gpus" then "See 'docker run
    # --help'."; podman's CLI prints its errors after "Error: "), or given "--gpus all" as one argument
    _environment(
        "gpus-flag",
        ("unknown flag: --gpus",),
        r"(?P<err>\bError: )?unknown flag: --gpus(?P<all> all)?\b",
        None,
        message=lambda m: (
            ("podman" if m["err"] else "docker")
            + (
                ": unknown flag: '--gpus all' (the flag and its value as one argument)"
                if m["all"]
                else ": unknown flag: --gpus"
            )
        ),
    ),
    # a container runtime that could not give a container its own namespace, as Apptainer/Singularity ("ERROR  :
    # Failed to create user namespace: user namespace requires to set /proc/sys/kernel/unprivileged_userns_clone to
    # 1", inside SingularityCE's "FATAL: while extracting ...: root filesystem extraction failed: ...") and enroot
    # ("enroot-nsenter: failed to create user namespace: Permission denied", relayed by pyxis under slurmstepd) word
    # it: which namespace, and why, is the host's configuration
    _environment(
        "container-namespace",
        ("Failed to create user namespace", "Failed to create mount namespace", "failed to create user namespace"),
        r"(?:(?P<enroot>enroot-nsenter): failed|Failed) to create (?P<ns>user|mount) namespace: "
        r"(?P<why>[^*,\n]{1,200}?)(?:, check Apptainer installation)?\**$",
        None,
        message=lambda m: (
            (f"{m['enroot']}: failed" if m["enroot"] else "Failed") + f" to create {m['ns']} namespace: {m['why']}"
        ),
    ),
    # podman's CDI refusing the devices a container asked for ("Error: error setting up CDI devices: unresolvable CDI
    # devices [nvidia.com/gpu=all]" in 4.x, "Error: setting up CDI devices: unresolvable CDI devices nvidia.com/gpu=all"
    # in 5.x): no CDI specification of the host's GPUs, or one naming a device the host lacks
    _environment(
        "cdi-devices",
        ("setting up CDI devices: ",),
        r"\bsetting up CDI devices: (?P<why>.{1,300}?)\.?$",
        None,
        message=lambda m: "setting up CDI devices: " + m["why"].replace("[", "").replace("]", ""),
    ),
    # NVIDIA's runtime in CDI mode injecting devices no specification names ("error modifying OCI spec: failed to
    # inject CDI devices: unresolvable CDI devices nvidia.com/gpu=all: unknown", or its JSON log wrapped before "CDI
    # devices"): the runtime's, apart from podman's own refusal
    _environment(
        "cdi-inject",
        ("CDI devices: unresolvable CDI devices",),
        r"(?:failed to inject |^)CDI devices: unresolvable CDI devices (?P<dev>[\w./=-]{1,100}?)(?=[\s\\\"]|:|$)",
        None,
        message=lambda m: f"NVIDIA runtime: failed to inject CDI devices: unresolvable CDI devices {m['dev']}",
    ),
    # the kernel refusing to run a binary built for another architecture, as runc words it: 2019's "standard_init_linux.
    # go:211: exec user process caused "exec format error"", later "exec /usr/local/bin/python: exec format error"
    # (which program the image runs first, by its name)
    _environment(
        "exec-format",
        ("exec format error",),
        r"exec (?:user process caused:? \"?|(?P<path>\S{1,300}): )exec format error",
        None,
        message=lambda m: (
            f"exec {m['path'].rsplit('/', 1)[-1]}: exec format error"
            if m["path"]
            else "exec user process caused: exec format error"
        ),
    ),
    # a cloud store refusing a request signed by a machine whose clock is off ("RequestTimeTooSkewed: The difference
    # between the request time and the current time is too large.", in any client's words): the machine's clock
    _environment(
        "clock-skew",
        ("RequestTimeTooSkewed", "difference between the request time and the current time"),
        r"RequestTimeTooSkewed|The difference between the request time and the current time is too large",
        "RequestTimeTooSkewed",
        message=lambda m: "RequestTimeTooSkewed: the request time and the current time differ too much",
    ),
    # a Kubernetes API server refusing a manifest whose field its custom resource's version does not know ('JobSet in
    # version "v1alpha2" cannot be handled as a JobSet: strict decoding error: unknown field
    # "spec.ttlSecondsAfterFinished"'): a client (xpk) newer than the controller the cluster runs; which field
    _environment(
        "k8s-unknown-field",
        ("strict decoding error: unknown field",),
        r"cannot be handled as an? (?P<kind>\w{1,60}): strict decoding error: "
        r'unknown field "(?P<field>[\w.\[\]-]{1,200})"',
        None,
        message=lambda m: f'Kubernetes: a {m["kind"]} cannot be handled: unknown field "{m["field"]}"',
    ),
    # a registry refusing an anonymous pull ("Error response from daemon: unauthorized: authentication required",
    # nvcr.io's orgs), and a layer the daemon cannot apply because a file's owner does not map into its user namespace
    # ("failed to register layer: Error processing tar file(exit status 1): lchown /x: invalid argument", rootless
    # Docker's "ApplyLayer exit status 1 stdout:  stderr: lchown /x: invalid argument"): the machine's configuration;
    # which image and which file are the job's
    _environment(
        "registry-unauthorized",
        ("unauthorized: authentication required",),
        r"(?:^|(?<=\s))unauthorized: authentication required",
        None,
        message=lambda m: "docker: unauthorized: authentication required",
    ),
    _environment(
        "layer-lchown",
        ("lchown ",),
        r"failed to register layer: .{0,200}?lchown \S{1,500}: invalid argument",
        None,
        message=lambda m: "docker: failed to register layer: lchown: invalid argument",
    ),
    # Docker's CLI and Compose out of step with a runner image or a daemon: Compose v1 gone from the image
    # ("docker-compose: command not found"), the plugin missing ("docker: 'compose' is not a docker command.", the same
    # for buildx; "unknown shorthand flag: 'f' in -f", docker reading compose's flag), Compose v2's warning of the
    # obsolete `version` field (weak, by release "`version` is obsolete", "the attribute `version` is obsolete, it will
    # be ignored ..."), Compose v1 refusing a file version, the legacy builder's notice (weak) and BuildKit without
    # buildx, and the client's API version against the daemon's ("client version 1.43 is too new. Maximum supported API
    # version is 1.41", Docker 29's "... is too old. Minimum supported ..."): which way, which command; the versions
    # are the machine's
    _environment(
        "docker-cli",
        ("docker-compose: command not found", "is not a docker command", "unknown shorthand flag: 'f' in -f"),
        r"(?P<v1>docker-compose: command not found)|docker: '(?P<sub>\w{1,40})' is not a docker command|"
        r"(?P<flag>unknown shorthand flag: 'f' in -f)",
        None,
        message=lambda m: m["v1"] or m["flag"] or f"docker: '{m['sub']}' is not a docker command",
        below=_flag_command,
    ),
    _environment(
        "compose-version-obsolete",
        ("`version` is obsolete",),
        r"`version` is obsolete",
        None,
        message=lambda m: "docker compose: the attribute `version` is obsolete",
        weak=True,
    ),
    _environment(
        "compose-v1-version",
        ("is unsupported. You might be seeing this error because you're using the wrong Compose file version",),
        r"Version in \S{1,300} is unsupported\. You might be seeing this error because you're using the wrong Compose",
        None,
        message=lambda m: "docker-compose: the Compose file's version is unsupported",
    ),
    _environment(
        "docker-builder",
        ("The legacy builder is deprecated", "BuildKit is enabled but the buildx component is missing"),
        r"(?P<msg>The legacy builder is deprecated|BuildKit is enabled but the buildx component is missing)",
        None,
        message=lambda m: f"docker: {m['msg']}",
        below=_legacy_why,
        weak=True,
    ),
    _environment(
        "docker-api-version",
        ("supported API version is",),
        r"client version [\d.]{1,10} is too (?P<how>new|old)\. (?:Maximum|Minimum) supported API version is",
        None,
        message=lambda m: f"docker: the client's API version is too {m['how']} for the daemon",
    ),
    # NVIDIA's Kubernetes device plugin on a node whose runtime does not give it the driver ("Failed to initialize NVML:
    # could not load NVML library.", 2018's "Failed to start nvml with error:  could not load NVML library"), or
    # configured to discover devices it cannot ("error starting plugins: ... invalid device discovery strategy"): the
    # node's runtime or the plugin's settings, not the job
    _environment(
        "k8s-device-plugin",
        ("could not load NVML library", "invalid device discovery strategy", "No devices found. Waiting indefinitely"),
        # (or on a node whose GPUs it does not see: "No devices found. Waiting indefinitely.")
        r"(?P<nvml>Failed to (?:initialize NVML|start nvml with error): {1,2}could not load NVML library)|"
        r"error starting plugins: .{0,300}?(?P<strategy>invalid device discovery strategy)|"
        r"(?P<none>No devices found\. Waiting indefinitely)",
        None,
        message=lambda m: (
            "NVIDIA device plugin: "
            + (
                "could not load NVML library"
                if m["nvml"]
                else "invalid device discovery strategy"
                if m["strategy"]
                else "No devices found. Waiting indefinitely"
            )
        ),
    ),
]
