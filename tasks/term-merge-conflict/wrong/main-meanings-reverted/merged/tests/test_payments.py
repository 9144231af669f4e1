import unittest
from datetime import date

from billing.payments.ledger import Payment, currency_of, open_amount, open_invoices
from billing.payments.reminders import overdue, reminder_text
from tests.samples import invoice


class PaymentsTest(unittest.TestCase):
    def test_open(self):
        inv = invoice()
        pay = [Payment("acme", date(2024, 3, 10), 2000, invoice=inv.number)]
        self.assertEqual(open_amount(inv, pay), 3289)
        self.assertEqual(open_invoices([inv], [Payment("acme", date(2024, 3, 10), 5289, invoice=inv.number)]), [])

    def test_payment_in_the_invoice_currency(self):
        inv = invoice(currency="USD")
        pay = Payment("acme", date(2024, 3, 10), 5289, "USD", inv.number)
        self.assertEqual(currency_of(pay, [inv]), "USD")
        self.assertEqual(open_amount(inv, [pay]), 0)
        self.assertEqual(open_amount(inv, [Payment("acme", date(2024, 3, 10), 5289, "EUR", inv.number)]), 5289)

    def test_reminder(self):
        inv = invoice()
        self.assertEqual(overdue([inv], [], date(2024, 3, 20)), [])
        self.assertEqual(overdue([inv], [], date(2024, 3, 25)), [inv])
        self.assertIn("Amount still open: €52.89.", reminder_text(inv, [], date(2024, 3, 25)))
