import unittest

from billing.core.lines import Line
from billing.core.tax import line_tax, rate_for, tax_cents


class TaxTest(unittest.TestCase):
    def test_rates(self):
        self.assertEqual(str(rate_for("standard")), "0.24")
        self.assertEqual(str(rate_for("books")), "0.10")
        with self.assertRaises(ValueError):
            rate_for("luxury")

    def test_tax(self):
        self.assertEqual(tax_cents(1000, "standard"), 240)
        self.assertEqual(line_tax(Line("Manual", 1, 1990, "books")), 199)
