"""Known tenants and their reporting defaults."""
TENANTS = {
    "acme": {"name": "ACME Corp", "currency": "USD"},
    "globex": {"name": "Globex", "currency": "EUR"},
}


def reporting_currency(tenant):
    try:
        return TENANTS[tenant]["currency"]
    except KeyError:
        raise ValueError(f"unknown tenant {tenant!r}") from None
