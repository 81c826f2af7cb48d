"""What every ferry's train step shares: the optimizer from the ferry's settings, the update it
applies with the step's metrics, and the shape of a train step (:class:`TrainStep`). canary's own
model (:mod:`canary.workload.train`) and a stack ferry's (:mod:`canary.workload.stack`) build on it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import optax

from canary.config import OptimizerConfig


def make_optimizer(cfg: OptimizerConfig, steps: int) -> tuple[optax.GradientTransformation, Callable]:
    warmup = cfg.warmup_steps(steps)
    if cfg.schedule == "cosine":
        schedule = optax.warmup_cosine_decay_schedule(
            init_value=0.0,
            peak_value=cfg.learning_rate,
            warmup_steps=warmup,
            decay_steps=max(steps, warmup + 1),
            end_value=cfg.learning_rate * cfg.min_lr_ratio,
        )
    else:
        schedule = optax.linear_schedule(0.0, cfg.learning_rate, max(warmup, 1))
    chain = [optax.clip_by_global_norm(cfg.max_grad_norm)] if cfg.max_grad_norm else []
    chain.append(optax.adamw(schedule, b1=cfg.beta1, b2=cfg.beta2, eps=cfg.epsilon, weight_decay=cfg.weight_decay))
    return optax.chain(*chain), schedule


def update(tx, schedule, params, opt_state, loss_and_metrics, grads):
    """The optimizer's update of ``params`` from ``grads``, and the step's metrics: the loss's own,
    ``train/loss``, the gradient norm, the update's norm and the learning rate the update used."""
    loss, metrics = loss_and_metrics
    with jax.named_scope("optimizer"):
        # the rate this update uses: the schedule at the optimizer's count before the update
        learning_rate = schedule(optax.tree_utils.tree_get_all_with_path(opt_state, "count")[0][1])
        updates, opt_state = tx.update(grads, opt_state, params)
        params = optax.apply_updates(params, updates)
    metrics = dict(
        metrics,
        **{
            "train/loss": loss,
            "optim/grad_norm": optax.global_norm(grads),
            "optim/update_norm": optax.global_norm(updates),
            "optim/learning_rate": learning_rate,
        },
    )
    return params, opt_state, metrics


class TrainStep(NamedTuple):
    cfg: Any  # MoEConfig, or a stack ferry's model config
    init: Callable[[jax.Array], tuple[Any, Any]]  # key -> (params, opt_state)
    step: Callable  # (params, opt_state, bias, batch) -> (params, opt_state, metrics); jitted
    bias: jax.Array
