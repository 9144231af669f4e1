import unittest

from shipping.parcel import Parcel
from shipping.quote import quote
from shipping.reports.daily import render, summarize
from shipping.reports.margins import margin_cents
from shipping.tables import price_table_markdown


class ReportTest(unittest.TestCase):
    def test_margin(self):
        p = Parcel(1500, 20, 15, 10)
        self.assertEqual(margin_cents(quote("DOMESTIC", p), p), 590 - 420)

    def test_daily(self):
        p = Parcel(300, 15, 10, 5)
        summary = summarize([(quote("EU", p), p), (quote("EU", p), p)])
        self.assertEqual(summary["EU"]["parcels"], 2)
        self.assertIn("EU: 2 parcels, revenue 17.80 EUR", render(summary))

    def test_price_table_matches_docs(self):
        with open("docs/pricing.md", encoding="utf-8") as f:
            self.assertIn(price_table_markdown(), f.read())
