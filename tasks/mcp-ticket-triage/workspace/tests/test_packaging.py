import unittest

from shipping.packaging import fill_ratio, smallest_box, volumetric_weight_g
from shipping.parcel import Parcel


class PackagingTest(unittest.TestCase):
    def test_volumetric_weight(self):
        self.assertEqual(volumetric_weight_g(Parcel(1000, 50, 40, 30)), 12000)

    def test_smallest_box(self):
        self.assertEqual(smallest_box((30, 20, 10))[0], "M")
        self.assertEqual(smallest_box((90, 10, 10))[0], "TUBE")
        self.assertIsNone(smallest_box((200, 10, 10)))

    def test_fill_ratio(self):
        self.assertAlmostEqual(fill_ratio(Parcel(6000, 50, 40, 30)), 0.5)
