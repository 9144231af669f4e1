import unittest
from datetime import date

from billing.core.lines import Line
from billing.reports.aging import aging_by_currency
from billing.reports.by_currency import average_by_currency, totals_by_currency, vat_by_currency, vat_tables
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

    def test_vat_tables_rate_in_per_cent(self):
        self.assertEqual(vat_tables(self.invs).splitlines()[-1].split(), ["standard", "24.0%", "12,000", "2,880"])

    def test_average_rounds_half_up(self):
        invs = [invoice(lines=[Line("Pen", 1, 100, "exempt")]), invoice(lines=[Line("Pen", 1, 101, "exempt")])]
        self.assertEqual(average_by_currency(invs), {"EUR": 101})
