"""Configuration, resolved in layers: built-in defaults, then the TOML file, then the environment.

A later layer overrides an earlier one key by key; a key a layer does not mention keeps the
value from the layer below.
"""
from .loader import load_config

__all__ = ["load_config"]
