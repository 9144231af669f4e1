import unittest

from billing.core.credit import credit_note
from billing.core.lines import Line
from billing.render.html import render_html
from billing.render.markdown import render_markdown
from billing.render.text import render_text
from tests.samples import invoice


class RenderTest(unittest.TestCase):
    def test_text_total(self):
        self.assertEqual(render_text(invoice()).splitlines()[-1], "Total: 52.89 EUR")

    def test_text_other_currency(self):
        text = render_text(invoice(currency="JPY", lines=[Line("Tea", 3, 1500)]))
        self.assertEqual(text.splitlines()[0], "Invoice INV-2024-0001 (JPY)")
        self.assertEqual(text.splitlines()[-1], "Total: 5,580 JPY")

    def test_credit_note(self):
        note = credit_note(invoice(), "CR-2024-0001")
        self.assertEqual(render_text(note).splitlines()[-1], "Total: -52.89 EUR")
        self.assertIn("<td>-€52.89</td>", render_html(note))

    def test_html_total(self):
        self.assertIn("<td>€52.89</td>", render_html(invoice()))

    def test_markdown(self):
        self.assertIn("| **Total** | | | **52.89** |", render_markdown(invoice()))
