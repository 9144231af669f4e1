"""`python3 -m shipping.cli ZONE WEIGHT_G [ORDER_VALUE_CENTS]` prints a quote."""
import sys

from .quote import quote


def main(argv=None):
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3):
        print("usage: python3 -m shipping.cli ZONE WEIGHT_G [ORDER_VALUE_CENTS]", file=sys.stderr)
        return 2
    q = quote(args[0], int(args[1]), int(args[2]) if len(args) == 3 else 0)
    print(f"{q.zone} {q.weight_g} g: {q.price_cents / 100:.2f} EUR{' (free)' if q.free else ''}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
