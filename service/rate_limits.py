"""How much one API key may ask of a server: requests in a moving window (the `limits`
library, kept in this process's memory) and uploads waiting at once. A client past either
gets 429 with Retry-After; the others are served as before."""
from __future__ import annotations

import math
import threading
import time


class KeyLimits:
    """`rate`: the limits notation ("600/minute"; several joined by ";"), "" for none."""

    def __init__(self, rate: str):
        from limits import parse_many  # imported here: a question's process never needs it
        from limits.storage import MemoryStorage
        from limits.strategies import MovingWindowRateLimiter

        try:
            self.rates = parse_many(rate) if rate.strip() else []
        except ValueError as exc:
            raise ValueError(f"service.rate_limit: {rate!r} is not a rate such as '600/minute' "
                             "(several joined by ';')") from exc
        self.rate = rate
        self._limiter = MovingWindowRateLimiter(MemoryStorage())
        self._lock = threading.Lock()  # a test and its hit as one step: concurrent requests never slip past

    def retry_after(self, key: str) -> int | None:
        """Counts one request of `key`; None when it is within every rate, else the whole
        seconds until it would be (the request is not counted then)."""
        with self._lock:
            for rate in self.rates:
                if not self._limiter.test(rate, key):
                    reset = self._limiter.get_window_stats(rate, key).reset_time
                    return max(1, math.ceil(reset - time.time()))
            for rate in self.rates:
                self._limiter.hit(rate, key)
        return None
