import unittest

from jobq import WorkerPool
from jobq.batch import run_batch


class PoolTest(unittest.TestCase):
    def test_results(self):
        with WorkerPool(3) as pool:
            ids = [pool.submit(pow, n, 2) for n in range(10)]
            pool.wait()
            self.assertEqual([pool.store.get(i).value for i in ids], [n * n for n in range(10)])

    def test_failures_are_recorded(self):
        out = run_batch(lambda x: 1 // x, [1, 0, 2], workers=2)
        self.assertEqual(out[0], (True, 1))
        self.assertFalse(out[1][0])


if __name__ == "__main__":
    unittest.main()
