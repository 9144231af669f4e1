import unittest

from billing.money import format_money, parse_amount


class FormatTest(unittest.TestCase):
    def test_format(self):
        self.assertEqual(format_money(1999, currency="EUR"), "19.99")
        self.assertEqual(format_money(5, currency="EUR"), "0.05")

    def test_symbol(self):
        self.assertEqual(format_money(1999, currency="USD", symbol=True), "$19.99")


class SignatureTest(unittest.TestCase):
    def test_currency_is_required_and_keyword_only(self):
        with self.assertRaises(TypeError):
            format_money(1999)
        with self.assertRaises(TypeError):
            format_money(1999, "EUR")


class ParseTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(parse_amount("19.99"), 1999)
        self.assertEqual(parse_amount("3"), 300)


class NegativeTest(unittest.TestCase):
    def test_credit_notes(self):
        self.assertEqual(format_money(-150, currency="EUR"), "-1.50")
        self.assertEqual(format_money(-5, currency="EUR"), "-0.05")
        self.assertEqual(format_money(-150, currency="GBP", symbol=True), "-£1.50")

    def test_parse_negative(self):
        self.assertEqual(parse_amount("-1.50"), -150)
        self.assertEqual(parse_amount("-0.05"), -5)

class CurrencyFormatTest(unittest.TestCase):
    def test_exponents(self):
        self.assertEqual(format_money(1999, currency="JPY"), "1,999")
        self.assertEqual(format_money(1999, currency="KWD"), "1.999")

    def test_thousands(self):
        self.assertEqual(format_money(123456789, currency="EUR"), "1,234,567.89")
        self.assertEqual(format_money(250000, currency="JPY", symbol=True), "¥250,000")

    def test_parse_per_currency(self):
        self.assertEqual(parse_amount("1,500", "JPY"), 1500)
        self.assertEqual(parse_amount("2.5", "KWD"), 2500)


class NegativeOtherCurrencyTest(unittest.TestCase):
    def test_negative_per_currency(self):
        self.assertEqual(format_money(-150, currency="JPY"), "-150")
        self.assertEqual(format_money(-123456789, currency="EUR"), "-1,234,567.89")
        self.assertEqual(format_money(-1, currency="KWD", symbol=True), "-KD 0.001")
        self.assertEqual(parse_amount("-1,500", "JPY"), -1500)
