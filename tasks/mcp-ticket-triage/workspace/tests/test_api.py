import unittest

from shipping.api import handle_quote


class ApiTest(unittest.TestCase):
    def test_quote(self):
        status, body = handle_quote({"zone": "EU", "weight_g": 1500, "dims_cm": [20, 15, 10]})
        self.assertEqual(status, 200)
        self.assertEqual(body["price_cents"], 1390)
        self.assertEqual(body["display"], "13.90 EUR")

    def test_display_currency(self):
        _, body = handle_quote({"zone": "UK", "weight_g": 300, "dims_cm": [15, 10, 5], "currency": "GBP"})
        self.assertEqual(body["display"], "8.51 GBP")

    def test_errors_name_the_field(self):
        cases = [({"zone": "EU", "weight_g": "2", "dims_cm": [1, 1, 1]}, "weight_g"),
                 ({"zone": "EU", "weight_g": 200, "dims_cm": [1, 1]}, "dims_cm"),
                 ({"zone": 7, "weight_g": 200, "dims_cm": [1, 1, 1]}, "zone"),
                 ({"zone": "MARS", "weight_g": 200, "dims_cm": [1, 1, 1]}, "zone"),
                 ({"zone": "EU", "weight_g": 40000, "dims_cm": [1, 1, 1]}, "weight_g")]
        for payload, field in cases:
            status, body = handle_quote(payload)
            self.assertEqual((status, body["field"]), (400, field), payload)
