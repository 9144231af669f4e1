import pytest

from pager import paginate_response


def test_rejects_page_zero():
    with pytest.raises(ValueError):
        paginate_response([1, 2, 3], page=0, per_page=2)


def test_envelope_fields():
    r = paginate_response([], page=1, per_page=5)
    assert r["items"] == []
    assert r["has_prev"] is False
