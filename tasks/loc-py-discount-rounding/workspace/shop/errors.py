class ShopError(Exception):
    """Base class for every error the shop raises on purpose."""


class UnknownProduct(ShopError):
    def __init__(self, sku):
        super().__init__(f"unknown product {sku!r}")
        self.sku = sku


class OutOfStock(ShopError):
    def __init__(self, sku, wanted, available):
        super().__init__(f"{sku}: wanted {wanted}, only {available} in stock")
        self.sku = sku


class InvalidCoupon(ShopError):
    def __init__(self, code, reason):
        super().__init__(f"coupon {code!r}: {reason}")
        self.code = code
