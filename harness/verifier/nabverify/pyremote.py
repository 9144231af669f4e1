"""Python code under test, called from the test runner without ever running in it.

    import nabverify
    pager = nabverify.python().import_module("pager.paginate")
    assert pager.page_slice(list(range(10)), 4, 3) == [9]

or, in a conftest.py, `nabverify.python().install("pager")` and then a plain `import pager`
in the tests. The modules live in a probe (/nab/lib/pyprobe.py) that the broker runs as the
sandbox user; here they are proxies. Calls, attributes, items, iteration, len(), str() and
arithmetic are asked of the probe. What comes back is a value (None, bool, int, float, str,
bytes, list, tuple, dict, set, Decimal, Fraction, complex: exact types only) or a reference
to an object that stays in the probe (a RemoteObject). Exceptions come back as exceptions:
builtin ones as themselves, the workspace's own as classes made here with the same name and
the nearest builtin base, so `pytest.raises(ValueError)` and `pytest.raises(mod.PageError)`
both work.

Comparisons are the one thing never asked of the probe when a value of this process takes
part: `ref == [9]` is True only for the same reference, and `ref < 5` is a TypeError. The
code under test must not decide whether it equals an expected value, or learn that value.
Two references compare in the probe (that is the workspace's own `==` being tested).
Convert first (`list(ref)`, `int(ref)`, `str(ref)`, `ref.field`) and compare values.
"""

import importlib.abc
import importlib.machinery
import builtins
import sys

from . import broker as _broker
from . import wire

PROBE = "/nab/lib/pyprobe.py"


class RemoteError(Exception):
    """Base of the exception classes made here for the workspace's own exceptions."""

    remote_type = "?"


class Session:
    """One probe process and the objects it holds. A probe that ends (the code under test
    exited, hung past the timeout, or crashed) fails the call that saw it; the next call
    starts a fresh probe, and references into the old one fail."""

    def __init__(self, paths=("/workspace",), cwd="/workspace", timeout=60.0, python="python3", env=None):
        self.paths = list(paths)
        self.cwd = cwd
        self.timeout = timeout
        self.python = python
        self.env = env or {}
        self.process = None
        self.generation = 0
        self.next_id = 1
        self.exceptions = {}

    # -- the probe ---------------------------------------------------------------------
    def _probe(self):
        if self.process is None or self.process.dead:
            argv = [self.python, "-I", PROBE]
            for p in self.paths:
                argv += ["--path", p]
            argv += ["--cwd", self.cwd]
            self.process = _broker.default().spawn(argv, cwd=self.cwd, env=self.env)
            self.generation += 1
        return self.process

    def ask(self, req, timeout=None):
        """Sends one request; returns the decoded value, or raises what the code raised."""
        process = self._probe()
        generation = self.generation
        rid = self.next_id
        self.next_id += 1
        req = dict(req, id=rid)
        reply = process.call_json(req, timeout or self.timeout)
        if not isinstance(reply, dict) or reply.get("id") != rid:
            process.dead = "the probe answered out of turn"
            raise _broker.ProbeDied("the probe answered out of turn: %.200r" % (reply,))
        if "error" in reply:
            raise _broker.BrokerError("the probe refused %s: %s" % (req.get("op"), reply["error"]))
        if "exc" in reply:
            raise self._exception(reply["exc"], generation)
        if "ok" not in reply:
            raise _broker.ProbeDied("the probe's answer has no value")
        value = self._decode(reply["ok"], generation)
        if "stdout" in reply:
            return Captured(value, str(reply.get("stdout", "")), str(reply.get("stderr", "")))
        return value

    # -- values --------------------------------------------------------------------------
    def _decode(self, data, generation):
        return wire.decode(data, lambda ref: self._ref(ref, generation))

    def _ref(self, data, generation):
        if "$class" in data and isinstance(data.get("exception"), list):
            return self.exception_class(data["exception"], data["$class"], generation)
        rid = data.get("$class", data.get("$ref"))
        if not isinstance(rid, int):
            raise wire.WireError("a reference without a number")
        return RemoteObject(self, rid, generation, str(data.get("type", "?")), "$class" in data)

    def encode(self, value):
        def ref_of(v):
            if isinstance(v, RemoteObject):
                v._check()
                return {"$ref": v._id}
            if isinstance(v, type) and issubclass(v, RemoteError) and getattr(v, "_nab_session", None) is self:
                if v._nab_generation != self.generation:
                    raise _broker.ProbeDied("%s belongs to a probe that has ended" % v.remote_type)
                return {"$class": v._nab_ref}
            raise TypeError("cannot send a %s of the test runner to the code under test" % type(v).__name__)
        return wire.encode(value, ref_of)

    def exception_class(self, mro, ref=None, generation=None):
        """The class standing here for a remote exception class, from its MRO."""
        mro = [tuple(x) for x in mro if isinstance(x, list) and len(x) == 2]
        if not mro:
            return RemoteError
        module, qualname = mro[0]
        if module == "builtins":
            local = getattr(builtins, qualname, None)
            if isinstance(local, type) and issubclass(local, Exception) or local is SystemExit:
                return local
        key = (module, qualname)
        cls = self.exceptions.get(key)
        if cls is None:
            base = Exception
            for m, q in mro[1:]:
                b = getattr(builtins, q, None) if m == "builtins" else None
                if isinstance(b, type) and issubclass(b, Exception):
                    base = b
                    break
            name = qualname.rsplit(".", 1)[-1]
            try:
                cls = type(name, (RemoteError, base), {"remote_type": "%s.%s" % key, "__module__": module})
            except TypeError:
                cls = type(name, (RemoteError,), {"remote_type": "%s.%s" % key, "__module__": module})
            self.exceptions[key] = cls
        if ref is not None:
            cls._nab_session = self
            cls._nab_ref = ref
            cls._nab_generation = generation
        return cls

    def _exception(self, exc, generation):
        cls_data = exc.get("class") if isinstance(exc, dict) else None
        mro = cls_data.get("exception") if isinstance(cls_data, dict) else None
        cls = self.exception_class(mro or [])
        try:
            args = self._decode(exc.get("args", {"$tuple": []}), generation)
            if not isinstance(args, tuple):
                args = (args,)
        except wire.WireError:
            args = (str(exc.get("message", "")),)
        try:
            e = cls(*args)
        except Exception:
            e = cls(str(exc.get("message", "")))
        tb = str(exc.get("traceback", ""))
        if tb and hasattr(e, "add_note"):
            e.add_note("raised by the code under test:\n" + tb)
        return e

    # -- modules --------------------------------------------------------------------------
    def import_module(self, name):
        return RemoteModule(self, name)

    def install(self, *names):
        """Makes `import NAME` (and its submodules) in this runner give proxies."""
        sys.meta_path.insert(0, _Finder(self, set(names)))
        for n in list(sys.modules):
            if n.split(".")[0] in names:
                del sys.modules[n]

    def close(self):
        if self.process is not None:
            self.process.close()
            self.process = None


