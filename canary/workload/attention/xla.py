"""The model's own rotary causal attention: RoPE, then ``jax.nn.dot_product_attention``. The
reference every other attention backend is checked against, and every lane's but the cpu one."""

from canary.workload.model import rotary_causal_attention


def make(**_options):
    return rotary_causal_attention
