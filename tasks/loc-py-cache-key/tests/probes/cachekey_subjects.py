"""Functions of every parameter kind, for the hidden tests to ask the workspace's
`call_key` about. They live on the probe's side (the Python probe imports this module from
/nab/probes, as the sandbox user) because a function cannot cross the boundary as a value.
No assertions and no expected values here: those stay in the test runner."""


def kw_only(a, *, mode, level=1):
    return a


def star_args(a, *rest, flag=False):
    return a


def star_kwargs(a, **opts):
    return a


class Unkeyable:
    """An argument value no cache key can be built from (like a bare object())."""
