"""A small thread worker pool for I/O-bound batch jobs (imports, thumbnails, webhooks)."""
from .pool import WorkerPool
from .store import MemoryStore

__all__ = ["WorkerPool", "MemoryStore"]
