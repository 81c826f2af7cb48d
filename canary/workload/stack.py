"""The train step of a stack ferry: the model assembled from the team's libraries (levanter's grug
MoE over haliax, ``canary.workload.grug_model``), with the built-in ferry's data, optimizer,
trainer settings and metrics.

The batch is split over an explicit ``("data", "expert", "model")`` mesh of every device
(``data`` only; the other axes have size 1), as grug models are sharded; the step is traced under
that mesh, which levanter's attention and MoE read (``jax.sharding.get_abstract_mesh``).

Importing this module imports levanter and haliax: the ``levanter`` extra.
"""

from __future__ import annotations

import jax
import numpy as np
from jax.sharding import AxisType, Mesh

from canary.formats.spec import WorkloadSpec
from canary.workload import grug_model
from canary.workload.optim import TrainStep, make_optimizer, update

MESH_AXES = ("data", "expert", "model")
LIBRARY_PACKAGES = ("haliax", "levanter")  # the top-level packages whose kernel choices follow the platform


def grug_config(spec: WorkloadSpec) -> grug_model.GrugConfig:
    m = spec.ferry.model
    return grug_model.GrugConfig(
        vocab_size=spec.vocab_size,
        hidden_dim=m.hidden,
        intermediate_dim=m.intermediate,
        shared_expert_intermediate_dim=m.shared_expert_intermediate,
        num_experts=m.num_experts,
        num_experts_per_token=m.experts_per_token,
        num_layers=m.layers,
        num_heads=m.heads,
        num_kv_heads=m.kv_heads,
        head_dim=m.head_dim,
        sliding_window=spec.sliding_window if spec.sliding_window and spec.sliding_window < spec.seq_len else None,
        layer_norm_eps=m.norm_eps,
        compute_dtype=spec.compute_dtype,
        rope=grug_model.RotaryConfig(theta=m.rope_theta),
    )


def device_mesh(devices: list | None = None) -> Mesh:
    devices = list(jax.devices() if devices is None else devices)
    return Mesh(np.array(devices).reshape(len(devices), 1, 1), MESH_AXES, axis_types=(AxisType.Explicit,) * 3)


class MeshedStep:
    """A jitted step that is traced under its mesh: ``lower`` (and a first call) see the mesh
    levanter reads; ``jitted`` is the plain jitted function (for ``jax.export``)."""

    def __init__(self, jitted, mesh: Mesh):
        self.jitted, self.mesh = jitted, mesh

    def lower(self, *args):
        with jax.set_mesh(self.mesh):
            return self.jitted.lower(*args)

    def __call__(self, *args):
        with jax.set_mesh(self.mesh):
            return self.jitted(*args)


def make_train_step(spec: WorkloadSpec, mesh: Mesh | None = None) -> TrainStep:
    """The jitted train step (forward, backward, optimizer update) of the grug ferry."""
    cfg = grug_config(spec)
    mesh = mesh if mesh is not None else device_mesh()
    tx, schedule = make_optimizer(spec.ferry.optimizer, spec.steps)
    t = spec.ferry.trainer

    init_optimizer = jax.jit(tx.init)  # one program to compile, not one per weight

    def init(key):  # each weight's draw is compiled once per shape (grug_model._init_weight)
        model = grug_model.Transformer.init(cfg, key=key)
        return model, init_optimizer(model)

    def step(model, opt_state, bias, batch):
        grads_of = jax.value_and_grad(grug_model.loss_fn, has_aux=True)
        return update(tx, schedule, model, opt_state, *grads_of(model, batch, bias, t.lm_head_z_loss, t.router_z_loss))

    jitted = jax.jit(step, donate_argnums=(0, 1))
    return TrainStep(cfg, init, MeshedStep(jitted, mesh), grug_model.selection_bias(cfg))


def ragged_dot_choice() -> str:
    """The grouped matmul haliax picks on this machine's backend (its own dispatch decides)."""
    import importlib

    module = importlib.import_module("haliax.nn.ragged_dot")
    preferred = getattr(module, "_preferred_implementations", None)
    return preferred("auto")[0] if preferred else "auto"
