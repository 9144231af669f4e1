import os
import unittest

from relay.config import load_config

HERE = os.path.dirname(os.path.abspath(__file__))
TOML = os.path.join(HERE, "..", "relay.toml")


class ConfigTest(unittest.TestCase):
    def test_defaults(self):
        s = load_config(None, {})
        self.assertEqual(s.server.port, 8080)
        self.assertEqual(s.delivery.timeout_s, 10.0)

    def test_file_layer(self):
        s = load_config(TOML, {})
        self.assertEqual(s.delivery.timeout_s, 45.0)
        self.assertEqual(s.delivery.retries, 3)

    def test_env_layer_alone(self):
        s = load_config(None, {"RELAY_LOG__LEVEL": "debug"})
        self.assertEqual(s.log.level, "debug")


if __name__ == "__main__":
    unittest.main()
