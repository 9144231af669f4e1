"""What the pool runs and what it records about each run."""
import itertools
from dataclasses import dataclass, field

_ids = itertools.count(1)


@dataclass
class Job:
    fn: object
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    id: int = field(default_factory=lambda: next(_ids))
    tag: str = ""


@dataclass(frozen=True)
class Outcome:
    ok: bool
    value: object = None
    error: BaseException = None

    def unwrap(self):
        if not self.ok:
            raise self.error
        return self.value
