"""How well fingerprints tell one failure from another on the real logs: prints figures, asserts nothing.

    python bench/signature_corpus.py

For each part of tests/logs/real/INDEX.toml (the corpus before #28, the pairs #28 added, and those #38
added, seen and held out in two hundred and fifty-six batches, and the held-out batches together): the logs in
which a failure is found; the occurrences of one failure
([[same]]: each log after the first paired with the first) that share an exact fingerprint by the
rules before #28 (unfolded: the ``legacy`` fingerprint a signature keeps) and by today's, that share a group,
and that are at least linked (one fingerprint, or a similarity at or above
canary.signature.similar.THRESHOLD); and the look-alike pairs ([[different]]) merged (one
fingerprint) or linked. The pairs only the group matches are listed with the reason INDEX.toml gives.
"""

from __future__ import annotations

import argparse
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from canary.signature import call_paths, extract  # noqa: E402
from canary.signature.similar import THRESHOLD, similarity  # noqa: E402

REAL = ROOT / "tests" / "logs" / "real"


def pct(n: int, d: int) -> str:
    return f"{n:>3} of {d:<3} ({100 * n / d:3.0f}%)" if d else "  - of 0"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--threshold", type=float, default=THRESHOLD, help="the similarity that links two signatures")
    ap.add_argument("--sweep", action="store_true", help="the whole corpus's links at thresholds from 0.80 to 1.0")
    ap.add_argument(
        "--naming-sweep",
        action="store_true",
        help="held-out pairs sharing a fingerprint, and look-alikes merged, by the words a message needs to have "
        "no call path in its fingerprint (call_paths.NAMING_WORDS)",
    )
    args = ap.parse_args()
    index = tomllib.loads((REAL / "INDEX.toml").read_text())
    if args.naming_sweep:
        naming_sweep(index)
        return
    sigs = {e["file"]: extract((REAL / e["file"]).read_text(encoding="utf-8")) for e in index["log"]}

    def before(name: str) -> str | None:
        s = sigs[name]
        return None if s is None else (s.legacy[0] if s.legacy else s.fingerprint)

    def now(name: str) -> str | None:
        return sigs[name] and sigs[name].fingerprint

    def linked(a: str, b: str) -> bool:
        sa, sb = sigs[a], sigs[b]
        return bool(sa and sb and (sa.fingerprint == sb.fingerprint or similarity(sa, sb) >= args.threshold))

    parts = (
        ("corpus before #28", lambda e: e.get("issue") is None),
        ("pairs added by #28", lambda e: e.get("issue") == 28),
        ("added by #38, seen", lambda e: e.get("issue") == 38 and not e.get("heldout")),
        ("added by #38, held out", lambda e: e.get("issue") == 38 and e.get("heldout") is True),
        ("added by #38, held out (second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 2),
        ("added by #38, held out (third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 3),
        ("added by #38, held out (fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 4),
        ("added by #38, held out (fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 5),
        ("added by #38, held out (sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 6),
        ("added by #38, held out (seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 7),
        ("added by #38, held out (eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 8),
        ("added by #38, held out (ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 9),
        ("added by #38, held out (tenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 10),
        ("added by #38, held out (eleventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 11),
        ("added by #38, held out (twelfth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 12),
        ("added by #38, held out (thirteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 13),
        ("added by #38, held out (fourteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 14),
        ("added by #38, held out (fifteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 15),
        ("added by #38, held out (sixteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 16),
        ("added by #38, held out (seventeenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 17),
        ("added by #38, held out (eighteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 18),
        ("added by #38, held out (nineteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 19),
        ("added by #38, held out (twentieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 20),
        ("added by #38, held out (twenty-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 21),
        ("added by #38, held out (twenty-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 22),
        ("added by #38, held out (twenty-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 23),
        ("added by #38, held out (twenty-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 24),
        ("added by #38, held out (twenty-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 25),
        ("added by #38, held out (twenty-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 26),
        ("added by #38, held out (twenty-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 27),
        ("added by #38, held out (twenty-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 28),
        ("added by #38, held out (twenty-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 29),
        ("added by #38, held out (thirtieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 30),
        ("added by #38, held out (thirty-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 31),
        ("added by #38, held out (thirty-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 32),
        ("added by #38, held out (thirty-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 33),
        ("added by #38, held out (thirty-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 34),
        ("added by #38, held out (thirty-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 35),
        ("added by #38, held out (thirty-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 36),
        ("added by #38, held out (thirty-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 37),
        ("added by #38, held out (thirty-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 38),
        ("added by #38, held out (thirty-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 39),
        ("added by #38, held out (fortieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 40),
        ("added by #38, held out (forty-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 41),
        ("added by #38, held out (forty-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 42),
        ("added by #38, held out (forty-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 43),
        ("added by #38, held out (forty-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 44),
        ("added by #38, held out (forty-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 45),
        ("added by #38, held out (forty-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 46),
        ("added by #38, held out (forty-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 47),
        ("added by #38, held out (forty-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 48),
        ("added by #38, held out (forty-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 49),
        ("added by #38, held out (fiftieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 50),
        ("added by #38, held out (fifty-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 51),
        ("added by #38, held out (fifty-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 52),
        ("added by #38, held out (fifty-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 53),
        ("added by #38, held out (fifty-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 54),
        ("added by #38, held out (fifty-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 55),
        ("added by #38, held out (fifty-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 56),
        ("added by #38, held out (fifty-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 57),
        ("added by #38, held out (fifty-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 58),
        ("added by #38, held out (fifty-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 59),
        ("added by #38, held out (sixtieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 60),
        ("added by #38, held out (sixty-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 61),
        ("added by #38, held out (sixty-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 62),
        ("added by #38, held out (sixty-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 63),
        ("added by #38, held out (sixty-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 64),
        ("added by #38, held out (sixty-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 65),
        ("added by #38, held out (sixty-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 66),
        ("added by #38, held out (sixty-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 67),
        ("added by #38, held out (sixty-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 68),
        ("added by #38, held out (sixty-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 69),
        ("added by #38, held out (seventieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 70),
        ("added by #38, held out (seventy-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 71),
        ("added by #38, held out (seventy-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 72),
        ("added by #38, held out (seventy-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 73),
        ("added by #38, held out (seventy-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 74),
        ("added by #38, held out (seventy-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 75),
        ("added by #38, held out (seventy-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 76),
        ("added by #38, held out (seventy-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 77),
        ("added by #38, held out (seventy-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 78),
        ("added by #38, held out (seventy-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 79),
        ("added by #38, held out (eightieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 80),
        ("added by #38, held out (eighty-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 81),
        ("added by #38, held out (eighty-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 82),
        ("added by #38, held out (eighty-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 83),
        ("added by #38, held out (eighty-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 84),
        ("added by #38, held out (eighty-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 85),
        ("added by #38, held out (eighty-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 86),
        ("added by #38, held out (eighty-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 87),
        ("added by #38, held out (eighty-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 88),
        ("added by #38, held out (eighty-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 89),
        ("added by #38, held out (ninetieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 90),
        ("added by #38, held out (ninety-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 91),
        ("added by #38, held out (ninety-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 92),
        ("added by #38, held out (ninety-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 93),
        ("added by #38, held out (ninety-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 94),
        ("added by #38, held out (ninety-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 95),
        ("added by #38, held out (ninety-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 96),
        ("added by #38, held out (ninety-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 97),
        ("added by #38, held out (ninety-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 98),
        ("added by #38, held out (ninety-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 99),
        ("added by #38, held out (hundredth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 100),
        ("added by #38, held out (hundred-and-first)", lambda e: e.get("issue") == 38 and e.get("heldout") == 101),
        ("added by #38, held out (hundred-and-second)", lambda e: e.get("issue") == 38 and e.get("heldout") == 102),
        ("added by #38, held out (hundred-and-third)", lambda e: e.get("issue") == 38 and e.get("heldout") == 103),
        ("added by #38, held out (hundred-and-fourth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 104),
        ("added by #38, held out (hundred-and-fifth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 105),
        ("added by #38, held out (hundred-and-sixth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 106),
        ("added by #38, held out (hundred-and-seventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 107),
        ("added by #38, held out (hundred-and-eighth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 108),
        ("added by #38, held out (hundred-and-ninth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 109),
        ("added by #38, held out (hundred-and-tenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 110),
        ("added by #38, held out (hundred-and-eleventh)", lambda e: e.get("issue") == 38 and e.get("heldout") == 111),
        ("added by #38, held out (hundred-and-twelfth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 112),
        ("added by #38, held out (hundred-and-thirteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 113),
        ("added by #38, held out (hundred-and-fourteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 114),
        ("added by #38, held out (hundred-and-fifteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 115),
        ("added by #38, held out (hundred-and-sixteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 116),
        (
            "added by #38, held out (hundred-and-seventeenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 117,
        ),
        ("added by #38, held out (hundred-and-eighteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 118),
        ("added by #38, held out (hundred-and-nineteenth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 119),
        ("added by #38, held out (hundred-and-twentieth)", lambda e: e.get("issue") == 38 and e.get("heldout") == 120),
        (
            "added by #38, held out (hundred-and-twenty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 121,
        ),
        (
            "added by #38, held out (hundred-and-twenty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 122,
        ),
        (
            "added by #38, held out (hundred-and-twenty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 123,
        ),
        (
            "added by #38, held out (hundred-and-twenty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 124,
        ),
        (
            "added by #38, held out (hundred-and-twenty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 125,
        ),
        (
            "added by #38, held out (hundred-and-twenty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 126,
        ),
        (
            "added by #38, held out (hundred-and-twenty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 127,
        ),
        (
            "added by #38, held out (hundred-and-twenty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 128,
        ),
        (
            "added by #38, held out (hundred-and-twenty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 129,
        ),
        (
            "added by #38, held out (hundred-and-thirtieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 130,
        ),
        (
            "added by #38, held out (hundred-and-thirty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 131,
        ),
        (
            "added by #38, held out (hundred-and-thirty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 132,
        ),
        (
            "added by #38, held out (hundred-and-thirty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 133,
        ),
        (
            "added by #38, held out (hundred-and-thirty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 134,
        ),
        (
            "added by #38, held out (hundred-and-thirty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 135,
        ),
        (
            "added by #38, held out (hundred-and-thirty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 136,
        ),
        (
            "added by #38, held out (hundred-and-thirty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 137,
        ),
        (
            "added by #38, held out (hundred-and-thirty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 138,
        ),
        (
            "added by #38, held out (hundred-and-thirty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 139,
        ),
        (
            "added by #38, held out (hundred-and-fortieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 140,
        ),
        (
            "added by #38, held out (hundred-and-forty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 141,
        ),
        (
            "added by #38, held out (hundred-and-forty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 142,
        ),
        (
            "added by #38, held out (hundred-and-forty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 143,
        ),
        (
            "added by #38, held out (hundred-and-forty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 144,
        ),
        (
            "added by #38, held out (hundred-and-forty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 145,
        ),
        (
            "added by #38, held out (hundred-and-forty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 146,
        ),
        (
            "added by #38, held out (hundred-and-forty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 147,
        ),
        (
            "added by #38, held out (hundred-and-forty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 148,
        ),
        (
            "added by #38, held out (hundred-and-forty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 149,
        ),
        (
            "added by #38, held out (hundred-and-fiftieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 150,
        ),
        (
            "added by #38, held out (hundred-and-fifty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 151,
        ),
        (
            "added by #38, held out (hundred-and-fifty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 152,
        ),
        (
            "added by #38, held out (hundred-and-fifty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 153,
        ),
        (
            "added by #38, held out (hundred-and-fifty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 154,
        ),
        (
            "added by #38, held out (hundred-and-fifty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 155,
        ),
        (
            "added by #38, held out (hundred-and-fifty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 156,
        ),
        (
            "added by #38, held out (hundred-and-fifty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 157,
        ),
        (
            "added by #38, held out (hundred-and-fifty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 158,
        ),
        (
            "added by #38, held out (hundred-and-fifty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 159,
        ),
        (
            "added by #38, held out (hundred-and-sixtieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 160,
        ),
        (
            "added by #38, held out (hundred-and-sixty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 161,
        ),
        (
            "added by #38, held out (hundred-and-sixty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 162,
        ),
        (
            "added by #38, held out (hundred-and-sixty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 163,
        ),
        (
            "added by #38, held out (hundred-and-sixty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 164,
        ),
        (
            "added by #38, held out (hundred-and-sixty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 165,
        ),
        (
            "added by #38, held out (hundred-and-sixty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 166,
        ),
        (
            "added by #38, held out (hundred-and-sixty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 167,
        ),
        (
            "added by #38, held out (hundred-and-sixty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 168,
        ),
        (
            "added by #38, held out (hundred-and-sixty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 169,
        ),
        (
            "added by #38, held out (hundred-and-seventieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 170,
        ),
        (
            "added by #38, held out (hundred-and-seventy-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 171,
        ),
        (
            "added by #38, held out (hundred-and-seventy-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 172,
        ),
        (
            "added by #38, held out (hundred-and-seventy-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 173,
        ),
        (
            "added by #38, held out (hundred-and-seventy-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 174,
        ),
        (
            "added by #38, held out (hundred-and-seventy-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 175,
        ),
        (
            "added by #38, held out (hundred-and-seventy-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 176,
        ),
        (
            "added by #38, held out (hundred-and-seventy-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 177,
        ),
        (
            "added by #38, held out (hundred-and-seventy-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 178,
        ),
        (
            "added by #38, held out (hundred-and-seventy-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 179,
        ),
        (
            "added by #38, held out (hundred-and-eightieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 180,
        ),
        (
            "added by #38, held out (hundred-and-eighty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 181,
        ),
        (
            "added by #38, held out (hundred-and-eighty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 182,
        ),
        (
            "added by #38, held out (hundred-and-eighty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 183,
        ),
        (
            "added by #38, held out (hundred-and-eighty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 184,
        ),
        (
            "added by #38, held out (hundred-and-eighty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 185,
        ),
        (
            "added by #38, held out (hundred-and-eighty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 186,
        ),
        (
            "added by #38, held out (hundred-and-eighty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 187,
        ),
        (
            "added by #38, held out (hundred-and-eighty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 188,
        ),
        (
            "added by #38, held out (hundred-and-eighty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 189,
        ),
        (
            "added by #38, held out (hundred-and-ninetieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 190,
        ),
        (
            "added by #38, held out (hundred-and-ninety-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 191,
        ),
        (
            "added by #38, held out (hundred-and-ninety-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 192,
        ),
        (
            "added by #38, held out (hundred-and-ninety-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 193,
        ),
        (
            "added by #38, held out (hundred-and-ninety-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 194,
        ),
        (
            "added by #38, held out (hundred-and-ninety-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 195,
        ),
        (
            "added by #38, held out (hundred-and-ninety-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 196,
        ),
        (
            "added by #38, held out (hundred-and-ninety-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 197,
        ),
        (
            "added by #38, held out (hundred-and-ninety-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 198,
        ),
        (
            "added by #38, held out (hundred-and-ninety-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 199,
        ),
        (
            "added by #38, held out (two-hundredth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 200,
        ),
        (
            "added by #38, held out (two-hundred-and-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 201,
        ),
        (
            "added by #38, held out (two-hundred-and-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 202,
        ),
        (
            "added by #38, held out (two-hundred-and-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 203,
        ),
        (
            "added by #38, held out (two-hundred-and-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 204,
        ),
        (
            "added by #38, held out (two-hundred-and-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 205,
        ),
        (
            "added by #38, held out (two-hundred-and-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 206,
        ),
        (
            "added by #38, held out (two-hundred-and-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 207,
        ),
        (
            "added by #38, held out (two-hundred-and-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 208,
        ),
        (
            "added by #38, held out (two-hundred-and-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 209,
        ),
        (
            "added by #38, held out (two-hundred-and-tenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 210,
        ),
        (
            "added by #38, held out (two-hundred-and-eleventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 211,
        ),
        (
            "added by #38, held out (two-hundred-and-twelfth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 212,
        ),
        (
            "added by #38, held out (two-hundred-and-thirteenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 213,
        ),
        (
            "added by #38, held out (two-hundred-and-fourteenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 214,
        ),
        (
            "added by #38, held out (two-hundred-and-fifteenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 215,
        ),
        (
            "added by #38, held out (two-hundred-and-sixteenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 216,
        ),
        (
            "added by #38, held out (two-hundred-and-seventeenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 217,
        ),
        (
            "added by #38, held out (two-hundred-and-eighteenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 218,
        ),
        (
            "added by #38, held out (two-hundred-and-nineteenth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 219,
        ),
        (
            "added by #38, held out (two-hundred-and-twentieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 220,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 221,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 222,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 223,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 224,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 225,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 226,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 227,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 228,
        ),
        (
            "added by #38, held out (two-hundred-and-twenty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 229,
        ),
        (
            "added by #38, held out (two-hundred-and-thirtieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 230,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 231,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 232,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 233,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 234,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 235,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 236,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 237,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 238,
        ),
        (
            "added by #38, held out (two-hundred-and-thirty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 239,
        ),
        (
            "added by #38, held out (two-hundred-and-fortieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 240,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 241,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 242,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 243,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 244,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 245,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 246,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-seventh)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 247,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-eighth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 248,
        ),
        (
            "added by #38, held out (two-hundred-and-forty-ninth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 249,
        ),
        (
            "added by #38, held out (two-hundred-and-fiftieth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 250,
        ),
        (
            "added by #38, held out (two-hundred-and-fifty-first)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 251,
        ),
        (
            "added by #38, held out (two-hundred-and-fifty-second)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 252,
        ),
        (
            "added by #38, held out (two-hundred-and-fifty-third)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 253,
        ),
        (
            "added by #38, held out (two-hundred-and-fifty-fourth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 254,
        ),
        (
            "added by #38, held out (two-hundred-and-fifty-fifth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 255,
        ),
        (
            "added by #38, held out (two-hundred-and-fifty-sixth)",
            lambda e: e.get("issue") == 38 and e.get("heldout") == 256,
        ),
        ("added by #38, all held out", lambda e: e.get("issue") == 38 and bool(e.get("heldout"))),
    )
    if args.sweep:
        sweep(index, sigs)
        return
    print(f"similarity threshold {args.threshold}")
    for label, part in parts:
        same = [g for g in index["same"] if part(g)]
        pairs = [(g, g["logs"][0], n) for g in same for n in g["logs"][1:]]
        diff = [d for d in index["different"] if part(d)]
        names = {n for g in same + diff for n in g["logs"]}
        found = sum(sigs[n] is not None for n in names)
        print(
            f"{label}: {len(names)} logs, {len(same)} groups of one failure ({len(pairs)} pairs), "
            f"{len(diff)} look-alikes"
        )
        print(f"  found                              {pct(found, len(names))}")
        for key, fn in (("unfolded", before), ("now", now)):
            matched = sum(fn(a) is not None and fn(a) == fn(b) for _, a, b in pairs)
            print(f"  same failure, one fingerprint, {key:11}{pct(matched, len(pairs))}")
        grouped = sum(bool(sigs[a] and sigs[b]) and sigs[a].group == sigs[b].group for _, a, b in pairs)
        print(f"  same failure, one group            {pct(grouped, len(pairs))}")
        print(f"  same failure, at least linked      {pct(sum(linked(a, b) for _, a, b in pairs), len(pairs))}")
        merged = sum(now(d["logs"][0]) is not None and now(d["logs"][0]) == now(d["logs"][1]) for d in diff)
        print(f"  look-alikes merged                 {pct(merged, len(diff))}")
        near = sum(linked(*d["logs"]) for d in diff)
        print(f"  look-alikes linked                 {pct(near, len(diff))}")
        for g, a, b in pairs:
            if now(a) != now(b):
                print(f"    group only: {g['name']}: {a} / {b}" + ("" if g["grain"] == "group" else "  (MISSED)"))
        for d in diff:
            if linked(*d["logs"]):
                print(
                    f"    look-alikes linked: {d['logs'][0]} / {d['logs'][1]} "
                    f"({similarity(sigs[d['logs'][0]], sigs[d['logs'][1]]):.2f})"
                )


def sweep(index: dict, sigs: dict) -> None:
    """Every pair of the corpus: how many are linked at each threshold (one fingerprint, or that similarity)."""
    same = [(g["logs"][0], n) for g in index["same"] for n in g["logs"][1:]]
    diff = [tuple(d["logs"]) for d in index["different"]]

    def count(pairs, t: float | None) -> int:
        return sum(
            bool(sigs[a] and sigs[b])
            and (sigs[a].fingerprint == sigs[b].fingerprint or (t is not None and similarity(sigs[a], sigs[b]) >= t))
            for a, b in pairs
        )

    print(f"whole corpus: {len(same)} same-failure pairs, {len(diff)} look-alike pairs")
    print(f"  one fingerprint: same failure {count(same, None)}, look-alikes merged {count(diff, None)}")
    for t in (0.80, 0.85, 0.90, 0.95, 1.0):
        print(
            f"  at {t:.2f}: same failure linked {pct(count(same, t), len(same))}"
            f"  look-alikes linked {pct(count(diff, t), len(diff))}"
        )


def naming_sweep(index: dict) -> None:
    """The ``program-frames`` rule's threshold: each value of call_paths.NAMING_WORDS, every log read again under it."""
    texts = {e["file"]: (REAL / e["file"]).read_text(encoding="utf-8") for e in index["log"]}
    held = [g for g in index["same"] if g.get("issue") == 38 and g.get("heldout")]
    same = [(g["logs"][0], n) for g in held for n in g["logs"][1:]]
    diff = [tuple(d["logs"]) for d in index["different"] if d.get("issue") == 38 and d.get("heldout")]
    kept = call_paths.NAMING_WORDS
    print(f"held out under #38: {len(same)} same-failure pairs, {len(diff)} look-alike pairs (now {kept} words)")
    for words in (3, 4, 5, 6, 7, 8, 10, 12, None):
        call_paths.NAMING_WORDS = words or 10**9
        fps = {n: (s.fingerprint if s else None) for n, s in ((n, extract(t)) for n, t in texts.items())}
        same_n = sum(fps[a] is not None and fps[a] == fps[b] for a, b in same)
        merged = sum(fps[a] is not None and fps[a] == fps[b] for a, b in diff)
        label = f"under {words} words" if words else "always"
        print(f"  call path kept {label:15} same failure {pct(same_n, len(same))}  merged {pct(merged, len(diff))}")
    call_paths.NAMING_WORDS = kept


if __name__ == "__main__":
    main()
