"""The page envelope returned by listing endpoints."""

from .paginate import page_slice, total_pages


def paginate_response(items, page=1, per_page=20):
    items = list(items)
    pages = total_pages(len(items), per_page)
    return {
        "items": page_slice(items, page, per_page),
        "page": page,
        "per_page": per_page,
        "total_items": len(items),
        "total_pages": pages,
        "has_prev": page > 1,
        "has_next": page < pages,
    }
