"""fleet: trip analytics. Plugins in fleet.plugins compute one metric each."""
