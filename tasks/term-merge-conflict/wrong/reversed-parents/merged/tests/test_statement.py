import unittest
from datetime import date

from billing.core.lines import Line
from billing.payments.ledger import Payment
from billing.render.statement import balance_line, statement
from tests.samples import invoice


class StatementTest(unittest.TestCase):
    def test_two_currencies(self):
        invs = [invoice(), invoice("INV-2024-0002", currency="JPY", lines=[Line("Tea", 10, 1200)]),
                invoice("INV-2024-0003", customer="globex")]
        text = statement("acme", invs, as_of=date(2024, 3, 31))
        rows = text.splitlines()
        self.assertEqual(rows[0], "Statement for acme as of 2024-03-31")
        self.assertEqual(len(rows), 5)
        self.assertEqual(rows[-2], "Balance due (EUR): 52.89")
        self.assertEqual(rows[-1], "Balance due (JPY): 14,880")

    def test_settled(self):
        pay = [Payment("acme", date(2024, 3, 9), 5289, "EUR", "INV-2024-0001")]
        self.assertEqual(statement("acme", [invoice()], pay).splitlines()[-1], "Settled (EUR)")
        self.assertEqual(balance_line(0, "KWD"), "Settled (KWD)")

    def test_payment_in_its_invoice_currency(self):
        invs = [invoice(), invoice("INV-2024-0002", currency="JPY", lines=[Line("Tea", 10, 1200)])]
        pay = [Payment("acme", date(2024, 3, 9), 14880, invoice="INV-2024-0002")]
        rows = statement("acme", invs, pay).splitlines()
        self.assertEqual(rows[3].split(), ["2024-03-09", "payment", "-14,880", "JPY"])
        self.assertEqual(rows[-1], "Settled (JPY)")
