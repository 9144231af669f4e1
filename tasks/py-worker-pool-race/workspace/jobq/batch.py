"""run_batch: apply a function to many items with a pool, results in input order."""
from .pool import WorkerPool


def run_batch(fn, items, workers=4, store=None):
    """[(ok, value_or_error)] for each item, in order."""
    with WorkerPool(workers, store=store) as pool:
        ids = [pool.submit(fn, item) for item in items]
        pool.wait()
        outcomes = [pool.store.get(job_id) for job_id in ids]
    return [(o.ok, o.value if o.ok else o.error) for o in outcomes]
