class ConfigError(Exception):
    """A configuration problem; the message names the file or variable at fault."""
