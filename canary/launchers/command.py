"""The command launcher: a site's own job CLI (``srun``, ``gcloud ... ssh``, ``kubectl exec``, a
wrapper script) runs the workload for us.

The lane gives an argv template; ``{entrypoint}`` becomes the workload's command line as one
shell-quoted string, prefixed with ``env K=V ...`` so the attempt's environment travels with it,
and ``{name}`` the attempt's unique name. The CLI itself runs like the local launcher runs the
workload: a child in its own process group, its output in the attempt's log, killed as a group
on timeout. Its exit status is the attempt's, so the site's CLI must wait for the job and pass
its status through (``srun`` and ``ssh`` do).

    launcher = { kind = "command", command = ["srun", "--gpus=8", "sh", "-c", "{entrypoint}"] }
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import replace

from canary.config import Lane
from canary.launchers import AttemptOutcome, AttemptRequest, entrypoint_argv
from canary.launchers.local import LocalLauncher


def entrypoint(request: AttemptRequest, python: str | None = None) -> str:
    env = [f"{k}={v}" for k, v in sorted(request.env.items())]
    argv = entrypoint_argv(request, python)
    return shlex.join(["env", *env, *argv] if env else argv)


def render(template: list[str], request: AttemptRequest, python: str | None = None) -> list[str]:
    """The template with ``{entrypoint}`` and ``{name}`` filled in (other braces are left alone,
    so a template may carry JSON or shell parameter expansions)."""
    values = {"{entrypoint}": entrypoint(request, python), "{name}": request.name}
    out = []
    for arg in template:
        for key, value in values.items():
            arg = arg.replace(key, value)
        out.append(arg)
    return out


class CommandLauncher:
    def __init__(self, template: list[str], python: str | None = None, grace_s: float = 5.0):
        self.template, self.python = template, python
        self.local = LocalLauncher(grace_s=grace_s)

    def launch(self, request: AttemptRequest, poll: Callable[[], None] = lambda: None) -> AttemptOutcome:
        argv = render(self.template, request, self.python)
        request.log_path.parent.mkdir(parents=True, exist_ok=True)
        with open(request.log_path, "a") as log:
            log.write(f"canary: launching with {shlex.join(argv[:1])} ...\n")
        return self.local.launch(replace(request, argv=argv), poll)


def make(lane: Lane) -> CommandLauncher:
    assert lane.launcher.command  # the lane's schema guarantees it
    return CommandLauncher(lane.launcher.command, lane.launcher.python)
