"""A done-callback that counts finished jobs and prints a line every `every` jobs."""
import sys
import threading


class Progress:
    def __init__(self, total, every=100, out=sys.stderr):
        self.total = total
        self.every = every
        self.out = out
        self.done = 0
        self.errors = 0
        self._lock = threading.Lock()

    def __call__(self, job, outcome):
        with self._lock:
            self.done += 1
            if not outcome.ok:
                self.errors += 1
            if self.done % self.every == 0 or self.done == self.total:
                print(f"{self.done}/{self.total} done, {self.errors} failed", file=self.out)
