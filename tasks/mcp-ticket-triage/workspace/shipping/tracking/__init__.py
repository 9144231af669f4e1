"""Tracking events from the carriers' webhooks, reduced to one status per parcel."""
