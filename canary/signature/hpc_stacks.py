"""The software stacks of HPC clusters as a training job meets them: Lmod's modules, EESSI's CUDA that is not
shipped, Singularity's and Apptainer's containers (``--nv`` without the host's NVIDIA files, a bind into a path the
image lacks, the NVIDIA container CLI missing, a layer its cache lost) and Spack's CUDA settings. Pure. Part of
:data:`canary.signature.containers.CONTAINER_CHECKS`; each is the tool's line, with no class, and names the check,
not the machine's module, image or path.
"""

from __future__ import annotations

from canary.signature.recogniser import BareError
from canary.signature.recogniser import environment_check as _environment

HPC_CHECKS: list[BareError] = [
    # Lmod refusing a module ('Lmod has detected the following error:  The following module(s) are unknown:
    # "gcc/7.4.0"', '... These module(s) or extension(s) exist but cannot be loaded as requested: "sems-cuda/11.1.0"',
    # one or two spaces by release): which module is the cluster's
    _environment(
        "lmod",
        ("Lmod has detected the following error",),
        r"Lmod has detected the following error: {1,3}(?P<msg>The following module\(s\) are unknown|These module\(s\) "
        r"or extension\(s\) exist but cannot be loaded as requested)",
        None,
        message=lambda m: f"Lmod: {m['msg']}",
    ),
    # EESSI's hook refusing a module whose software it may not ship ("You requested to load CUDA  but while the module
    # file exists, the actual software is not entirely shipped with EESSI due to licencing."): which module
    _environment(
        "eessi-not-shipped",
        ("not entirely shipped with EESSI",),
        r"You requested to load (?P<mod>[\w.-]{1,60}) {1,3}but while the module file exists, the actual software is "
        r"not entirely shipped with EESSI",
        None,
        message=lambda m: f"EESSI: {m['mod']}'s module exists but the software is not shipped with EESSI",
    ),
    # Singularity's --nv finding none of the host's NVIDIA files ("INFO:    Could not find any nv files on this host!",
    # 3.x "Could not find any NVIDIA binaries on this host!" and "... NVIDIA libraries ..."): the container runs on
    # without the GPU
    _environment(
        "singularity-nv",
        ("Could not find any nv files", "Could not find any NVIDIA "),
        r"Could not find any (?:nv files|NVIDIA binaries|NVIDIA libraries) on this host",
        None,
        message=lambda m: "Singularity --nv: could not find the host's NVIDIA files",
        at_info=True,
    ),
    # Apptainer and Singularity binding a host path to one the image lacks ("FATAL:   container creation failed: mount
    # hook function failure: mount /tmp/test->/tmp/test error: while mounting /tmp/test: destination /tmp/test doesn't
    # exist in container"), or finding no nvidia-container-cli for --nvccli: which path is the job's
    _environment(
        "singularity-container",
        ("doesn't exist in container", 'nvidia-container-cli": stat'),
        r"(?:^|: )destination \S{1,500} doesn't exist in container|(?P<cli>nvidia-container-cli)\": stat \S{1,300}: no "
        r"such file or directory",
        None,
        message=lambda m: (
            "Singularity: nvidia-container-cli not found"
            if m["cli"]
            else "Singularity: a bind's destination doesn't exist in container"
        ),
    ),
    # Singularity's cache without a layer it fetched ("conveyor failed to get: no descriptor found for reference
    # \"880fcb44...\"", 2019's "Unable to pull" and 2022's "while building SIF from layers"): which layer is the image's
    _environment(
        "singularity-conveyor",
        ("no descriptor found for reference",),
        r"conveyor failed to get: no descriptor found for reference",
        None,
        message=lambda m: "Singularity: conveyor failed to get: no descriptor found for reference",
    ),
    # Spack's concretizer refusing CUDA without the GPU's architecture ("==> Error: Must specify CUDA compute
    # capabilities of your GPU, see https://developer.nvidia.com/cuda-gpus")
    _environment(
        "spack-cuda-arch",
        ("Must specify CUDA compute capabilities",),
        r"Error: (?P<msg>Must specify CUDA compute capabilities of your GPU)",
        None,
        message=lambda m: f"Spack: {m['msg']}",
    ),
]
