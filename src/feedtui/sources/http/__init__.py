"""One polite HTTP client for every source.

A few things are done here by hand rather than left to httpx, each for a reason:

- Redirects are followed one hop at a time, so every hop goes through the lane
  of its own host (a feed redirecting to arXiv is paced like arXiv) and a loop
  gets a clear message.
- Bodies are decompressed here with a bounded zlib output, so a gzip bomb is
  cut off at the size cap instead of a whole network chunk being inflated
  (up to ~1000×) in memory first.
- The whole-request deadline: httpx only times single operations, so a server
  dripping one byte a second would otherwise never time out.

The parts, each with one job:
- `fetcher`: the `Fetcher`, one GET through its host's limits, redirects,
  retries and the deadline;
- `pacing`: the paced arXiv lane, Retry-After, and waits worth telling;
- `transport`: the connection pools (plain and TLS apart, sharded);
- `answers`: an answer's status, redirect and validators;
- `body`: the body, decoded within the size cap;
- `urls`: the URLs accepted, and the host each belongs to;
- `failures`: what went wrong, in words for the user.

Callers use the names below; a test that tunes a constant sets it on the
module that reads it (`pacing.WAIT_WORTH_TELLING_S`, `fetcher.ARXIV_RETRY_BUDGET_S`).
"""

import sys

# httpx imports its command-line client (`httpx._main`: click, rich's console
# and progress bars, pygments) whenever those happen to be installed, which
# is about a quarter of what importing httpx costs and work every refresh
# pays before its first request. An entry of None makes that import fail at
# once, and httpx then defines a `main` that only says the CLI is missing;
# feedtui never runs httpx's CLI. An `httpx._main` imported earlier is kept.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

from feedtui.sources.http.fetcher import USER_AGENT, Fetcher, FetchStats
from feedtui.sources.http.pacing import WaitCallback

__all__ = ["USER_AGENT", "FetchStats", "Fetcher", "WaitCallback"]
