#!/bin/bash
# Builds workspace/shop.bundle deterministically (fixed dates/identities => fixed hashes,
# which the hidden tests pin). Run from this task folder: bash generate.sh
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cd "$tmp"; git init -q -b main shop; cd shop
export GIT_AUTHOR_NAME="Mika Laine" GIT_AUTHOR_EMAIL="mika@shop.example" GIT_COMMITTER_NAME="Mika Laine" GIT_COMMITTER_EMAIL="mika@shop.example"
n=0
commit() { n=$((n+1)); export GIT_AUTHOR_DATE="2024-05-$(printf %02d $n)T09:00:00Z" GIT_COMMITTER_DATE="2024-05-$(printf %02d $n)T09:00:00Z"; git add -A; git commit -q -m "$1"; }
mkdir -p invoicing tests
cat > invoicing/__init__.py <<'EOF'
"""Invoice tools for the shop: money formatting, invoice lines, totals."""
__version__ = "0.4.0"
EOF
cat > invoicing/money.py <<'EOF'
"""Amounts are integers in minor units (cents); these helpers convert them to text and back."""


def format_amount(cents):
    """Format an amount of cents as text, e.g. 1999 -> "19.99"."""
    units, minor = divmod(cents, 100)
    return f"{units}.{minor:02d}"


def parse_amount(text):
    """Parse "19.99" (or "19") into cents."""
    units, _, minor = text.strip().partition(".")
    return int(units) * 100 + int((minor + "00")[:2])
