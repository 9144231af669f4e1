"""Customer statements: a customer's invoices and payments, with a balance per currency."""
from .. import money
from ..core.dates import iso
from ..payments.ledger import currency_of
from .layout import columns

STATEMENT_WIDTHS = (12, 16, 16, 4)


def statement(customer, invoices, payments=(), as_of=None):
    head = f"Statement for {customer}" + (f" as of {iso(as_of)}" if as_of else "")
    rows = [head]
    balances = {}
    for inv in sorted(invoices, key=lambda i: (i.issued, i.number)):
        if inv.customer != customer:
            continue
        amount = inv.total_cents
        balances[inv.currency] = balances.get(inv.currency, 0) + amount
        rows.append(columns(iso(inv.issued), inv.number, money.format_money(amount, currency=inv.currency), inv.currency,
                            widths=STATEMENT_WIDTHS))
    for pay in sorted(payments, key=lambda p: p.date):
        if pay.customer != customer:
            continue
        # main: a payment without a currency is in the currency of the invoice it pays
        cur = currency_of(pay, invoices)
        balances[cur] = balances.get(cur, 0) - pay.cents
        rows.append(columns(iso(pay.date), "payment", money.format_money(-pay.cents, currency=cur), cur,
                            widths=STATEMENT_WIDTHS))
    for cur in sorted(balances):
        rows.append(balance_line(balances[cur], cur))
    return "\n".join(rows) + "\n"


def balance_line(cents, currency):
    if cents > 0:
        return f"Balance due ({currency}): {money.format_money(cents, currency=currency)}"
    if cents < 0:
        return f"In credit ({currency}): {money.format_money(-cents, currency=currency)}"
    return f"Settled ({currency})"
