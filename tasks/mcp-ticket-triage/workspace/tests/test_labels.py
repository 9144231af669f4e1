import unittest

from shipping.labels.address import Address, address_lines
from shipping.labels.label import render_label


class LabelTest(unittest.TestCase):
    def test_postcode_order(self):
        de = Address("A", "Hauptstr. 1", "10115", "Berlin", "DE")
        gb = Address("B", "1 High St", "SW1A 1AA", "London", "GB")
        self.assertEqual(address_lines(de)[2], "10115 Berlin")
        self.assertEqual(address_lines(gb)[2], "London SW1A 1AA")

    def test_label(self):
        text = render_label(Address("A", "Rue 2", "75001", "Paris", "FR"), "DPD", "09123", 2100)
        self.assertIn("FRANCE", text)
        self.assertIn("DPD  2.1 kg", text)
