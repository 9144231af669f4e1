"""Hidden checks of the memoization fix. The reports package runs in the Python probe as the
sandbox user (conftest.py); the expected figures and keys' equalities are decided here."""
from decimal import Decimal

import pytest

import nabverify
from cachekey_subjects import Unkeyable, kw_only, star_args, star_kwargs
from reports import data
from reports.cache import default_store
from reports.cache.keys import call_key
from reports.export import export_rows
from reports.sales import sales_summary, top_products

# Dates are made in the probe: a value of the runner that is not plain data cannot cross.
_remote_date = nabverify.python(paths=["/nab/probes", "/workspace"]).import_module("datetime").date
MAY = (_remote_date(2024, 5, 1), _remote_date(2024, 6, 1))


def queries():
    """Warehouse queries so far (reports.data's counter, read as a value)."""
    n = data.QUERY_COUNT["n"]
    assert type(n) is int
    return n - _base[0]


_base = [0]


def key(*args):
    k = call_key(*args)
    # A cache key is data (the workspace's keys are strings): never an object of the code's
    # own that could decide how it compares.
    assert type(k) in (str, bytes, int, tuple, frozenset), f"call_key gave a {type(k).__name__}"
    return k


@pytest.fixture(autouse=True)
def fresh_cache():
    default_store.invalidate()
    _base[0] = data.QUERY_COUNT["n"]
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
    assert queries() == 1


def test_explicit_defaults_share_the_key():
    sales_summary("acme", *MAY)
    sales_summary("acme", *MAY, currency="EUR")
    sales_summary("acme", *MAY, include_refunds=False, currency="EUR")
    assert queries() == 1
    top_products("acme", *MAY)
    top_products("acme", *MAY, limit=3)
    top_products("acme", *MAY, 3)
    assert queries() == 2


def test_positional_and_keyword_share_the_key():
    top_products("globex", *MAY, 1)
    top_products(tenant="globex", start=MAY[0], end=MAY[1], limit=1)
    assert queries() == 1
    assert top_products("globex", *MAY, limit=2) == [("widget", 7), ("gadget", 4)]
    assert queries() == 2


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
    assert queries() == 4


def test_keys_for_every_parameter_kind():
    ns = "t"
    assert key(ns, kw_only, (1,), {"mode": "x"}) != key(ns, kw_only, (1,), {"mode": "y"})
    assert key(ns, kw_only, (1,), {"mode": "x"}) == key(ns, kw_only, (), {"a": 1, "mode": "x", "level": 1})
    assert key(ns, kw_only, (1,), {"mode": "x", "level": 2}) != key(ns, kw_only, (1,), {"mode": "x"})
    assert key(ns, star_args, (1, 2, 3), {}) != key(ns, star_args, (1, 2), {})
    assert key(ns, star_args, (1, 2), {}) != key(ns, star_args, (1, 2), {"flag": True})
    assert key(ns, star_kwargs, (1,), {"x": 1}) != key(ns, star_kwargs, (1,), {"x": 2})
    assert key(ns, star_kwargs, (1,), {"x": 1}) != key(ns, star_kwargs, (1,), {})
    assert key(ns, star_kwargs, (1,), {"x": 1, "y": 2}) == key(ns, star_kwargs, (1,), {"y": 2, "x": 1})


def test_namespace_and_function_separate_keys():
    assert key("a", kw_only, (1,), {"mode": "x"}) != key("b", kw_only, (1,), {"mode": "x"})
    assert key("a", star_args, (1,), {}) != key("a", star_kwargs, (1,), {})


CASES = {
    "positional": lambda o: (star_kwargs, (o,), {}),
    "keyword-only": lambda o: (kw_only, (1,), {"mode": o}),
    "var-positional": lambda o: (star_args, (1, o), {}),
    "var-keyword": lambda o: (star_kwargs, (1,), {"x": o}),
    "nested": lambda o: (star_kwargs, (1,), {"x": [1, {"y": o}]}),
}


@pytest.mark.parametrize("case", list(CASES))
def test_unkeyable_argument_is_still_refused(case):
    func, args, kwargs = CASES[case](Unkeyable())  # an object of the probe, made there
    with pytest.raises(TypeError):
        call_key("t", func, args, kwargs)
