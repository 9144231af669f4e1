import unittest
from datetime import date

from billing.core.lines import Line
from billing.reports.aging import aging_by_currency
from billing.reports.by_currency import totals_by_currency, vat_by_currency
from tests.samples import invoice


class ByCurrencyTest(unittest.TestCase):
    def setUp(self):
        self.invs = [invoice(), invoice("INV-2024-0002", currency="JPY", lines=[Line("Tea", 10, 1200)]),
                     invoice("INV-2024-0003", issued=date(2024, 1, 5))]

    def test_totals(self):
        self.assertEqual(totals_by_currency(self.invs), {"EUR": 10578, "JPY": 14880})

    def test_aging_per_currency(self):
        result = aging_by_currency(self.invs, date(2024, 3, 20))
        self.assertEqual(result["JPY"]["1-30"], self.invs[1].total_cents)
        self.assertEqual(result["EUR"]["61-90"], 5289)

    def test_vat_per_currency(self):
        self.assertEqual(vat_by_currency(self.invs)["JPY"], {"standard": (12000, 2880)})
