import unittest

from shop.cart import Cart
from shop.catalog import Catalog, Product
from shop.checkout import compute_totals


def catalog():
    return Catalog([Product("A", "A", 1000), Product("B", "B", 250, "reduced")])


class CartTest(unittest.TestCase):
    def test_add_merges_lines(self):
        cart = Cart(catalog())
        cart.add("A")
        cart.add("A", 2)
        self.assertEqual(cart.lines[0].quantity, 3)

    def test_totals_without_discounts(self):
        cart = Cart(catalog())
        cart.add("A", 2)
        cart.add("B", 1)
        t = compute_totals(cart)
        self.assertEqual(t.subtotal, 2250)
        self.assertEqual(t.tax, 380 + 18)
        self.assertEqual(t.shipping, 490)


if __name__ == "__main__":
    unittest.main()
