"""Resolving the layers into Settings."""
import os

from .defaults import DEFAULTS
from .env_layer import env_overrides
from .file_layer import file_values
from .merge import deep_merge
from .settings import build_settings


def resolve(path=None, environ=None):
    """The merged raw values (strings for durations), before typing."""
    environ = os.environ if environ is None else environ
    merged = deep_merge(DEFAULTS, file_values(path, DEFAULTS))
    merged = deep_merge(merged, env_overrides(environ, DEFAULTS))
    return merged


def load_config(path=None, environ=None):
    return build_settings(resolve(path, environ))
