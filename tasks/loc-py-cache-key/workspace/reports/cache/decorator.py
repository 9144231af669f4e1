"""@cached: memoize a report query in the shared store."""
import functools

from .keys import call_key
from .store import TTLStore

default_store = TTLStore(max_entries=4096, ttl_s=600.0)


def cached(namespace, store=None):
    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            target = store if store is not None else default_store
            key = call_key(namespace, func, args, kwargs)
            value, hit = target.get(key)
            if hit:
                return value
            value = func(*args, **kwargs)
            target.put(key, value)
            return value

        wrapper.cache_namespace = namespace
        return wrapper

    return decorate
