"""The model's own attention layer (projections, RoPE, ``jax.nn.dot_product_attention``, output
projection): the reference every other attention backend is checked against, and every lane's
but the cpu one."""

from canary.workload.model import attention


def make(**_options):
    return attention
