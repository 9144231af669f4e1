import datetime
import os
from decimal import Decimal

import pytest

from reports import data
from reports.cache import default_store
from reports.cache.keys import call_key
from reports.export import export_rows
from reports.sales import sales_summary, top_products

MAY = (datetime.date(2024, 5, 1), datetime.date(2024, 6, 1))


@pytest.fixture(autouse=True)
def fresh_cache():
    default_store.invalidate()
    data.QUERY_COUNT["n"] = 0
    yield
    default_store.invalidate()


def test_currency_is_part_of_the_identity():
    eur = sales_summary("acme", *MAY)
    usd = sales_summary("acme", *MAY, currency="USD")
    gbp = sales_summary("acme", *MAY, currency="GBP")
    assert eur["currency"] == "EUR" and eur["revenue"] == Decimal("595.48")
    assert usd["currency"] == "USD" and usd["revenue"] == Decimal("646.10")
    assert gbp["currency"] == "GBP" and gbp["revenue"] == Decimal("507.94")


def test_refund_flag_is_part_of_the_identity():
    without = sales_summary("globex", *MAY)
    with_refunds = sales_summary("globex", *MAY, include_refunds=True)
    assert without["units"] == 11 and with_refunds["units"] == 12
    assert with_refunds["revenue"] == Decimal("899.06")


def test_repeated_calls_still_hit():
    sales_summary("acme", *MAY, currency="USD")
    sales_summary("acme", *MAY, currency="USD")
    sales_summary("acme", MAY[0], MAY[1], currency="USD")
    assert data.QUERY_COUNT["n"] == 1


def test_explicit_defaults_share_the_key():
    sales_summary("acme", *MAY)
    sales_summary("acme", *MAY, currency="EUR")
    sales_summary("acme", *MAY, include_refunds=False, currency="EUR")
    assert data.QUERY_COUNT["n"] == 1
    top_products("acme", *MAY)
    top_products("acme", *MAY, limit=3)
    top_products("acme", *MAY, 3)
    assert data.QUERY_COUNT["n"] == 2


def test_positional_and_keyword_share_the_key():
    top_products("globex", *MAY, 1)
    top_products(tenant="globex", start=MAY[0], end=MAY[1], limit=1)
    assert data.QUERY_COUNT["n"] == 1
    assert top_products("globex", *MAY, limit=2) == [("widget", 7), ("gadget", 4)]
    assert data.QUERY_COUNT["n"] == 2


def test_var_keyword_options_are_part_of_the_identity():
    plain = export_rows("globex", *MAY)
    semi = export_rows("globex", *MAY, separator=";")
    bare = export_rows("globex", *MAY, separator=";", header=False)
    usd = export_rows("globex", *MAY, currency="USD")
    assert plain.splitlines()[0] == "day,product,quantity,amount,refunded"
    assert semi.splitlines()[0] == "day;product;quantity;amount;refunded"
    assert bare.splitlines()[0] == "2024-05-04;widget;7;84.00;false"
    assert usd.splitlines()[1] == "2024-05-04,widget,7,91.14,false"
    again = export_rows("globex", *MAY, header=False, separator=";")
    assert again == bare
    assert data.QUERY_COUNT["n"] == 4


def kw_only(a, *, mode, level=1):
    return a


def star_args(a, *rest, flag=False):
    return a


def star_kwargs(a, **opts):
    return a


def test_keys_for_every_parameter_kind():
    ns = "t"
    assert call_key(ns, kw_only, (1,), {"mode": "x"}) != call_key(ns, kw_only, (1,), {"mode": "y"})
    assert call_key(ns, kw_only, (1,), {"mode": "x"}) == call_key(ns, kw_only, (), {"a": 1, "mode": "x", "level": 1})
    assert call_key(ns, kw_only, (1,), {"mode": "x", "level": 2}) != call_key(ns, kw_only, (1,), {"mode": "x"})
    assert call_key(ns, star_args, (1, 2, 3), {}) != call_key(ns, star_args, (1, 2), {})
    assert call_key(ns, star_args, (1, 2), {}) != call_key(ns, star_args, (1, 2), {"flag": True})
    assert call_key(ns, star_kwargs, (1,), {"x": 1}) != call_key(ns, star_kwargs, (1,), {"x": 2})
    assert call_key(ns, star_kwargs, (1,), {"x": 1}) != call_key(ns, star_kwargs, (1,), {})
    assert call_key(ns, star_kwargs, (1,), {"x": 1, "y": 2}) == call_key(ns, star_kwargs, (1,), {"y": 2, "x": 1})


def test_namespace_and_function_separate_keys():
    assert call_key("a", kw_only, (1,), {"mode": "x"}) != call_key("b", kw_only, (1,), {"mode": "x"})
    assert call_key("a", star_args, (1,), {}) != call_key("a", star_kwargs, (1,), {})


@pytest.mark.parametrize("func,args,kwargs", [
    (star_kwargs, (object(),), {}),
    (kw_only, (1,), {"mode": object()}),
    (star_args, (1, object()), {}),
    (star_kwargs, (1,), {"x": object()}),
    (star_kwargs, (1,), {"x": [1, {"y": object()}]}),
], ids=["positional", "keyword-only", "var-positional", "var-keyword", "nested"])
def test_unkeyable_argument_is_still_refused(func, args, kwargs):
    with pytest.raises(TypeError):
        call_key("t", func, args, kwargs)
