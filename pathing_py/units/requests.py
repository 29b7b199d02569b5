"""Path requests served within a time budget per update (SPEC D5).

A unit that needs a path files a request and keeps walking its old route or
waits; each update serves requests first come first served until the budget
is spent (always at least one, so the queue moves). Nothing is dropped: what
is not served waits for the next update, and the statistics show how long
the queue grew and how long requests waited.

With ``budget=None`` every request is served in the update it was filed:
the results are then the same on every machine; a budget in seconds depends
on how fast the machine runs.
"""

import math
import time
from collections import OrderedDict, deque
from typing import Callable, Deque, Generic, Hashable, Optional, Tuple, TypeVar

__all__ = ["PathRequestQueue", "QueueStats"]

#: Latencies kept in QueueStats: enough for statistics, without growing forever.
LATENCIES_KEPT = 10_000


class QueueStats:
    """Counts and latencies of a request queue."""

    def __init__(self) -> None:
        self.submitted = 0
        self.served = 0
        self.cancelled = 0
        self.longest = 0  #: most requests waiting at once
        #: Simulated seconds from filing to answer, of the last LATENCIES_KEPT requests.
        self.latencies: Deque[float] = deque(maxlen=LATENCIES_KEPT)

    @property
    def mean_latency(self) -> float:
        return sum(self.latencies) / len(self.latencies) if self.latencies else 0.0

    @property
    def max_latency(self) -> float:
        return max(self.latencies, default=0.0)

    def __repr__(self) -> str:
        return (
            f"QueueStats(submitted={self.submitted}, served={self.served}, cancelled={self.cancelled}, "
            f"longest={self.longest}, mean_latency={self.mean_latency:.3f}s, max_latency={self.max_latency:.3f}s)"
        )


#: What identifies a requester (a unit id, say), and what it asks for (a goal cell, say).
Requester = TypeVar("Requester", bound=Hashable)
Request = TypeVar("Request")


class PathRequestQueue(Generic[Requester, Request]):
    """First come, first served; one pending request per requester (a newer one replaces it)."""

    def __init__(self, budget: Optional[float] = None, *, clock: Callable[[], float] = time.perf_counter):
        if budget is not None and not (math.isfinite(budget) and budget > 0):
            raise ValueError(f"budget must be a positive number of seconds or None, got {budget!r}")
        self.budget = budget
        self._clock = clock
        self._pending: "OrderedDict[Requester, Tuple[Request, float]]" = OrderedDict()
        self.stats = QueueStats()

    def submit(self, requester: Requester, request: Request, now: float) -> None:
        """File ``request`` at simulated time ``now``, replacing the requester's pending one."""
        if requester in self._pending:
            del self._pending[requester]
            self.stats.cancelled += 1
        self._pending[requester] = (request, now)
        self.stats.submitted += 1
        self.stats.longest = max(self.stats.longest, len(self._pending))

    def cancel(self, requester: Requester) -> None:
        if self._pending.pop(requester, None) is not None:
            self.stats.cancelled += 1

    def __len__(self) -> int:
        return len(self._pending)

    def serve(self, handler: Callable[[Requester, Request], None], now: float) -> int:
        """Hand requests to ``handler(requester, request)`` until the budget is spent; how many were served."""
        started = self._clock()
        served = 0
        while self._pending:
            if served and self.budget is not None and self._clock() - started >= self.budget:
                break
            requester, (request, filed) = self._pending.popitem(last=False)
            handler(requester, request)
            self.stats.latencies.append(now - filed)
            served += 1
        self.stats.served += served
        return served
