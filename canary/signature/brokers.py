"""Message brokers and stores under Python workers, in their clients' words by release: Redis refusing writes because
it cannot save its snapshot (MISCONF, worded three ways by Redis' releases, raised by redis-py as ResponseError, by
aioredis as ReplyError, printed bare), and Celery's consumer unable to reach its broker ("consumer: Cannot connect to
amqp://guest:**@127.0.0.1:5672//: [Errno 111] Connection refused."). Pure. The rule takes its place in
:data:`canary.signature.stacks.STACK_RULES`, the recognisers in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check
from canary.signature.rewordings import Parts

# ("... but is currently not able to persist on disk.", "... but it is currently not able to persist on disk.", "...
# but it's currently unable to persist to disk."; later releases add why writes are refused and the option): the
# server's disk, whichever release words it (its words, as this rule leaves them, are the environment's:
# ENVIRONMENT_TEXT)
_MISCONF = re.compile(
    r"^(?:ReplyError\(')?MISCONF Redis is configured to save RDB snapshots, but (?:it is |it's |is )?currently "
    r"(?:not able to persist on|unable to persist to) disk\b.*$"
)
MISCONF_TEXT = "MISCONF Redis is configured to save RDB snapshots, but it cannot persist them to disk"
# Celery's consumer naming the broker by its URL (the user, host and virtual host are the deployment's) and why
_CONSUMER = re.compile(r"consumer: Cannot connect to (?P<scheme>[a-z]{2,10})://\S{0,300}: (?P<why>.{1,200}?)\.?$")


def _consumer(m: re.Match[str]) -> str:
    # (a socket's errno by its words is the fetch-words rule's, network.py)
    return f"celery: consumer cannot connect to the {m['scheme']} broker: {m['why']}"


def broker_words(exc: str | None, message: str, frames: list[str]) -> Parts:
    """The ``brokers`` rule: Redis' MISCONF by what it refuses, not its release's words; Celery's consumer by the
    broker's scheme and why, not its URL."""
    if "MISCONF Redis" in message and _MISCONF.match(message):
        message = MISCONF_TEXT
    elif "consumer: Cannot connect to " in message and (m := _CONSUMER.search(message)):
        message = _consumer(m)
    return exc, message, frames


BROKER_ERRORS: list[BareError] = [
    # Redis' MISCONF posted on its own line, or in aioredis' repr of its ReplyError
    BareError(
        "redis-misconf",
        ("MISCONF Redis is configured to save RDB snapshots",),
        re.compile(
            r"^(?:(?P<cls>ReplyError)\(')?(?P<msg>MISCONF Redis is configured to save RDB snapshots, .{1,1000})"
        ),
        lambda m: m["cls"],
        "infrastructure",
    ),
    # Celery's consumer logging that it cannot reach its broker (it retries: only where nothing else names a failure)
    BareError(
        "celery-consumer",
        ("consumer: Cannot connect to ",),
        _CONSUMER,
        None,
        "infrastructure",
        message=_consumer,
        weak=True,
    ),
    # python-engineio's server refusing a client of another protocol revision (python-socketio 5 against a 2.x client,
    # or the reverse), logged on its own or in a log record: the two sides' releases, the environment's
    environment_check(
        "engineio-protocol",
        ("unsupported version of the Socket.IO or Engine.IO protocols",),
        r"(?P<msg>The client is using an unsupported version of the Socket\.IO or Engine\.IO protocols)",
        None,
    ),
]
