import unittest

from textkit import truncate, truncate_utf8
from textkit.width import display_width


class BasicTest(unittest.TestCase):
    def test_ascii(self):
        self.assertEqual(truncate("hello world", 8), "hello w\u2026")
        self.assertEqual(truncate("hello", 5), "hello")
        self.assertEqual(truncate_utf8("hello", 3), "hel")

    def test_width(self):
        self.assertEqual(display_width("ab\u4e2d"), 4)


if __name__ == "__main__":
    unittest.main()
