"""Infrastructure failures, named by what happened to the job (preempted, lost, never scheduled, a runner shut
down), not by which host it happened to. Pure.
"""

from __future__ import annotations

import re

from canary.signature.kubernetes import KUBERNETES_REASONS
from canary.signature.schedulers import SLURM_REFUSALS

# Infrastructure failures are named by what happened, not by which host it happened to.
INFRA: list[tuple[re.Pattern[str], str]] = [
    *SLURM_REFUSALS,
    *KUBERNETES_REASONS,
    # a scheduled workflow GitHub turned off ("This scheduled workflow is disabled because there hasn't been activity
    # in this repository for at least 60 days.", typographic apostrophe or not)
    (
        re.compile(r"This scheduled workflow is disabled because there hasn.t been activity in this repository"),
        "not started: GitHub disabled the scheduled workflow after 60 days without activity",
    ),
    # the container runtime unable to start a container whose init the kernel killed for its memory limit ("runc
    # create failed: unable to start container process: container init was OOM-killed (memory limit too low?)")
    (re.compile(r"container init was OOM-killed"), "not started: the container's init was OOM-killed at its limit"),
    # TensorFlow's client of a remote TPU master whose connection went away ("grpc_remote_master.cc:157] RPC failed with
    # status = "Unavailable: Socket closed" ... maybe retrying the RPC"), the status's case the release's
    (
        re.compile(r"RPC failed with status = \"Unavailable: (?P<rpc>[\w ]{1,60})\" and grpc_error_string", re.I),
        "lost: the remote TPU master's connection",
    ),
    # TensorFlow's recoverable session after an RPC between tasks failed ("An error was raised. This may be due to a
    # preemption in a connected worker or parameter server. The current session will be closed and a new session will be
    # created. Error: OS Error"): a peer lost, and which transport error (OS Error, Stream removed, Stream IDs
    # exhausted) is the failure; a session it could not close ("Error: Session ... is not found") is that loss
    (
        re.compile(
            r"This may be due to a preemption in a connected worker or parameter server\..{0,300}?\bError: "
            r"(?:Session |(?P<cause>[A-Z]\w{0,30}(?: (?![\w]{1,40}-)[A-Za-z]\w{0,30}){0,4}))"
        ),
        "lost: a connected worker or parameter server",
    ),
    # NCCL's remote error as XLA logs it ("Aborting communicator: 0x... due to async NCCL error: remote process exited
    # or there was a network error", then its INTERNAL status): a peer process died or the network between them failed;
    # what killed the peer is in its own log
    (
        re.compile(r"async NCCL error: remote process exited or there was a network error"),
        "lost: a peer process exited or the network failed (NCCL)",
    ),
    # Ray's GCS marking a node dead ("The node with client ID ... has been marked dead because the monitor has missed
    # too many heartbeats from it.", later "... node id: ... and ip: ... because the detector has missed ..."), its
    # advice naming OOM or a preempted node as possible causes
    (
        re.compile(r"has been marked dead because the (?:monitor|detector) has missed too many heartbeats"),
        "lost: a Ray node stopped sending heartbeats",
    ),
    # (not XLA's advice on a peer's heartbeat: "the remote task has failed, got preempted, or crashed")
    # (nor a kind of machine: "a preemptible queued resource" in the advice after a zone without capacity)
    # (nor TensorFlow's guess at why a session failed: "This may be due to a preemption in a connected worker")
    (re.compile(r"preempt(?!ed, or crashed|ible|ion in a connected worker)", re.I), "preempted"),
    # a spot machine told it is being taken: AWS's interruption notice ("Spot interruption payload received", "Instance
    # is going to be interrupted in 2 minutes"), GCE's metadata ("GCP Metadata Service says termination is imminent");
    # which cloud said it is kept (one runner's handling of one cloud's notice is not another's)
    (
        re.compile(r"Spot interruption (?:payload|notice) received|Instance is going to be interrupted in"),
        "preempted: a spot interruption notice (AWS)",
    ),
    (re.compile(r"Metadata Service says termination is imminent"), "preempted: termination is imminent (GCE)"),
    # Cloud TPU refusing an accelerator type a zone does not have ("the accelerator v4-128 was not found in zone
    # us-central2-b", gcloud's "The requested accelerator type is not available in zone"): the zone's offer, not its
    # capacity at the time
    (
        re.compile(
            r"accelerator (?P<accel>[\w-]{1,40}) was not found in zone|"
            r"requested accelerator type (?:is )?not available in (?:this )?zone"
        ),
        "unavailable: the zone has no such accelerator type",
    ),
    # Kubernetes' API server refused a request because an admission webhook it must call could not be reached ('failed
    # calling webhook "mresourceflavor.kb.io": failed to call webhook: Post "https://kueue-webhook-service.kueue-system
    # .svc:443/mutate-...?timeout=10s": dial tcp 10.96.1.2:443: connect: connection refused', "... context deadline
    # exceeded", "no endpoints available for service ..."): the operator's service is not up; which webhook (an
    # operator's: Kueue's mresourceflavor, JobSet's mjobset and mpod) and why it could not be reached is the failure,
    # the call's address the cluster's (the call's timeout is not a timeout)
    (
        re.compile(
            r"failed calling webhook \\?\"(?P<hook>[\w.-]{1,200})\\?\": failed to call webhook: "
            r"Post \\?\"\S{1,500}?\\?\": "
            r"(?:dial tcp \S{1,100}: )?(?P<webhook>connect: connection refused|context deadline exceeded|no endpoints "
            r"available|x509: certificate)"
        ),
        "unreachable: an admission webhook's service",
    ),
    # GitHub Actions' runner ending a job it was told to stop ("Error: The operation was canceled.": a cancelled run, a
    # runner shut down under it)
    (
        re.compile(r"^\W{0,4}(?:##\[error\])?(?:Error: )?The operation was canceled\.?\W{0,4}$"),
        "cancelled: the runner stopped the job",
    ),
    (
        re.compile(
            r"no worker (?:ever )?start|never started|stockout|insufficient capacity|no more capacity|"
            r"ZONE_RESOURCE_POOL_EXHAUSTED|not enough resources? (?:available|to schedule)|"
            # (AWS: "An error occurred (InsufficientInstanceCapacity) ...: We currently do not have sufficient
            # m5.8xlarge capacity in the Availability Zone you requested")
            r"InsufficientInstanceCapacity|do not have sufficient \S{1,60} capacity",
            re.I,
        ),
        "no capacity: the job never started",
    ),
    # a cloud project's quota, not the zone's capacity: gcloud's "Quota 'GPUS_ALL_REGIONS' exceeded. Limit: 0.0
    # globally.", Vertex AI's "The following quota metrics exceed quota limits: ...", "QUOTA_EXCEEDED", the TPU API's
    # "Quota limit 'TPUV6EPreemptiblePerProjectPerRegionForTPUAPI' has been exceeded." and "Quota '...' exhausted."
    (
        re.compile(
            r"\bQuota (?:limit )?'(?P<quota>[\w.-]{1,100})' (?:has been )?(?:exceeded|exhausted)|"
            r"quota metrics exceed quota limits: (?P<metric>[\w./-]{1,200})|\bQUOTA_EXCEEDED\b"
        ),
        "no quota: the job never started",
    ),
    (
        re.compile(
            r"NodeDiedError|node (?:\S{1,200} )?(?:has )?died|The node running this job|"
            r"lost (?:contact|connection) (?:to|with) (?:the )?(?:worker|node|host)|worker (?:was )?lost",
            re.I,
        ),
        "lost: the node running the job died",
    ),
    (
        # (Ray's raylet when its GCS went away: "Failed to connect to GCS within 60 seconds. GCS may have been killed";
        # not an actor that died of an error its creation task raised, which is that error's)
        re.compile(
            r"ActorDiedError(?!: The actor died because of an error raised in its creation task)|"
            r"GCS (?:server )?(?:is )?unavailable|Failed to connect to GCS within \d",
            re.I,
        ),
        "lost: the cluster scheduler failed",
    ),
    # Ray's workers and scheduler: a worker that died under a task; a task or actor no node has the resources for
    # ("The following resource request cannot be scheduled right now: {'GPU': 1.0}", "The actor or task with ID ...
    # is pending and cannot currently be scheduled"); a node that never reached the head's GCS
    (re.compile(r"A worker died or was killed while executing a task"), "lost: a Ray worker died"),
    # Ray's raylet reporting the workers its memory monitor killed ("node_manager.cc:3064: 12 Workers (tasks /
    # actors) killed due to memory pressure (OOM), 0 Workers crashed due to other reasons at node ..."): how many, and
    # on which node, are the run's
    (
        re.compile(r"Workers \(tasks /\s{1,4}actors\) killed due to memory pressure \(OOM\)"),
        "lost: Ray's memory monitor killed the workers (OOM)",
    ),
    # ... and its disk monitor refusing to spill objects to a disk nearly full ("file_system_monitor.cc:116:
    # /tmp/ray/session_... is over 95% full, available space: 42.6 GB; capacity: 876.1 GB. Object creation will fail if
    # spilling is required."): the session's path and the figures are the node's
    (
        re.compile(
            r"is over \d{1,3}% full, available space: .{1,100}?Object creation will fail if spilling is required"
        ),
        "lost: the disk Ray spills objects to is nearly full",
    ),
    # GitHub Actions' runner: stopped under the job ("The runner has received a shutdown signal"), or gone silent
    # ("The self-hosted runner: xxx lost communication with the server", the hosted runner's the same words)
    (re.compile(r"runner has received a shutdown signal"), "lost: the CI runner was shut down"),
    (re.compile(r"self-hosted runner\b.{0,200}? lost communication with the server"), "lost: the self-hosted runner"),
    (re.compile(r"hosted runner\b.{0,200}? lost communication with the server"), "lost: the hosted runner"),
    # ... or no runner with the job's labels online for a day ("This request was automatically failed because there
    # were no enabled runners online to process the request for more than 1 days.")
    (re.compile(r"no enabled runners online to process the request"), "never started: no CI runner online for the job"),
    # ... or its disk nearly full ("You are running out of disk space. The runner will stop working when the machine
    # runs out of disk space. Free space left: 66 MB"): how much is left is the job's
    (
        re.compile(r"You are running out of disk space\. The runner will stop"),
        "lost: the CI runner's disk is nearly full",
    ),
    # Colab's allocator with no machine to give ("Failed to assign a backend No backend with TPU available.", "Sorry, no
    # backends available. Please try again later.") or none for this account ("You cannot currently connect to a GPU
    # due to usage limits in Colab."): which accelerator
    (
        re.compile(r"(?:Failed to assign a backend\W{0,4})?No backend with (?P<colab>\w{2,10}) available"),
        "never started: Colab has no backend with the accelerator",
    ),
    (re.compile(r"no backends available\. Please try again later"), "never started: Colab has no backend to assign"),
    (
        re.compile(r"You cannot currently connect to a (?P<colabgpu>\w{2,10}) due to usage limits in Colab"),
        "never started: Colab's usage limits for the account",
    ),
    # GitHub's API refusing a token past its hourly limit ("API rate limit exceeded for installation ID 8440595", "...
    # for user ID 24456188"): which installation or user is the token's
    (
        re.compile(r"API rate limit exceeded for (?P<limited>installation|user) ID \d"),
        "rate limited: GitHub's API limit for the token",
    ),
    # (and for an address, without a token: "API rate limit exceeded for 13.83.3.161.")
    (
        re.compile(r"API rate limit exceeded for (?:\d{1,3}\.){3}\d{1,3}\b"),
        "rate limited: GitHub's API limit for an unauthenticated address",
    ),
    # git in a CI checkout: Git LFS past the repository's bandwidth ("This repository is over its data quota.", 2025's
    # "... exceeded its LFS budget"), an LFS object the server lacks ("[404] Object does not exist on the server"),
    # any other LFS fetch ("fatal: x.pth: smudge filter lfs failed"), a remote that asks for credentials the job lacks
    # ("could not read Username for 'https://github.com/': terminal prompts disabled"): which file is the repository's
    (
        re.compile(r"over its data quota|exceeded its LFS budget"),
        "no quota: the repository's Git LFS bandwidth is used up",
    ),
    (re.compile(r"\[404\] Object does not exist on the server"), "missing: a Git LFS object is not on the server"),
    (re.compile(r"smudge filter lfs failed"), "checkout: Git LFS could not fetch an object"),
    (
        re.compile(r"could not read Username for '\S{1,200}'/?: "),  # (a copy may add a slash after the quote)
        "no credentials: git could not authenticate to the remote",
    ),
    # Docker unpacking an image's layer onto a full disk ("failed to register layer: ApplyLayer exit status 1 stdout:
    # stderr: write /x/lib.so: no space left on device", 2019's "Error processing tar file(exit status 1): write ..."):
    # the machine's disk; which file it was writing is the image's (rootless Docker's begins at "ApplyLayer", a post may
    # wrap it before "stderr: write ...")
    (
        re.compile(r"(?:failed to register layer: |ApplyLayer exit |\bstderr: write \S).{0,600}?no space left on"),
        "no disk space: the machine could not unpack the image",
    ),
    # a GPU failing as hardware, as the kernel's driver logs it: "NVRM: Xid (PCI:0000:02:00): 79, GPU has fallen off the
    # bus." (a newer driver words it over three lines: "... has fallen off the bus and is not responding to commands."),
    # other Xid codes by number (13 a graphics exception, 31 a memory page fault, 48 a double-bit ECC error): the code
    # is which fault; the GPU's address, the process and the registers are the machine's
    (
        re.compile(r"fallen off the bus|Xid \(PCI:[\w:.]{1,20}\): 79\b"),
        "hardware: the GPU has fallen off the bus (Xid 79)",
    ),
    # (the driver failing to bring a GPU up at all: "NVRM: RmInitAdapter failed! (0x26:0xffff:1127)", its codes the
    # driver's)
    (
        re.compile(r"\bRmInitAdapter failed!"),
        "hardware: the driver could not initialise the GPU (RmInitAdapter failed)",
    ),
    # (a log whose every line is the driver's may come with its "NVRM: " dropped)
    (re.compile(r"\bXid \(PCI:[\w:.]{1,20}\): (?P<xid>\d{1,3})\b"), "hardware: the GPU reported an Xid error"),
    # nvidia-smi when NVML cannot reach a GPU ("Unable to determine the device handle for GPU 0000:0B:00.0: Unknown
    # Error", a 2024 driver without the space: "GPU0000:03:00.0") or the driver has marked it lost ("...: GPU is lost.
    # Reboot the system to recover this GPU"): which of the two; the GPU's address is the machine's
    (
        re.compile(r"Unable to determine the device handle for GPU ?[\w:.]{1,20}: GPU is lost\b"),
        "hardware: the GPU is lost (NVML)",
    ),
    (
        re.compile(r"Unable to determine the device handle for GPU ?[\w:.]{1,20}: Unknown Error\b"),
        "hardware: NVML cannot reach the GPU (Unknown Error)",
    ),
    # ssh to a worker, as gcloud runs it ("ERROR: (gcloud.compute.tpus.tpu-vm.ssh) [/usr/bin/ssh] exited with return
    # code [255]."), the worker closing the connection ("kex_exchange_identification: Connection closed by remote
    # host"), or never answering ("ssh: connect to host 10.0.0.2 port 22: Operation timed out")
    (
        re.compile(r"(?:ssh_exchange|kex_exchange)_identification: Connection closed by remote host"),
        "unreachable: the machine closed the ssh connection",
    ),
    (
        re.compile(r"ssh: connect to host \S{1,100} port \d{1,5}: (?:Operation|Connection) timed out"),
        "unreachable: ssh to the machine timed out",
    ),
    (
        re.compile(r"ssh: connect to host \S{1,100} port \d{1,5}: Connection refused"),
        "unreachable: ssh to the machine was refused",
    ),
    # Google Cloud refusing the TPU Node architecture it retired ("Your request to provision TPU Node has been denied.
    # Please migrate to TPU VM Architecture"), whichever client asked
    (
        re.compile(r"request to provision TPU Node has been denied"),
        "never started: the cloud refused a TPU Node (TPU VMs only)",
    ),
    # GitHub Actions' storage: the account's artifact quota ("Failed to CreateArtifact: Artifact storage quota has been
    # hit."), the cache service refusing a save (another job reserved its key) or failing ("Failed to restore:
    # getCacheEntry failed: Cache service responded with 503")
    (re.compile(r"Artifact storage quota has been hit"), "no storage: the CI's artifact quota is used up"),
    # uv (Rust) failing to write a package's files on a full disk ("failed to copy file from ... to ...: No space left
    # on device (os error 28)")
    (re.compile(r"No space left on device \(os error 28\)"), "no space: the disk filled while installing packages"),
    # (since GitHub retired its legacy cache service on 2025-04-15, "More details: This legacy service is shutting down"
    # after the same words, and a restore answered 422)
    (
        re.compile(r"Unable to reserve cache with key.{0,400}?This legacy service is shutting down"),
        "cache: the CI's legacy cache service is shut down",
    ),
    (re.compile(r"Unable to reserve cache with key"), "cache: another job is saving the same key"),
    (
        re.compile(r"Failed to restore: .{0,200}?Cache service responded with 422"),
        "cache: the CI's cache service refused a restore (422)",
    ),
    (
        re.compile(r"Failed to save: .{0,200}?Cache service responded with 5\d\d"),
        "cache: the CI's cache service failed a save",
    ),
    (
        re.compile(r"Failed to restore: .{0,200}?Cache service responded with 5\d\d"),
        "cache: the CI's cache service failed a restore",
    ),
    (re.compile(r"Cache upload failed because file read failed"), "cache: the CI's cache upload could not read a file"),
    # Ray's autoscaler without a node type for a request ("Error: No available node types can fulfill resource request
    # {'CPU': 1.0, 'GPU': 1.0}. Add suitable node types to this cluster to resolve this issue."): which resources
    (
        re.compile(r"No available node types can fulfill resource request (?P<request>.{0,300}?\})"),
        "unschedulable: no Ray node type has the resources the request asks for",
    ),
    # (and the autoscaler's own words for it, 2021's "The autoscaler could not find a node type to satisfy the request:
    # [...]"; and its cloud refusing the node it asked for: "Failed to launch 1 node(s) of type worker.")
    (
        re.compile(r"\bThe autoscaler could not find a node type to satisfy the request\b"),
        "unschedulable: no Ray node type has the resources the request asks for",
    ),
    (
        re.compile(r"\bFailed to launch \d{1,6} node\(s\) of type \S{1,100}"),
        "never started: Ray could not launch a node",
    ),
    (
        re.compile(r"cannot (?:currently )?be scheduled(?: right now)?[.:]"),
        "unschedulable: no Ray node has the resources the task asks for",
    ),
    (
        re.compile(r"Failed to connect to GCS at address \S{0,100} within|Failed to get cluster ID from GCS server"),
        "never started: the Ray head's GCS could not be reached",
    ),
    # a TPU's host, as TensorFlow (and t5, bert) asks it for the TPU system ("Failed to connect to the Tensorflow
    # master. The TPU worker may not be ready (still scheduling) or the Tensorflow master address is incorrect"), and a
    # TPU VM's metadata server without the attribute a library asks it for ("HTTP 404 for url http://metadata.google
    # .internal/computeMetadata/v1/instance/attributes/tpu-env")
    (re.compile(r"Failed to connect to the Tensorflow master\b"), "never started: the TPU worker could not be reached"),
    # TensorFlow's TPU session without a worker's heartbeat ("ShutdownHook: lame workers found: HeartbeatManager(...)")
    (re.compile(r"\blame workers found\b"), "lost: a TPU worker stopped answering its heartbeat"),
    (
        re.compile(r"HTTP 404 for url https?://metadata\.google\.internal/"),
        "never started: the TPU VM's metadata has no such attribute",
    ),
]
INFRA_TEXT = re.compile("|".join(f"(?:{rx.pattern})" for rx, _ in INFRA), re.I)


