import unittest
from decimal import Decimal

from billing.fx import DEFAULT_RATES, RateTable, UnknownRate, convert
from billing.fx.quote import quote
from billing.money import format_money


class ConvertTest(unittest.TestCase):
    def test_convert(self):
        self.assertEqual(convert(1000, "EUR", "JPY"), 1625)
        self.assertEqual(convert(10000, "EUR", "USD"), 10800)
        self.assertEqual(convert(2000, "EUR", "KWD"), 6650)

    def test_inverse_rate(self):
        table = RateTable({("EUR", "USD"): "1.25"})
        self.assertEqual(table.rate("USD", "EUR"), Decimal("0.8"))
        self.assertEqual(convert(1000, "USD", "EUR", table), 800)
        with self.assertRaises(UnknownRate):
            table.rate("EUR", "JPY")

    def test_halves_round_up(self):
        self.assertEqual(convert(100, "EUR", "KWD"), 333)
        self.assertEqual(convert(-100, "EUR", "KWD"), -333)

    def test_same_currency(self):
        self.assertEqual(convert(1234, "GBP", "GBP", DEFAULT_RATES), 1234)


class QuoteTest(unittest.TestCase):
    def test_quote(self):
        self.assertEqual(quote(1000, "EUR", "JPY"), "10.00 EUR = 1,625 JPY")

    def test_quote_uses_money_formatting(self):
        self.assertTrue(quote(123456, "EUR", "USD").endswith(format_money(133332, currency="USD") + " USD"))

