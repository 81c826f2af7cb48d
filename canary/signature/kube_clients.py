"""kubectl, Helm and gcloud refusing a cluster after an upgrade of the client or the cluster, by what was refused and
not the job's names. Pure.

client-go runs a credential plugin named in the kubeconfig, and says so when the machine lacks it ("Unable to connect
to the server: getting credentials: exec: executable gke-gcloud-auth-plugin not found", exec's own "exec:
\"aws-iam-authenticator\": executable file not found in $PATH", inside a tool's JSON or a memcache.go record);
kubectl 1.24 refuses a plugin's removed API ("exec plugin: invalid apiVersion
\"client.authentication.k8s.io/v1alpha1\"", or one that returned another than the kubeconfig asks for); gcloud 400+
warns that the GKE plugin kubectl will need is missing ("CRITICAL: ACTION REQUIRED: gke-gcloud-auth-plugin, which is
needed for continued use of kubectl, was not found or is not executable"); kubectl and Helm refuse a manifest of an API
the cluster no longer serves ("no matches for kind \"Ingress\" in version \"networking.k8s.io/v1beta1\"", after the
object's name, file and Helm's verb). Which plugin, API version and kind are the failure, the environment's; which
server, object, file and release are the job's. kubectl refuses a flag a release removed, by the command. The
recognisers take their place in :data:`canary.signature.stacks.STACK_ERRORS`.
"""

from __future__ import annotations

import re

from canary.signature.recogniser import BareError, environment_check, match_below

# (cobra's pointer to the command's help below its refusal names the command: "See 'kubectl version --help' for usage.")
_SEE_HELP = re.compile(r"^See '(?P<cmd>kubectl(?: [\w-]{1,40}){0,3}) --help' for usage\.?$")


def _flag_command(lines: list[str], i: int, said: str) -> str:
    m = match_below(_SEE_HELP, lines, i + 1, i + 2)
    return f"{m['cmd']}: {said}" if m else said


KUBE_CLIENT_ERRORS: list[BareError] = [
    environment_check(
        "kube-credential-plugin",
        ("exec: executable ", "executable file not found in $PATH"),
        r"getting credentials\s?: exec: (?:executable (?P<a>[\w.-]{1,100}) not found|exec: \\?\"(?P<b>[\w.-]{1,100})"
        r"\\?\": executable file not found in \$PATH)",
        None,
        message=lambda m: f"kubectl: getting credentials: exec: executable {m['a'] or m['b']} not found",
    ),
    # (a runner's line the terminal wrapped after "getting credentials")
    environment_check(
        "kube-credential-plugin-wrapped",
        (": exec: executable ",),
        r"^: exec: executable (?P<a>[\w.-]{1,100}) not found$",
        None,
        message=lambda m: f"kubectl: getting credentials: exec: executable {m['a']} not found",
    ),
    environment_check(
        "kube-exec-api-version",
        ("exec plugin: invalid apiVersion", "exec plugin is configured to use API version"),
        r"exec plugin: invalid apiVersion \\?\"(?P<v>[\w./-]{1,100})\\?\"|exec plugin is configured to use API version "
        r"(?P<want>[\w./-]{1,100}), plugin returned version (?P<got>[\w./-]{1,100})",
        None,
        message=lambda m: (
            f'exec plugin: invalid apiVersion "{m["v"]}"'
            if m["v"]
            else f"exec plugin is configured to use API version {m['want']}, plugin returned version {m['got']}"
        ),
    ),
    environment_check(
        "kube-gke-auth-plugin",
        ("which is needed for continued use of kubectl",),
        r"gke-gcloud-auth-plugin, which is needed for continued use of kubectl, was not found or is not executable",
        None,
        message=lambda m: "gcloud: gke-gcloud-auth-plugin, which is needed for continued use of kubectl, was not found",
    ),
    environment_check(
        "kube-api-removed",
        ("no matches for kind ",),
        r"no matches for kind \\?\"(?P<kind>\w{1,100})\\?\" in version \\?\"(?P<v>[\w./-]{1,100})\\?\"",
        None,
        message=lambda m: f'no matches for kind "{m["kind"]}" in version "{m["v"]}"',
    ),
    # kubectl refusing a flag a release removed ("error: unknown flag: --short" above "See 'kubectl version --help' for
    # usage.", kubectl 1.28 on a script written for an older one): which command and flag
    environment_check(
        "kubectl-unknown-flag",
        ("error: unknown flag: --",),
        r"^error: (?P<msg>unknown flag: --[\w-]{1,60})$",
        None,
        below=_flag_command,
    ),
]
