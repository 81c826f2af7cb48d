"""Kubernetes as a training job's pod meets it: the scheduler finding no node for it, Kueue not admitting it, the
kubelet refusing the devices it asks for, evicting it or stopping it for the node's shutdown, the pod's node gone.
Pure. Named by what happened to the pod, not which pod, node or device; they take their place in
:data:`canary.signature.infra.INFRA`.
"""

from __future__ import annotations

import re

KUBERNETES_REASONS: list[tuple[re.Pattern[str], str]] = [
    # Kubernetes' scheduler: "0/5 nodes are available: 5 Insufficient nvidia.com/gpu." (which nodes, and how many,
    # are the cluster's; an accelerator no node has free is one failure, any other shortage another)
    (
        re.compile(r"nodes are available: .{0,300}?Insufficient (?:nvidia\.com/gpu|google\.com/tpu|amd\.com/gpu)"),
        "unschedulable: no node has the accelerator the pod asks for",
    ),
    # (a device plugin's extended resource, "Insufficient aliyun.com/gpu-mem", "tencent.com/vcuda-core": which one)
    (
        re.compile(
            r"nodes are available: .{0,300}?Insufficient (?P<resource>[a-z0-9.-]{1,100}\.[a-z]{2,12}/[\w.-]{1,100})"
        ),
        "unschedulable: no node has the extended resource the pod asks for",
    ),
    (re.compile(r"\b\d{1,6} ?/ ?\d{1,6} nodes are available: "), "unschedulable: no node fits the pod"),
    # Kueue not admitting a workload ("couldn't assign flavors to pod set worker: insufficient quota for nvidia.com/gpu
    # in flavor single-node-h100, request > maximum capacity (24 > 16)"): a request over the queue's quota never fits,
    # quota used by other workloads frees, a resource the ClusterQueue lacks never fits; which resource, not the pod
    # set, flavor or amounts (a YAML condition may wrap the sentence anywhere)
    (
        re.compile(r"\binsufficient unused quota for (?P<kinuse>[\w./-]{1,100}) in flavor"),
        "pending: Kueue's quota is in use",
    ),
    (
        re.compile(r"\binsufficient quota for (?P<kover>[\w./-]{1,100}) in flavor"),
        "unschedulable: the request is over Kueue's quota",
    ),
    (
        re.compile(r"\bresource (?P<knone>[\w./-]{1,100}) unavailable in ClusterQueue"),
        "unschedulable: the ClusterQueue has no quota for the resource",
    ),
    # the kubelet evicting a running pod: its node low on a resource ("The node was low on resource: memory.",
    # "... ephemeral-storage. Container x was using ..."), or the pod over its own storage limit ("Pod ephemeral local
    # storage usage exceeds the total limit of containers 100Gi."): which resource; how much each container used is not
    # (and the condition it evicted under, "The node had condition: [DiskPressure].", or that condition as the resource:
    # "The node was low on resource: [DiskPressure]")
    (
        re.compile(r"The node (?:was low on resource|had condition): \[?(?P<low>[\w-]{1,40})"),
        "evicted: the node was low on a resource",
    ),
    (
        re.compile(r"Pod ephemeral local storage usage exceeds the total limit of containers"),
        "evicted: the pod's ephemeral storage is over its limit",
    ),
    # the kubelet refusing a pod the devices it asks for at admission ("UnexpectedAdmissionError ... Allocate failed due
    # to requested number of devices unavailable for nvidia.com/gpu. Requested: 4, Available: 0, which is
    # unexpected", a device plugin whose devices are unhealthy: "... no healthy devices present; cannot allocate
    # unhealthy devices amd.com/gpu", or whose call failed: "... due to rpc error: code = Unavailable desc = error
    # reading from server: EOF", "... due to device plugin GetPreferredAllocation rpc failed with err: ..."): which
    # refusal, and the device's resource name; how many are the pod's
    (
        re.compile(r"Allocate failed due to requested number of devices unavailable for (?P<kdevice>[\w./-]{0,99}\w)"),
        "not admitted: the kubelet found the requested devices unavailable",
    ),
    (
        re.compile(r"Allocate failed due to no healthy devices present"),
        "not admitted: the device plugin has no healthy devices",
    ),
    (
        re.compile(r"Allocate failed due to (?:rpc error|device plugin (?P<kcall>\w{1,60}) rpc failed)"),
        "not admitted: the device plugin's call failed",
    ),
    # the kubelet's graceful shutdown of a node stopping its pods ("Pod was terminated in response to imminent node
    # shutdown."), a pod whose node is gone ("PodGC: node no longer exists"): the node's, not the job's
    (
        re.compile(r"Pod was terminated in response to imminent node shutdown"),
        "preempted: the node is shutting down (the kubelet's graceful node shutdown)",
    ),
    (re.compile(r"PodGC: node no longer exists"), "lost: the pod's node no longer exists (PodGC)"),
]
