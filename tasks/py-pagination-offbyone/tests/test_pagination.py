import pytest

from pager import paginate_response
from pager.paginate import page_slice, total_pages

ITEMS = list(range(10))


def test_first_page_is_full():
    assert page_slice(ITEMS, 1, 3) == [0, 1, 2]


def test_middle_page_is_full():
    assert page_slice(ITEMS, 2, 3) == [3, 4, 5]


def test_partial_last_page():
    assert page_slice(ITEMS, 4, 3) == [9]


def test_page_past_the_end_is_empty():
    assert page_slice(ITEMS, 5, 3) == []


@pytest.mark.parametrize("count,per_page,expected", [(10, 3, 4), (9, 3, 3), (0, 3, 0), (1, 1, 1), (1, 50, 1)])
def test_total_pages(count, per_page, expected):
    assert total_pages(count, per_page) == expected


@pytest.mark.parametrize("count", range(0, 23))
@pytest.mark.parametrize("per_page", [1, 2, 3, 7, 10])
def test_pages_cover_every_item_once(count, per_page):
    items = list(range(count))
    pages = total_pages(count, per_page)
    joined = [x for p in range(1, pages + 1) for x in page_slice(items, p, per_page)]
    assert joined == items


def test_response_for_last_partial_page():
    r = paginate_response(ITEMS, page=4, per_page=3)
    assert r["items"] == [9]
    assert r["total_pages"] == 4
    assert r["has_next"] is False
    assert r["has_prev"] is True


def test_response_offers_the_partial_page():
    r = paginate_response(ITEMS, page=3, per_page=3)
    assert r["items"] == [6, 7, 8]
    assert r["has_next"] is True


@pytest.mark.parametrize("page,per_page", [(0, 3), (-1, 3), (1, 0)])
def test_invalid_arguments_raise(page, per_page):
    with pytest.raises(ValueError):
        page_slice(ITEMS, page, per_page)
