"""Reports for finance."""
