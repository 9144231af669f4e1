"""Where outcomes go. MemoryStore keeps them in a dict; the importer uses a SQLite-backed one
with the same two methods, which is why a put can take a while."""
import threading


class MemoryStore:
    def __init__(self):
        self._lock = threading.Lock()
        self._outcomes = {}

    def put(self, job_id, outcome):
        with self._lock:
            self._outcomes[job_id] = outcome

    def get(self, job_id):
        with self._lock:
            return self._outcomes[job_id]

    def __len__(self):
        with self._lock:
            return len(self._outcomes)
