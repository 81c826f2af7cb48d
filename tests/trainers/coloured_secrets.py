"""A stand-in trainer that logs the way structlog's console renderer does: a secret-named key and
its value each in their own colour, and a token with a colour change in its middle. Standard
library only; it dies with a traceback whose message is coloured the same way.

The secrets come from ``STANDIN_WORD`` and ``STANDIN_PUSH`` (none of them is in a variable
named like a secret: only their shapes give them away).
"""

from __future__ import annotations

import os
import sys

CYAN, MAGENTA, RED, RESET = "\x1b[36m", "\x1b[35m", "\x1b[31m", "\x1b[0m"

password, token = os.environ["STANDIN_WORD"], os.environ["STANDIN_PUSH"]
print(f"{CYAN}step{RESET}={MAGENTA}1{RESET} {CYAN}loss{RESET}={MAGENTA}7.5{RESET}", flush=True)
print(f"{CYAN}password{RESET}={MAGENTA}{password}{RESET} {CYAN}event{RESET}=login", flush=True)
print(f"pushing with {token[:20]}{RESET}{token[20:]}", flush=True)
print(
    f"cloning https://x-access-token:{token[:12]}\x1b]8;;https://e.example\x1b\\{token[12:]}\x1b]8;;\x1b\\@github.com/a/b"
)
print("Traceback (most recent call last):")
print('  File "/srv/train.py", line 9, in <module>')
print(f"RuntimeError: login refused: {RED}password{RESET}={RED}{password}{RESET} token {token[:10]}{RESET}{token[10:]}")
sys.exit(1)
