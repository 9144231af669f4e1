"""An in-process TTL cache with a size bound (least recently used entries go first)."""
import time
from collections import OrderedDict


class TTLStore:
    def __init__(self, max_entries=1024, ttl_s=300.0, clock=time.monotonic):
        if max_entries <= 0:
            raise ValueError("max_entries must be positive")
        self._data = OrderedDict()
        self._max = max_entries
        self._ttl = ttl_s
        self._clock = clock
        self.hits = 0
        self.misses = 0

    def get(self, key):
        entry = self._data.get(key)
        if entry is None or entry[0] <= self._clock():
            if entry is not None:
                del self._data[key]
            self.misses += 1
            return None, False
        self._data.move_to_end(key)
        self.hits += 1
        return entry[1], True

    def put(self, key, value):
        self._data[key] = (self._clock() + self._ttl, value)
        self._data.move_to_end(key)
        while len(self._data) > self._max:
            self._data.popitem(last=False)

    def invalidate(self, prefix=""):
        for key in [k for k in self._data if k.startswith(prefix)]:
            del self._data[key]

    def __len__(self):
        return len(self._data)
