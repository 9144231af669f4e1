"""Text helpers for notifications, previews and database columns."""
from .truncate import truncate, truncate_utf8

__all__ = ["truncate", "truncate_utf8"]
