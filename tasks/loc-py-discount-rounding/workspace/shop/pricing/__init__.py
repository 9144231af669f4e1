"""Everything that turns a cart into amounts: discounts, coupons, tax, shipping."""
