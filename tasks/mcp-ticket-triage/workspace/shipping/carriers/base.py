"""A carrier contract: tariff steps written the way the contracts write them."""
from dataclasses import dataclass


@dataclass(frozen=True)
class Carrier:
    name: str
    zones: tuple
    # (under grams, cents): contracts say "under 2 kg", so exactly 2000 g is the next step.
    steps: tuple
    max_weight_g: int = 31500

    def tariff_cents(self, weight_g):
        if weight_g > self.max_weight_g:
            raise ValueError(f"{self.name} does not take {weight_g} g")
        for under_g, cents in self.steps:
            if weight_g < under_g:
                return cents
        return self.steps[-1][1]
