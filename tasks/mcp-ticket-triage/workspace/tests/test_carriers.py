import unittest

from shipping.carriers.dhl import DHL
from shipping.carriers.dimensional import dpd_billed_weight_g
from shipping.carriers.registry import carriers_for, default_carrier
from shipping.parcel import Parcel


class CarrierTest(unittest.TestCase):
    def test_contract_steps_are_under(self):
        self.assertEqual(DHL.tariff_cents(1999), 420)
        self.assertEqual(DHL.tariff_cents(2000), 560)

    def test_registry(self):
        self.assertEqual(default_carrier("EU").name, "DPD")
        self.assertEqual([c.name for c in carriers_for("DOMESTIC")], ["DHL", "Hermes"])

    def test_dpd_dimensional(self):
        self.assertEqual(dpd_billed_weight_g(Parcel(1000, 41, 29, 17)), 4500)
        self.assertEqual(dpd_billed_weight_g(Parcel(9000, 20, 20, 20)), 9000)
