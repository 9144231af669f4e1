import unittest

from shipping.parcel import Parcel, parse_dims


class ParcelTest(unittest.TestCase):
    def test_volume_and_longest_side(self):
        p = Parcel(1000, 40, 30, 20)
        self.assertEqual(p.volume_cm3, 24000)
        self.assertEqual(p.longest_side_cm, 40)

    def test_invalid(self):
        for args in ((0, 10, 10, 10), (100, 0, 10, 10), (100, 10, 10, 200), (1.5, 10, 10, 10), (True, 1, 1, 1)):
            with self.assertRaises(ValueError):
                Parcel(*args)

    def test_parse_dims(self):
        self.assertEqual(parse_dims("40x30x20"), (40, 30, 20))
        self.assertEqual(parse_dims("40 X 30 x 20"), (40, 30, 20))
        with self.assertRaises(ValueError):
            parse_dims("40x30")
