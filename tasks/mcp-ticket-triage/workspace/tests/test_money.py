import unittest

from shipping.fx import convert_cents
from shipping.money import format_amount, format_eur
from shipping.rounding import round_half_up


class MoneyTest(unittest.TestCase):
    def test_format(self):
        self.assertEqual(format_eur(1390), "13.90 EUR")
        self.assertEqual(format_amount(-5), "-0.05")

    def test_round_half_up(self):
        self.assertEqual(round_half_up(2.5), 3)
        self.assertEqual(round_half_up(-2.5), -3)

    def test_fx(self):
        self.assertEqual(convert_cents(1000, "SEK"), 11450)
        with self.assertRaises(ValueError):
            convert_cents(1000, "USD")
