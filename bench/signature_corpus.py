"""How well fingerprints tell one failure from another on the real logs: prints figures, asserts nothing.

    python bench/signature_corpus.py          # the corpus before #28 and the pairs #28 added

For each part of tests/logs/real/INDEX.toml: the occurrences of one failure ([[same]]: each log after
the first paired with the first) that share an exact fingerprint, and the look-alike pairs
([[different]]) that stay apart, by the rules before #28 (the ``legacy`` fingerprint a signature
keeps) and by today's; and the pairs only the group matches, with the reason INDEX.toml gives.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from canary.signature import extract  # noqa: E402

REAL = ROOT / "tests" / "logs" / "real"


def main() -> None:
    argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter).parse_args()
    index = tomllib.loads((REAL / "INDEX.toml").read_text())
    sigs = {e["file"]: extract((REAL / e["file"]).read_text(encoding="utf-8")) for e in index["log"]}

    def before(name: str) -> str:
        s = sigs[name]
        return s.legacy[0] if s.legacy else s.fingerprint

    def now(name: str) -> str:
        return sigs[name].fingerprint

    for label, part in (
        ("corpus before #28", lambda e: e.get("issue") != 28),
        ("pairs added by #28", lambda e: e.get("issue") == 28),
    ):
        same = [g for g in index["same"] if part(g)]
        pairs = [(g, g["logs"][0], n) for g in same for n in g["logs"][1:]]
        diff = [d for d in index["different"] if part(d)]
        print(f"{label}: {len(same)} groups of one failure ({len(pairs)} pairs), {len(diff)} look-alike pairs")
        for key, fn in (("before", before), ("now", now)):
            matched = sum(fn(a) == fn(b) for _, a, b in pairs)
            apart = sum(fn(d["logs"][0]) != fn(d["logs"][1]) for d in diff)
            print(
                f"  {key:6} same failure, one fingerprint: {matched:>3} of {len(pairs)}   "
                f"look-alikes apart: {apart:>3} of {len(diff)}"
            )
        grouped = sum(sigs[a].group == sigs[b].group for _, a, b in pairs)
        print(f"  now    same failure, one group:       {grouped:>3} of {len(pairs)}")
        for g, a, b in pairs:
            if now(a) != now(b):
                print(f"    group only: {g['name']}: {a} / {b}" + ("" if g["grain"] == "group" else "  (MISSED)"))


if __name__ == "__main__":
    main()
