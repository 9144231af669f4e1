import unittest

from reports.cache.store import TTLStore


class StoreTest(unittest.TestCase):
    def test_ttl_expiry(self):
        now = [0.0]
        s = TTLStore(ttl_s=10, clock=lambda: now[0])
        s.put("k", 1)
        self.assertEqual(s.get("k"), (1, True))
        now[0] = 11
        self.assertEqual(s.get("k"), (None, False))

    def test_lru_bound(self):
        s = TTLStore(max_entries=2)
        s.put("a", 1); s.put("b", 2); s.get("a"); s.put("c", 3)
        self.assertEqual(s.get("b"), (None, False))
        self.assertEqual(s.get("a"), (1, True))


if __name__ == "__main__":
    unittest.main()
