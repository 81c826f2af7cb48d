"""The folding rules of jax's words for a misuse of its transformations and arrays, reworded across releases: a tree
prefix a transformation's axes are not, two pytrees of another structure or length, an array fetched across processes,
control flow's types that differ, a value that is not an array, shapes that do not broadcast, a tracer turned into a
Python or NumPy value. Pure. They close :data:`canary.signature.word_folds.WORD_RULES`, in this order.
"""

from __future__ import annotations

from canary.signature import jax_words, pytrees, tracers
from canary.signature.rewordings import Rule

JAX_MISUSE_RULES: tuple[Rule, ...] = (
    Rule(
        "tree-prefix",
        "jax's check that a transformation's axes or shardings are a tree prefix of its arguments (vmap's in_axes, "
        "pjit's in_axis_resources) quotes the program's specification and tree: which check is the misuse",
        jax_words.tree_prefix,
    ),
    Rule(
        "vmap-axes",
        "vmap since 0.4.3x checks a tuple of in_axes against the positional arguments by their lengths before the tree "
        "prefix check that refused the same axes earlier: one misuse",
        pytrees.vmap_axes,
    ),
    Rule(
        "same-structure",
        "control flow's check that branches or a carry share a structure printed both trees up to 0.4, since 0.5 where "
        "they differ: which check is the misuse, and whether the trees differ only in a custom node's data",
        pytrees.same_structure,
    ),
    Rule(
        "tree-lengths",
        "tree_map's second tree with a list of another length ('List arity mismatch', later 'in tree_map, at the key "
        "path ...'), a prefix tree's node of another length ('different numbers of pytree children', later 'different "
        "lengths of list'), a custom node's data: the container",
        pytrees.tree_lengths,
    ),
    Rule(
        "flax-scope",
        "flax's scopes refuse a parameter of another shape or none, worded by release, with a link to the docs: the "
        "check and the parameter's name are the misuse, the module's path and the shapes the program's; Flax 0.12 "
        "names the static attribute that holds arrays and its module, which are the program's",
        pytrees.flax_scope,
    ),
    Rule(
        "non-addressable",
        "jax's refusal to fetch an array spanning other processes' devices says '(non process local)' since 2024, "
        "with advice after it by release: the refusal is the misuse",
        jax_words.non_addressable,
    ),
    Rule(
        "identical-types",
        "lax's control flow refusing a carry or branches whose types differ marks each leaf that differs ('DIFFERENT "
        "ShapedArray(int32[], weak_type=True) vs. ShapedArray(float0[])'): the tree and its shapes are the program's; "
        "which dtypes differ, or that only shapes do, is the misuse",
        jax_words.identical_types,
    ),
    Rule(
        "static-argnums",
        "jit's check of static_argnums against a call (a TypeError in 2019, a ValueError since, naming donate_argnums "
        "since 2021) or against the function's parameters (0.4.27) names the program's argument numbers: which check "
        "is the misuse",
        jax_words.static_argnums,
    ),
    Rule(
        "abstract-array",
        "jax's check that an argument is an array: 'is not a valid JAX type' (0.2), 'Cannot interpret value of type "
        "... as an abstract array' (0.4), 'Error interpreting argument to f ...' (0.4.3x); the value's type is the "
        "misuse",
        jax_words.abstract_array,
    ),
    Rule(
        "broadcast-shapes",
        "jax up to 0.3.16 printed shapes that do not broadcast rank-promoted ('((2, 4), (1, 2))'), later as given "
        "('shapes=[(2, 4), (2,)]'); leading 1s do not change how a shape broadcasts",
        jax_words.broadcast_shapes,
    ),
    Rule(
        "tracer-conversion",
        "jax raised a tracer used as a bool, a NumPy array or an index as ConcretizationTypeError, Exception or "
        "TypeError by release, then as TracerBool-, TracerArray-, TracerIntegerConversionError: the conversion (a "
        "bool's shape) is the misuse, the tracer and where it was traced the program's",
        tracers.tracer_conversion,
    ),
    Rule(
        "sharding-divisible",
        "jax's check that a sharding divides an array's dimension names what was given it, the NamedSharding's repr "
        "by release and the sizes: that a mesh axis does not divide a dimension is the misuse",
        jax_words.sharding_divisible,
    ),
    Rule(
        "grad-input",
        "jax's grad refuses an input that is not inexact in 0.1's words ('Primal inputs to reverse-mode "
        "differentiation must be of float or complex type') and later ones, with advice: the dtype is the misuse",
        jax_words.grad_input,
    ),
)
