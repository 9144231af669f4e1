import unittest

from shipping.parcel import Parcel
from shipping.quote import quote


def small(weight_g):
    return Parcel(weight_g, 15, 10, 5)


class QuoteTest(unittest.TestCase):
    def test_light_parcel_eu(self):
        self.assertEqual(quote("EU", small(300)).price_cents, 890)

    def test_mid_band(self):
        self.assertEqual(quote("UK", small(3500)).price_cents, 2190)
        self.assertEqual(quote("WORLD", small(7000)).price_cents, 6990)

    def test_free_shipping_waives_band_price(self):
        q = quote("DOMESTIC", small(1200), 15000)
        self.assertTrue(q.free)
        self.assertEqual(q.price_cents, 0)
        self.assertFalse(quote("UK", small(1200), 15000).free)

    def test_unknown_zone(self):
        with self.assertRaises(ValueError):
            quote("MARS", small(100))

    def test_freight_refused(self):
        with self.assertRaises(ValueError):
            quote("EU", small(32000))
