import unittest

from shipping.quote import quote


class QuoteTest(unittest.TestCase):
    def test_light_parcel_eu(self):
        self.assertEqual(quote("EU", 300).price_cents, 890)

    def test_free_shipping(self):
        self.assertTrue(quote("DOMESTIC", 1200, 15000).free)
        self.assertFalse(quote("UK", 1200, 15000).free)

    def test_unknown_zone(self):
        with self.assertRaises(ValueError):
            quote("MARS", 100)
