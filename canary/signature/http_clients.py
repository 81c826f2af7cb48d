"""Python's HTTP clients in their releases' words: urllib3 2's refusal of the ``ssl`` module's library. Pure. Its
rules take their place in :data:`canary.signature.word_folds.WORD_RULES`."""

from __future__ import annotations

import re

from canary.signature.rewordings import Rule, rewrite

# urllib3 2's check of the library Python's ssl module was built with, raised (2.0.0's ImportError) or warned
# (NotOpenSSLWarning since 2.0.x): "urllib3 v2.0 only supports OpenSSL 1.1.1+, currently the 'ssl' module is compiled
# with 'OpenSSL 1.0.2k-fips  26 Jan 2017'. See: https://github.com/urllib3/urllib3/issues/2168", later "v2" and the
# library quoted or not
_SSL = re.compile(
    r"^urllib3 v2(?:\.0)? only supports OpenSSL 1\.1\.1\+, currently the 'ssl' module is compiled with "
    r"'?(OpenSSL|LibreSSL)\b.*$"
)

HTTP_CLIENT_RULES: tuple[Rule, ...] = (
    Rule(
        "urllib3-ssl",
        "urllib3 2 names itself 'v2.0' (2.0.0) or 'v2', quotes the ssl module's library by release and follows it "
        "with its issue's address; which library (OpenSSL or LibreSSL), not its build or date, is the failure",
        rewrite(
            "only supports OpenSSL",
            _SSL,
            r"urllib3 v2 only supports OpenSSL 1.1.1+, currently the 'ssl' module "
            r"is compiled with \1",
        ),
    ),
)
