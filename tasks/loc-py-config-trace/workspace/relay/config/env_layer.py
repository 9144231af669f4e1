"""Environment overrides: RELAY_<SECTION>__<KEY>=value, e.g. RELAY_DELIVERY__RETRIES=5."""
import logging

from .coerce import CoerceError, coerce
from .errors import ConfigError

PREFIX = "RELAY_"
log = logging.getLogger(__name__)


def parse_name(name):
    """'RELAY_DELIVERY__RETRIES' -> ('delivery', 'retries'); None if it is not an override."""
    if not name.startswith(PREFIX) or "__" not in name:
        return None
    section, _, key = name[len(PREFIX):].partition("__")
    return section.lower(), key.lower()


def env_overrides(environ, defaults):
    """The sections and keys the environment sets, coerced to the defaults' types."""
    out = {}
    for name in sorted(environ):
        parsed = parse_name(name)
        if parsed is None:
            continue
        section, key = parsed
        if section not in defaults or key not in defaults[section]:
            log.warning("ignoring %s: no such setting %s.%s", name, section, key)
            continue
        values = out.setdefault(section, dict(defaults[section]))
        try:
            values[key] = coerce(environ[name], defaults[section][key])
        except CoerceError as exc:
            raise ConfigError(f"{name}: {exc}") from None
    return out
