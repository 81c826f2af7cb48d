"""Data parallelism for the train step: the batch is split over every device, the parameters and
optimizer state are replicated, and gradients are averaged across devices.

The loss and gradients are computed under ``shard_map``, so each device routes, sorts and runs
the grouped matmuls (ragged_dot) on its own rows only, exactly as a per-device kernel sees them
on a TPU or GPU slice (M = local tokens x top-k). Every quantity in the loss is a mean over
tokens, so with equal shards the mean over devices of the per-device loss and gradients is the
full batch's. So are the model's statistics: the step averages their token means (each expert's
share of the routed tokens, its mean router probability, an output's mean square) and forms the
load balance, the usage entropy and the RMS from those, the global batch's, not per device.

With more than one host (``lane.hosts > 1``) the workload first joins the others through
``jax.distributed.initialize``: explicitly from ``CANARY_COORDINATOR_ADDRESS``,
``CANARY_NUM_PROCESSES`` and ``CANARY_PROCESS_ID`` when the launcher sets them, otherwise from
what JAX detects itself (TPU pod metadata, SLURM, Open MPI). The mesh then spans every host's
devices and each host feeds its own slice of the batch.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import jax
import numpy as np
from jax.sharding import Mesh, NamedSharding
from jax.sharding import PartitionSpec as P

AXIS = "data"
DISTRIBUTED_ENV = ("CANARY_COORDINATOR_ADDRESS", "CANARY_NUM_PROCESSES", "CANARY_PROCESS_ID")


def distributed_args(environ: Mapping[str, str]) -> dict[str, Any]:
    """``jax.distributed.initialize`` keyword arguments from the launcher's environment. Pure."""
    present = {k: environ[k] for k in DISTRIBUTED_ENV if environ.get(k)}
    if not present:
        return {}  # JAX detects the cluster itself
    missing = [k for k in DISTRIBUTED_ENV if k not in present]
    if missing:
        raise ValueError(f"multi-host start: {', '.join(present)} set but {', '.join(missing)} missing")
    return {
        "coordinator_address": present["CANARY_COORDINATOR_ADDRESS"],
        "num_processes": int(present["CANARY_NUM_PROCESSES"]),
        "process_id": int(present["CANARY_PROCESS_ID"]),
    }


def start_hosts(hosts: int, environ: Mapping[str, str]) -> None:
    """Joins the other hosts of a multi-host lane; a no-op for one host."""
    if hosts > 1:
        jax.distributed.initialize(**distributed_args(environ))


def check_divisible(batch_size: int, devices: int) -> None:
    if batch_size % devices:
        raise ValueError(
            f"batch_size {batch_size} does not divide over {devices} devices: the data-parallel step gives "
            f"every device the same number of rows; use a multiple of {devices} in the ferry's lane settings"
        )


def device_mesh(devices: list | None = None) -> Mesh | None:
    """A one-axis mesh over every device, or None when there is only one (no sharding at all)."""
    devices = list(jax.devices() if devices is None else devices)
    return Mesh(np.array(devices), (AXIS,)) if len(devices) > 1 else None


def data_parallel(grad_fn: Callable, mesh: Mesh | None, check_vma: bool = False) -> Callable:
    """``grad_fn(params, bias, batch) -> ((loss, metrics), grads)`` computed per device on its
    rows of ``batch`` and averaged over the mesh; unchanged without a mesh."""
    if mesh is None:
        return grad_fn

    def per_device(params, bias, batch):
        # The parameters are cast to varying first, so each device's gradient is its own rows'
        # alone. Left replicated, shard_map's varying-axis tracking (check_vma) transposes their
        # implicit broadcast into a psum: the gradients come out summed over the devices and the
        # pmean below keeps the sum (a device-count scale that gradient clipping does not ignore).
        params = jax.lax.pcast(params, AXIS, to="varying")
        return jax.lax.pmean(grad_fn(params, bias, batch), AXIS)

    # check_vma=False: a Pallas kernel's out_shape (megablox's gmm on the tpu lane) declares no
    # varying mesh axes, which shard_map's check rejects at trace time ("manual_axis_type on
    # jax.ShapeDtypeStruct must not be None"); `canary lower --lane tpu` on the v6e:2x2 topology found it
    return jax.shard_map(per_device, mesh=mesh, in_specs=(P(), P(), P(AXIS)), out_specs=P(), check_vma=check_vma)


def replicate(tree: Any, mesh: Mesh | None) -> Any:
    return tree if mesh is None else jax.device_put(tree, NamedSharding(mesh, P()))


def shard_batch(batch: np.ndarray, mesh: Mesh | None) -> Any:
    """The global batch (every host makes the same one from the step number) placed row-wise
    over the mesh; each host hands over only its own rows."""
    if mesh is None:
        return batch
    sharding = NamedSharding(mesh, P(AXIS))
    if jax.process_count() == 1:
        return jax.device_put(batch, sharding)
    rows = batch.shape[0] // jax.process_count()
    local = batch[jax.process_index() * rows : (jax.process_index() + 1) * rows]
    return jax.make_array_from_process_local_data(sharding, local, batch.shape)
