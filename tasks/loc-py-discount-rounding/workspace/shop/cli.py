"""Price a cart from the command line: python3 -m shop.cli SKU[:QTY]... [--coupon CODE] [--tier T]"""
import argparse
import os

from .cart import Cart
from .checkout import compute_totals
from .customers import Customer
from .receipt import render
from .storage import load_catalog

DEFAULT_CATALOG = os.path.join(os.path.dirname(__file__), "..", "data", "catalog.json")


def main(argv=None):
    ap = argparse.ArgumentParser(prog="shop")
    ap.add_argument("items", nargs="+", help="SKU or SKU:QTY")
    ap.add_argument("--coupon", action="append", default=[])
    ap.add_argument("--tier", default="none")
    ap.add_argument("--country", default="DE")
    ap.add_argument("--catalog", default=DEFAULT_CATALOG)
    args = ap.parse_args(argv)

    catalog = load_catalog(args.catalog)
    cart = Cart(catalog)
    for item in args.items:
        sku, _, qty = item.partition(":")
        cart.add(sku, int(qty or 1))
    for code in args.coupon:
        cart.apply_coupon(code)
    customer = Customer("cli", "cli@example.invalid", args.tier, args.country)
    print(render(compute_totals(cart, customer), catalog))


if __name__ == "__main__":
    main()