EOF
cat > invoicing/lines.py <<'EOF'
"""Invoice lines and their totals."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    description: str
    quantity: int
    unit_cents: int

    @property
    def cents(self):
        return self.quantity * self.unit_cents


def total(lines):
    """Sum of all lines, in cents."""
    return sum(line.cents for line in lines)
EOF
touch tests/__init__.py
cat > tests/test_money.py <<'EOF'
import unittest

from invoicing.money import format_amount, parse_amount


class MoneyTest(unittest.TestCase):
    def test_format(self):
        self.assertEqual(format_amount(1999), "19.99")
        self.assertEqual(format_amount(5), "0.05")

    def test_parse(self):
        self.assertEqual(parse_amount("19.99"), 1999)
        self.assertEqual(parse_amount("3"), 300)
EOF
cat > tests/test_lines.py <<'EOF'
import unittest

from invoicing import lines


class LinesTest(unittest.TestCase):
    def test_line_cents(self):
        self.assertEqual(lines.Line("pen", 3, 150).cents, 450)
EOF
cat > CHANGELOG.md <<'EOF'
# Changelog

## Unreleased

## 0.4.0
- Invoice lines with quantities.
EOF
cat > README.md <<'EOF'
# shop invoicing

Run the tests with `python3 -m unittest discover -s tests -t .`
EOF
commit "Invoicing 0.4.0"
git checkout -q -b feature/currency-codes
cat > invoicing/money.py <<'EOF'
"""Amounts are integers in minor units (cents); these helpers convert them to text and back."""

# Digits after the decimal point, per ISO 4217 currency.
CURRENCY_EXPONENT = {"EUR": 2, "USD": 2, "GBP": 2, "JPY": 0, "KWD": 3}


def format_amount(cents, currency="EUR"):
    """Format an amount in minor units with thousands separators, e.g. 123456 -> "1,234.56".

    The number of decimals follows the currency: JPY has none, KWD has three.
    """
    exponent = CURRENCY_EXPONENT[currency]
    units, minor = divmod(cents, 10 ** exponent)
    text = f"{units:,}"
    if exponent:
        text += f".{minor:0{exponent}d}"
    return text


def parse_amount(text):
    """Parse "19.99" (or "19") into cents."""
    units, _, minor = text.strip().partition(".")
    return int(units) * 100 + int((minor + "00")[:2])
EOF
cat >> tests/test_money.py <<'EOF'


class CurrencyTest(unittest.TestCase):
    def test_exponents(self):
        self.assertEqual(format_amount(1999, "JPY"), "1,999")
        self.assertEqual(format_amount(1999, "KWD"), "1.999")

    def test_thousands(self):
        self.assertEqual(format_amount(123456789), "1,234,567.89")
EOF
commit "Format amounts per currency, with thousands separators"
cat > invoicing/render.py <<'EOF'
"""Plain-text invoice rendering."""
from .lines import total
from .money import format_amount


def render_invoice(number, lines, currency="EUR"):
    """Render an invoice as text: one row per line, then the total."""
    rows = [f"Invoice {number} ({currency})"]
    for line in lines:
        rows.append(f"{line.description:<20} {line.quantity:>4} x {format_amount(line.unit_cents, currency):>12}"
                    f" = {format_amount(line.cents, currency):>12}")
    rows.append(f"{'Total':<20} {'':>4}   {'':>12}   {format_amount(total(lines), currency):>12}")
    return "\n".join(rows) + "\n"
EOF
cat > tests/test_render.py <<'EOF'
import unittest

from invoicing.lines import Line
from invoicing.render import render_invoice


class RenderTest(unittest.TestCase):
    def test_total_row(self):
        text = render_invoice("A-1", [Line("pen", 2, 150000)], "EUR")
        self.assertTrue(text.splitlines()[-1].endswith("3,000.00"))
EOF
python3 - <<'EOF'
p = "CHANGELOG.md"; t = open(p).read()
open(p, "w").write(t.replace("## Unreleased\n", "## Unreleased\n- Amounts are formatted per currency (JPY, KWD, ...) with thousands separators.\n- New `render_invoice` for plain-text invoices.\n"))
EOF
commit "Add plain-text invoice rendering"
git checkout -q main
cat > invoicing/money.py <<'EOF'
"""Amounts are integers in minor units (cents); these helpers convert them to text and back."""


def format_amount(cents):
    """Format an amount of cents as text, e.g. 1999 -> "19.99", -150 -> "-1.50"."""
    # divmod floors toward minus infinity: divmod(-150, 100) == (-2, 50), which printed
    # credit notes as "-2.50". Format the magnitude and put the sign in front instead.
    sign = "-" if cents < 0 else ""
    units, minor = divmod(abs(cents), 100)
    return f"{sign}{units}.{minor:02d}"


def parse_amount(text):
    """Parse "19.99", "19" or "-1.50" into cents."""
    text = text.strip()
    sign = -1 if text.startswith("-") else 1
    units, _, minor = text.lstrip("-").partition(".")
    return sign * (int(units) * 100 + int((minor + "00")[:2]))
EOF
cat >> tests/test_money.py <<'EOF'


class NegativeTest(unittest.TestCase):
    def test_credit_notes(self):
        self.assertEqual(format_amount(-150), "-1.50")
        self.assertEqual(format_amount(-5), "-0.05")
        self.assertEqual(parse_amount("-1.50"), -150)
EOF
python3 - <<'EOF'
p = "CHANGELOG.md"; t = open(p).read()
open(p, "w").write(t.replace("## Unreleased\n", "## Unreleased\n- Negative amounts (credit notes) are formatted correctly.\n"))
EOF
commit "Fix formatting of negative amounts (credit notes)"
cat > invoicing/lines.py <<'EOF'
"""Invoice lines and their totals."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    description: str
    quantity: int
    unit_cents: int

    @property
    def cents(self):
        return self.quantity * self.unit_cents


def total_cents(lines):
    """Sum of all lines, in cents. (Was `total`; renamed so callers see the unit.)"""
    return sum(line.cents for line in lines)
EOF
cat >> tests/test_lines.py <<'EOF'

    def test_total_with_credit(self):
        self.assertEqual(lines.total_cents([lines.Line("pen", 3, 150), lines.Line("refund", 1, -200)]), 250)
EOF
commit "Rename total() to total_cents()"
rm -f "$here/workspace/shop.bundle"
git bundle create -q "$here/workspace/shop.bundle" --all
git log --all --format='%H %s' --reverse
