"""Loading the catalog from the JSON export the back office produces."""
import json

from .catalog import Catalog, Product
from .money import to_cents


def load_catalog(path):
    with open(path, encoding="utf-8") as fh:
        raw = json.load(fh)
    products = []
    for item in raw["products"]:
        products.append(
            Product(
                sku=item["sku"],
                name=item["name"],
                price_cents=to_cents(item["price"]),
                tax_class=item.get("tax_class", "standard"),
                tags=frozenset(item.get("tags", [])),
            )
        )
    return Catalog(products)
