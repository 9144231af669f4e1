import contextlib
import io
import unittest

from shipping.cli import main


class CliTest(unittest.TestCase):
    def run_cli(self, *args):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = main(list(args))
        return code, out.getvalue().splitlines()

    def test_quote(self):
        code, lines = self.run_cli("EU", "1500", "20x15x10")
        self.assertEqual(code, 0)
        self.assertIn("price: 13.90 EUR", lines)

    def test_free(self):
        _, lines = self.run_cli("DOMESTIC", "1500", "20x15x10", "--value", "12000")
        self.assertIn("price: 0.00 EUR (free shipping)", lines)