class Captured:
    """A value with what the call printed (`capture=True`)."""

    def __init__(self, value, stdout, stderr):
        self.value, self.stdout, self.stderr = value, stdout, stderr


def _side(op_name, reflected=False):
    def method(self, other):
        self._check()
        if not isinstance(other, RemoteObject) and op_name in ("lt", "le", "gt", "ge"):
            raise TypeError("a %s of the code under test is compared only with another; convert it "
                            "(int(x), str(x), list(x)) and compare values" % self._type)
        args = [other, self] if reflected else [self, other]
        return self._session.ask({"op": "operator", "name": op_name, "args": [self._session.encode(a) for a in args]})
    return method


class RemoteObject:
    """An object that stays in the probe; see the module's docstring for what it answers."""

    __slots__ = ("_session", "_id", "_generation", "_type", "_is_class")

    def __init__(self, session, rid, generation, type_name, is_class=False):
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "_id", rid)
        object.__setattr__(self, "_generation", generation)
        object.__setattr__(self, "_type", type_name)
        object.__setattr__(self, "_is_class", is_class)

    def _check(self):
        if self._generation != self._session.generation:
            raise _broker.ProbeDied("this %s belongs to a probe that has ended" % self._type)

    def _ask(self, op, **fields):
        self._check()
        return self._session.ask(dict(fields, op=op, obj={"$ref": self._id}))

    def __getattr__(self, name):
        # Dunders are this proxy's own; `_pytest*` are what pytest probes every global for.
        if name.startswith("__") and name.endswith("__") or name.startswith("_pytest"):
            raise AttributeError(name)
        return self._ask("getattr", name=name)

    def __setattr__(self, name, value):
        self._ask("setattr", name=name, value=self._session.encode(value))

    def __delattr__(self, name):
        self._ask("delattr", name=name)

    def __call__(self, *args, **kwargs):
        s = self._session
        return self._ask("call", args=[s.encode(a) for a in args], kwargs={k: s.encode(v) for k, v in kwargs.items()})

    def capture(self, *args, **kwargs):
        """Calls it and returns a Captured: the value and what it printed."""
        s = self._session
        return self._ask("call", args=[s.encode(a) for a in args],
                         kwargs={k: s.encode(v) for k, v in kwargs.items()}, capture=True)

    def __getitem__(self, key):
        return self._ask("getitem", key=self._session.encode(key))

    def __setitem__(self, key, value):
        self._ask("setitem", key=self._session.encode(key), value=self._session.encode(value))

    def __delitem__(self, key):
        self._ask("delitem", key=self._session.encode(key))

    def __len__(self):
        n = self._ask("len")
        if type(n) is not int:
            raise TypeError("len() of the remote object is not an int")
        return n

    def __bool__(self):
        return self._ask("bool") is True

    def __str__(self):
        return str(self._ask("str"))

    def __repr__(self):
        try:
            return "<remote %s: %s>" % (self._type, self._ask("repr"))
        except Exception:
            return "<remote %s>" % self._type

    def __int__(self):
        n = self._ask("int")
        if type(n) is not int:
            raise TypeError("int() of the remote object is not an int")
        return n

    def __index__(self):
        return self.__int__()

    def __float__(self):
        f = self._ask("float")
        if type(f) is not float:
            raise TypeError("float() of the remote object is not a float")
        return f

    def __iter__(self):
        it = self._ask("iter")
        if not isinstance(it, RemoteObject):
            yield from iter(it)
            return
        while True:
            items, done = it._ask("next", max=256)
            yield from items
            if done:
                return

    def __contains__(self, item):
        # Decided here, over the items the object yields: the code under test never sees
        # what the test looks for.
        return any(_same(x, item) for x in self)

    def __eq__(self, other):
        if isinstance(other, RemoteObject):
            if other._session is self._session and other._id == self._id:
                return True
            return self._session.ask({"op": "operator", "name": "eq",
                                      "args": [{"$ref": self._id}, {"$ref": other._id}]}) is True
        return False

    def __ne__(self, other):
        return not self.__eq__(other)

    def __hash__(self):
        return hash((id(self._session), self._id))

    def __instancecheck__(self, instance):
        if not isinstance(instance, RemoteObject):
            return False
        return self._session.ask({"op": "isinstance", "obj": {"$ref": instance._id}, "cls": {"$ref": self._id}}) is True

    def __enter__(self):
        return self._ask("callmethod", name="__enter__", args=[])

    def __exit__(self, *exc):
        return self._ask("callmethod", name="__exit__", args=[None, None, None])

    __lt__ = _side("lt")
    __le__ = _side("le")
    __gt__ = _side("gt")
    __ge__ = _side("ge")
    __add__, __radd__ = _side("add"), _side("add", True)
    __sub__, __rsub__ = _side("sub"), _side("sub", True)
    __mul__, __rmul__ = _side("mul"), _side("mul", True)
    __truediv__, __rtruediv__ = _side("truediv"), _side("truediv", True)
    __floordiv__, __rfloordiv__ = _side("floordiv"), _side("floordiv", True)
    __mod__, __rmod__ = _side("mod"), _side("mod", True)
    __and__, __rand__ = _side("and_"), _side("and_", True)
    __or__, __ror__ = _side("or_"), _side("or_", True)
    __xor__, __rxor__ = _side("xor"), _side("xor", True)


