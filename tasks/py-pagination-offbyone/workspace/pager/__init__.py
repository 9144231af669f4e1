"""Pagination helpers for listing endpoints."""

from .api import paginate_response
from .paginate import page_slice, total_pages

__all__ = ["paginate_response", "page_slice", "total_pages"]
