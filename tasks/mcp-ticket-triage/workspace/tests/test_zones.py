import unittest

from shipping.zones import normalize_zone, zone_for_country


class ZoneTest(unittest.TestCase):
    def test_storefront_codes(self):
        self.assertEqual(normalize_zone(" eu"), "EU")
        self.assertEqual(normalize_zone("Domestic"), "DOMESTIC")

    def test_unknown(self):
        for bad in ("MARS", "", "  ", None):
            with self.assertRaises(ValueError):
                normalize_zone(bad)

    def test_countries(self):
        self.assertEqual(zone_for_country("fr"), "EU")
        self.assertEqual(zone_for_country("NO"), "NORDIC")
        self.assertEqual(zone_for_country("US"), "WORLD")
