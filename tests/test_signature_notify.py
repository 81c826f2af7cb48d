"""The notifier matches failures on the exact fingerprint, and names the open issues whose failure
shares the new one's group (its error class and failing op); through the real client against
the local GitHub server."""

import dataclasses

from github_server import REPO, client, github, spool_dir  # noqa: F401 (fixtures)
from notify_records import failing

from canary.notify import notify
from canary.notify.markers import fingerprint_marker, group_marker
from canary.notify.model import Facts
from canary.signature import extract

FACTS = Facts(lane_context="GCP, TPU v6e-4, europe-west4", platform="tpu")
SYSTEM = (
    "jaxlib.xla_extension.XlaRuntimeError: INTERNAL: external/xla/xla/service/gpu/nccl_utils.cc:305: NCCL "
    "operation ncclCommInitRank(&comm, nranks, id, rank) failed: unhandled system error\n"
)
CUDA = SYSTEM.replace("unhandled system error", "unhandled cuda error").replace(":305:", ":275:")


def _failing(run_id, log):
    sig = extract(log)
    rec = failing(run_id, fp=sig.fingerprint)
    rec.signature = dataclasses.replace(rec.signature, fingerprint=sig.fingerprint, group=sig.group)
    return rec


def test_a_new_failure_names_open_issues_of_its_group_and_matches_only_its_own(github, client, spool_dir):
    a, b = extract(SYSTEM), extract(CUDA)
    assert a.fingerprint != b.fingerprint and a.group == b.group
    notify(_failing("20260828T060000Z-tpu-ab12", SYSTEM), FACTS, repo=REPO, client=client)
    [first] = github.state.issues()
    assert group_marker(a.group) in first["body"] and "shares its group" not in first["body"]

    res = notify(_failing("20260829T060000Z-tpu-cd34", CUDA), FACTS, repo=REPO, client=client)
    # another fingerprint: its own issue; its message close to the first's, a note there too (#38)
    assert [x.kind for x in res.deliveries[0].actions] == ["opened", "commented"]
    second = next(i for i in github.state.issues() if i["number"] != first["number"])
    assert fingerprint_marker(b.fingerprint) in second["body"]
    assert f"with open issue #{first['number']}" in second["body"]

    res = notify(_failing("20260830T060000Z-tpu-ef56", CUDA), FACTS, repo=REPO, client=client)
    assert [x.kind for x in res.deliveries[0].actions] == ["commented"]  # the same fingerprint: a recurrence
    assert len(github.state.issues()) == 2
