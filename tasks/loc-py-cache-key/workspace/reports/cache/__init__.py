from .decorator import cached, default_store

__all__ = ["cached", "default_store"]
