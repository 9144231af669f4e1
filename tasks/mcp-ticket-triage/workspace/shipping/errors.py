"""Errors a quote can end in. All are ValueErrors, so callers may catch either."""


class UnknownZoneError(ValueError):
    """The zone code is not one we ship to."""


class InvalidParcelError(ValueError):
    """The parcel's weight or dimensions are not usable."""


class FreightError(ValueError):
    """The parcel is too heavy to be a parcel: it would have to go as freight."""
