"""Tenant sales reports for the back office, with a memoizing cache in front of the queries."""
