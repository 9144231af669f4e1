"""python3 -m reports.cli TENANT YYYY-MM [--currency C] [--refunds]"""
import argparse
import datetime

from .sales import sales_summary
from .tenants import reporting_currency


def month_bounds(text):
    year, month = map(int, text.split("-"))
    start = datetime.date(year, month, 1)
    end = datetime.date(year + (month == 12), month % 12 + 1, 1)
    return start, end


def main(argv=None):
    ap = argparse.ArgumentParser(prog="reports")
    ap.add_argument("tenant")
    ap.add_argument("month")
    ap.add_argument("--currency")
    ap.add_argument("--refunds", action="store_true")
    args = ap.parse_args(argv)
    start, end = month_bounds(args.month)
    # The dashboard always shows EUR first, then the tenant's own currency.
    print(sales_summary(args.tenant, start, end, include_refunds=args.refunds))
    currency = args.currency or reporting_currency(args.tenant)
    print(sales_summary(args.tenant, start, end, currency=currency, include_refunds=args.refunds))


if __name__ == "__main__":
    main()
