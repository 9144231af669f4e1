import unittest

from shipping.tracking.events import Event, normalize
from shipping.tracking.status import current_status


class TrackingTest(unittest.TestCase):
    def test_normalize(self):
        self.assertEqual(normalize("DPD", {"id": "1", "ts": "2024-04-01T10:00:00Z", "code": "05"}).kind, "delivered")
        with self.assertRaises(ValueError):
            normalize("DPD", {"id": "1", "ts": "x", "code": "77"})

    def test_final_status_sticks(self):
        events = [Event("1", "2024-04-01T09:00:00Z", "in_transit"), Event("1", "2024-04-01T12:00:00Z", "delivered"),
                  Event("1", "2024-04-01T13:00:00Z", "in_transit")]
        self.assertEqual(current_status(events), "delivered")
        self.assertEqual(current_status([]), "label_created")