def _accelerators(request: str | None) -> str | None:
    """The resources a Ray request names beyond CPUs and memory (its amounts are the job's): "GPU", "TPU", a node's."""
    # (a post may star out a node's address: 'node:************')
    names = sorted({n for n in re.findall(r"'([\w:.*-]{1,60})': ", request or "") if n not in ("CPU", "memory")})
    return ", ".join(n.split(":")[0] for n in names) or None


# the named parts of INFRA's patterns that say which one, in the order they are looked for
_REASON_KEYS = (
    *("cause", "rpc", "webhook", "accel", "sbatch", "unmet", "srun", "sgres", "gres", "step", "fatal", "ctl", "execve"),
    *("alloc", "config", "colab", "colabgpu"),
    *("kinuse", "kover", "knone", "kdevice", "kcall"),
)


def infrastructure_reason(text: str) -> str | None:
    for rx, reason in INFRA:
        m = rx.search(text)
        if m:
            # (which quota ran out is which lane could not start: a TPU's is not a GPU's)
            groups = m.groupdict()
            quota = groups.get("quota") or groups.get("metric") or _accelerators(groups.get("request"))
            quota = quota or (f"Xid {groups['xid']}" if groups.get("xid") else groups.get("limited"))
            # (which transport error, which webhook and why it could not be reached)
            if groups.get("hook"):
                quota = f"{groups['hook']}: {groups['webhook']}"
            quota = quota or next(
                (groups[k] for k in _REASON_KEYS if groups.get(k)),
                None,
            )
            quota = quota or (groups.get("resource") or groups.get("low") or "").rstrip(".")
            return f"{reason} ({quota})" if quota else reason
    return None
