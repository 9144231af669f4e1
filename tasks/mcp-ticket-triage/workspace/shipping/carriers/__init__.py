"""Our carriers' contract tariffs: what each charges us per parcel (not customer prices)."""
