import json
import unittest

from billing.io.json_export import export_json
from tests.samples import invoice


class JsonTest(unittest.TestCase):
    def test_export(self):
        [doc] = json.loads(export_json([invoice()]))
        self.assertEqual((doc["total_cents"], doc["total_text"]), (5289, "52.89"))
        self.assertEqual(doc["amounts"], {"net": "44.90", "tax": "7.99", "total": "52.89"})
