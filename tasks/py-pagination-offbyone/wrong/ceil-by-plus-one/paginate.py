"""Page arithmetic. Pages are numbered from 1."""


def _check(page, per_page):
    if per_page < 1:
        raise ValueError(f"per_page must be at least 1, got {per_page}")
    if page < 1:
        raise ValueError(f"page must be at least 1, got {page}")


def page_bounds(page, per_page):
    """Return (start, end) indexes of `page` in the full list."""
    _check(page, per_page)
    start = (page - 1) * per_page
    end = start + per_page
    return start, end


def page_slice(items, page, per_page):
    """The items shown on `page`; empty when the page is past the end."""
    start, end = page_bounds(page, per_page)
    return list(items[start:end])


def total_pages(count, per_page):
    """How many pages `count` items need."""
    _check(1, per_page)
    return count // per_page + 1
