"""The TOML configuration file (relay.toml)."""
import tomllib

from .errors import ConfigError


def file_values(path, defaults):
    """The sections and keys set in the file. Unknown sections or keys are errors."""
    if path is None:
        return {}
    try:
        with open(path, "rb") as fh:
            data = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path}: config file not found") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: {exc}") from None
    for section, values in data.items():
        if section not in defaults:
            raise ConfigError(f"{path}: unknown section [{section}]")
        if not isinstance(values, dict):
            raise ConfigError(f"{path}: [{section}] must be a table")
        for key in values:
            if key not in defaults[section]:
                raise ConfigError(f"{path}: unknown key {section}.{key}")
    return data
