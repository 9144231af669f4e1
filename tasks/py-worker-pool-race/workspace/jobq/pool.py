"""WorkerPool: N threads taking jobs from a queue.

    pool = WorkerPool(4)
    job_id = pool.submit(fetch, url)
    pool.wait()                  # every job submitted so far has finished
    pool.store.get(job_id).unwrap()

A job has *finished* when its outcome is in the store and every done-callback for it has
run. A done-callback may submit more jobs; `wait()` then waits for those too.
"""
import logging
import queue
import threading

from .job import Job, Outcome
from .store import MemoryStore

log = logging.getLogger(__name__)
_STOP = object()


class WorkerPool:
    def __init__(self, workers=4, store=None, name="jobq"):
        if workers < 1:
            raise ValueError("workers must be >= 1")
        self.store = store if store is not None else MemoryStore()
        self._queue = queue.Queue()
        self._cond = threading.Condition(threading.Lock())
        self._pending = 0
        self._callbacks = []
        self._closed = False
        self.failed = 0
        self._threads = [
            threading.Thread(target=self._worker, name=f"{name}-{i}", daemon=True) for i in range(workers)
        ]
        for t in self._threads:
            t.start()

    def on_done(self, callback):
        """Call `callback(job, outcome)` after each job; exceptions in it are logged, not raised."""
        self._callbacks.append(callback)

    def submit(self, fn, *args, tag="", **kwargs):
        job = Job(fn, args, kwargs, tag=tag)
        with self._cond:
            if self._closed:
                raise RuntimeError("pool is shut down")
            self._pending += 1
        self._queue.put(job)
        return job.id

    def wait(self, timeout=None):
        """Block until every submitted job has finished. False if `timeout` passed first."""
        with self._cond:
            return self._cond.wait_for(lambda: self._pending == 0, timeout)

    def pending(self):
        with self._cond:
            return self._pending

    def shutdown(self, wait=True, timeout=None):
        with self._cond:
            self._closed = True
        for _ in self._threads:
            self._queue.put(_STOP)
        if wait:
            for t in self._threads:
                t.join(timeout)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.wait()
        self.shutdown()

    # -- worker side -------------------------------------------------------------

    def _worker(self):
        while True:
            job = self._queue.get()
            if job is _STOP:
                return
            outcome = self._execute(job)
            self._finish()
            self.store.put(job.id, outcome)
            self._run_callbacks(job, outcome)

    def _execute(self, job):
        try:
            return Outcome(True, job.fn(*job.args, **job.kwargs))
        except Exception as exc:  # a failing job must not kill the worker
            with self._cond:
                self.failed += 1
            return Outcome(False, error=exc)

    def _finish(self):
        with self._cond:
            self._pending -= 1
            if self._pending == 0:
                self._cond.notify_all()

    def _run_callbacks(self, job, outcome):
        for cb in list(self._callbacks):
            try:
                cb(job, outcome)
            except Exception:
                log.exception("done-callback %r failed for job %s", cb, job.id)