def _same(a, b):
    if isinstance(a, RemoteObject) or isinstance(b, RemoteObject):
        return a is b or (isinstance(a, RemoteObject) and a.__eq__(b) is True)
    return a == b


class RemoteModule:
    """A module of the code under test, imported in the current probe on first use (and again
    in a fresh probe after one ended)."""

    def __init__(self, session, name):
        object.__setattr__(self, "_session", session)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_ref", None)

    def _module(self):
        ref = object.__getattribute__(self, "_ref")
        s = object.__getattribute__(self, "_session")
        if ref is None or ref._generation != s.generation:
            ref = s.ask({"op": "import", "module": object.__getattribute__(self, "_name")})
            object.__setattr__(self, "_ref", ref)
        return ref

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__") or name.startswith("_pytest"):
            raise AttributeError(name)
        try:
            return getattr(self._module(), name)
        except AttributeError:
            # A submodule not imported yet (`import pkg` then `pkg.sub.f`).
            sub = RemoteModule(object.__getattribute__(self, "_session"),
                               "%s.%s" % (object.__getattribute__(self, "_name"), name))
            try:
                sub._module()
            except ModuleNotFoundError:
                raise AttributeError(name) from None
            return sub

    def __setattr__(self, name, value):
        setattr(self._module(), name, value)

    def __repr__(self):
        return "<remote module %s>" % object.__getattribute__(self, "_name")


class _Finder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def __init__(self, session, names):
        self.session = session
        self.names = names

    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".")[0] not in self.names:
            return None
        return importlib.machinery.ModuleSpec(fullname, self, is_package=True)

    def create_module(self, spec):
        return _ProxyModule(spec.name, RemoteModule(self.session, spec.name))

    def exec_module(self, module):
        module.__dict__["__path__"] = []
        # An import that fails in the probe fails here, at the import statement.
        module._nab_remote._module()


class _ProxyModule(type(sys)):
    """The module object `import` binds; attribute reads go to the probe."""

    def __init__(self, name, remote):
        super().__init__(name)
        self.__dict__["_nab_remote"] = remote

    def __getattr__(self, name):
        if name.startswith("__") and name.endswith("__"):
            raise AttributeError(name)
        return getattr(self.__dict__["_nab_remote"], name)


_sessions = {}


def python(paths=("/workspace",), cwd="/workspace", timeout=60.0, env=None):
    """The shared Session for these import paths."""
    key = (tuple(paths), cwd)
    s = _sessions.get(key)
    if s is None:
        s = _sessions[key] = Session(paths, cwd, timeout, env=env)
    return s
