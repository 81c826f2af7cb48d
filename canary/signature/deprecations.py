"""APIs a release deprecates or removes, as the failure a newer jax (or any library) meets: jax's words for a
name it removed, and Python's deprecation warnings; and jax's warning that a fork will deadlock. Pure. They take their
place in :data:`canary.signature.bare.BARE_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.kinds import line_kind
from canary.signature.recogniser import BareError

DEPRECATIONS: list[BareError] = [
    # jax's own words for an API a release removed, quoted without the AttributeError it raises them with
    # ("jax.core.pp_eqn_rules was removed in JAX v0.4.34.", an issue's title)
    BareError(
        "jax-removed",
        ("removed in JAX v",),
        # (also after its deprecation's release, "was deprecated in JAX v0.6.0 and removed in JAX v0.7.0", and after a
        # class a post spells apart, "Attribute Error: jax.interpreters.xla.xe was removed in JAX v0.4.36")
        re.compile(
            r"^(?:Attribute ?Error: )?(?P<msg>jax(?:\.\w{1,100}){1,6} was (?:deprecated in JAX v[\d.]{1,12} and )?"
            r"removed in JAX v\d{1,3}(?:\.\d{1,4}){1,3}\b.{0,500})$"
        ),
        "AttributeError",
    ),
    # Python's warning that a name will go ("/x/mapping.py:49: FutureWarning: jax.tree_flatten is deprecated, and will
    # be removed in a future release. Use jax.tree_util.tree_flatten instead."): a run goes on after it, so it names
    # the failure only when nothing else does
    BareError(
        "deprecation-warning",
        ("DeprecationWarning: ", "FutureWarning: "),
        re.compile(
            r"^(?:\S{1,300}:\d{1,6}: )?(?P<cls>(?:Pending)?DeprecationWarning|FutureWarning): (?P<msg>.{1,1000})$"
        ),
        lambda m: m["cls"],
        line_kind,
        weak=True,
    ),
    # its words alone, as a title quotes them ("jax.tree_flatten is deprecated, and will be removed in a future
    # release. Use jax.tree_util.tree_flatten instead.")
    BareError(
        "jax-deprecated",
        (" is deprecated, and will be removed in a future release",),
        re.compile(
            r"^(?P<msg>jax(?:\.\w{1,100}){1,6} is deprecated, and will be removed in a future release\b.{0,500})$"
        ),
        "FutureWarning",
        line_kind,
        weak=True,
    ),
    # jax's warning that a process running it forked ("/x/popen_fork.py:66: RuntimeWarning: os.fork() was called.
    # os.fork() is incompatible with multithreaded code, and JAX is multithreaded, so this will likely lead to a
    # deadlock."): a DataLoader's or multiprocessing's workers after an upgrade made them fork; the run goes on (or
    # hangs) after it, so it names the failure only when nothing else does
    BareError(
        "jax-fork",
        ("os.fork() was called",),
        re.compile(
            r"(?:^|: )(?P<cls>RuntimeWarning: )?(?P<msg>os\.fork\(\) was called\. os\.fork\(\) is incompatible with "
            r"multithreaded code, and JAX is multithreaded)"
        ),
        "RuntimeWarning",
        weak=True,
    ),
]
