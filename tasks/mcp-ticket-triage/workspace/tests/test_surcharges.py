import unittest

from shipping.parcel import Parcel
from shipping.quote import quote
from shipping.surcharges import surcharges_for


class SurchargeTest(unittest.TestCase):
    def test_heavy(self):
        self.assertEqual(surcharges_for(Parcel(25000, 50, 40, 30)), (("heavy", 1500),))

    def test_oversize(self):
        self.assertEqual(surcharges_for(Parcel(3000, 130, 20, 20)), (("oversize", 2500),))

    def test_none(self):
        self.assertEqual(surcharges_for(Parcel(3000, 40, 20, 20)), ())

    def test_free_shipping_keeps_surcharges(self):
        q = quote("EU", Parcel(25000, 50, 40, 30), 20000)
        self.assertTrue(q.free)
        self.assertEqual(q.price_cents, 1500)
