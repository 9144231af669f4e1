"""`python3 -m shipping.cli ZONE WEIGHT_G LxWxH [--value CENTS]` prints a quote."""
import argparse
import sys

from .format import quote_lines
from .parcel import Parcel, parse_dims
from .quote import quote


def main(argv=None):
    p = argparse.ArgumentParser(prog="python3 -m shipping.cli", description="Quote a parcel.")
    p.add_argument("zone")
    p.add_argument("weight_g", type=int)
    p.add_argument("dims", help="outer box size in cm, e.g. 40x30x30")
    p.add_argument("--value", type=int, default=0, help="order value in cents")
    args = p.parse_args(sys.argv[1:] if argv is None else argv)
    try:
        q = quote(args.zone, Parcel(args.weight_g, *parse_dims(args.dims)), args.value)
    except ValueError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print("\n".join(quote_lines(q)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
