"""Hidden tests of the ring buffer under the log queue (rb_peek must see data across the
wrap point, as its header documents, for every caller). The C code runs in the probe
(conftest.py), with ASan/UBSan; the scripts, the model queue and every expected value are
here. Each script is fixed before it runs (its random choices come from a seeded generator
of the runner's), and the answers are checked against it in order."""

import random

FRAME_OK, FRAME_FULL, FRAME_EMPTY = 0, -1, -4
GUARD = 8
SEED = 0x9E3779B97F4A7C15


class Script:
    """Requests, each with the check of its answer (a function of the answer)."""

    def __init__(self):
        self.reqs = []
        self.checks = []

    def add(self, req, check=None):
        self.reqs.append(req)
        self.checks.append(check)

    def run(self, probe, timeout=120):
        for req, check, a in zip(self.reqs, self.checks, probe.ask(self.reqs, timeout=timeout)):
            if check:
                check(a)


def rc_is(want, what):
    def check(a):
        assert a["rc"] == want, "%s returned %d, want %d" % (what, a["rc"], want)
    return check


def position(s, offset, data, slot=0):
    """Puts the ring's tail at `offset` (empty ring) with junk writes and reads, then stores data."""
    done = 0
    while done < offset:
        n = min(offset - done, 64)
        s.add(("write", slot, b"\xee" * n), rc_is(0, "rb_write(%d junk bytes)" % n))
        s.add(("read", slot, n), rc_is(0, "rb_read(%d junk bytes)" % n))
        done += n
    s.add(("write", slot, data), rc_is(0, "rb_write(%d bytes at offset %d)" % (len(data), offset)))


def peeked(want, what):
    def check(a):
        got = bytes.fromhex(a["out"])
        assert a["rc"] == 0, "%s returned %d, want 0" % (what, a["rc"])
        assert got[:len(want)] == want, "%s copied %s, want %s" % (what, got[:len(want)].hex(), want.hex())
        assert got[len(want):] == b"\xaa" * GUARD, "%s wrote past the bytes asked for" % what
    return check


def test_peek_across_every_wrap_point(probe):
    s = Script()
    for cap in range(4, 20):
        for off in range(cap):
            for n in range(1, cap + 1):
                what = "cap %d, tail at %d, %d bytes:" % (cap, off, n)
                data = bytes((0x30 + i * 7 + off) & 0xFF for i in range(n))
                s.add(("rinit", 0, cap), rc_is(0, "rb_init(%d)" % cap))
                position(s, off, data)
                s.add(("peek", 0, n, GUARD), peeked(data, what + " rb_peek"))

                def used(a, n=n, what=what):
                    assert a["value"] == n, "%s rb_used after a peek is %d, want %d (peek consumes nothing)" % (
                        what, a["value"], n)
                s.add(("used", 0), used)

                def read(a, data=data, what=what):
                    assert a["rc"] == 0 and bytes.fromhex(a["out"]) == data, "%s rb_read after the peek: %r" % (what, a)
                s.add(("read", 0, n), read)
                s.add(("rfree", 0))
    s.run(probe)


def test_peek_prefix_of_wrapped_data(probe):
    s = Script()
    s.add(("rinit", 0, 10), rc_is(0, "rb_init(10)"))
    position(s, 8, b"ABCDEFGHIJ")                      # full, tail at 8
    s.add(("peek", 0, 3, GUARD), peeked(b"ABC", "rb_peek(3) of a full ring with its tail at 8"))
    s.add(("peek", 0, 10, GUARD), peeked(b"ABCDEFGHIJ", "rb_peek(10) of a full ring with its tail at 8"))
    s.add(("peek", 0, 11, GUARD), rc_is(-1, "rb_peek(11) of 10 stored bytes"))
    s.add(("skip", 0, 4), rc_is(0, "rb_skip(4)"))
    s.add(("peek", 0, 6, GUARD), peeked(b"EFGHIJ", "rb_peek(6) after rb_skip(4)"))
    s.add(("rfree", 0))
    s.run(probe)


def test_peek_refuses_more_than_stored(probe):
    s = Script()
    s.add(("rinit", 0, 8), rc_is(0, "rb_init(8)"))
    s.add(("peek", 0, 1, GUARD), rc_is(-1, "rb_peek(1) of an empty ring"))
    s.add(("write", 0, b"xy"), rc_is(0, "rb_write(xy)"))
    s.add(("peek", 0, 3, GUARD), rc_is(-1, "rb_peek(3) of 2 stored bytes"))
    s.add(("peek", 0, 2, GUARD), peeked(b"xy", "rb_peek(2) of xy"))
    s.add(("rfree", 0))
    s.run(probe)


def test_frames_survive_wrapping(probe):
    """A random producer and consumer against a model queue; small rings make headers straddle
    the end. The model follows what frame_put says (OK, or FULL: nothing else)."""
    rng = random.Random(SEED)
    caps = list(range(23, 98, 7))
    scripts = []                      # per ring: [(op, payload)]
    reqs = []
    for cap in caps:
        steps = []
        reqs.append("rinit 0 %d" % cap)
        for _ in range(3000):
            if rng.getrandbits(1):
                payload = rng.randbytes(rng.randrange(20))
                steps.append(("put", payload))
                reqs.append("fput 0 " + (payload.hex() or "-"))
            else:
                steps.append(("take", None))
                reqs.append("fnext 0")
                reqs.append("ftake 0 64")
        reqs.append("rfree 0")
        scripts.append(steps)
    answers = iter(probe.ask(reqs, timeout=120))
    for cap, steps in zip(caps, scripts):
        assert next(answers)["rc"] == 0, "rb_init(%d) failed" % cap
        model = []
        for i, (kind, payload) in enumerate(steps):
            where = "ring of %d bytes, step %d" % (cap, i)
            if kind == "put":
                rc = next(answers)["rc"]
                if rc == FRAME_OK:
                    model.append(payload)
                else:
                    assert rc == FRAME_FULL, "%s: frame_put returned %d, want FRAME_OK or FRAME_FULL" % (where, rc)
                continue
            nxt, take = next(answers), next(answers)
            if not model:
                assert nxt["value"] == FRAME_EMPTY, "%s: frame_next_size of an empty queue is %d" % (where, nxt["value"])
                assert take["rc"] == FRAME_EMPTY, "%s: frame_take of an empty queue returned %d" % (where, take["rc"])
                continue
            want = model.pop(0)
            assert nxt["value"] == len(want), "%s: frame_next_size is %d, want %d" % (where, nxt["value"], len(want))
            assert take["rc"] == FRAME_OK, "%s: frame_take returned %d, want FRAME_OK" % (where, take["rc"])
            assert take["len"] == len(want), "%s: frame_take gave %d bytes, want %d" % (where, take["len"], len(want))
            assert bytes.fromhex(take["out"]) == want, "%s: frame_take gave %s, want %s" % (
                where, take["out"], want.hex())
        next(answers)                 # rfree


def test_queue_drains_everything_in_order(probe):
    def line(k):
        return ("GET /api/items/%d 200 %dms" % (k, k % 97)).encode()

    reqs = [("qinit", 128)]
    for rnd in range(200):
        reqs += [("qpush", line(3 * rnd + k + 1)) for k in range(3)]
        reqs.append(("qdrain", 1024, 3))
    reqs += [("qstats",), ("qfree",)]
    a = probe.ask(reqs)
    assert a[0]["rc"] == 0, "logq_init(128) failed"
    expected = 1
    for rnd in range(200):
        pushes, drain = a[1 + 4 * rnd:4 + 4 * rnd], a[4 + 4 * rnd]
        for k, p in enumerate(pushes):
            assert p["rc"] == 0, "logq_push of line %d returned %d" % (3 * rnd + k + 1, p["rc"])
        assert drain["lines"] == 3, "round %d: logq_drain gave %d lines, want 3" % (rnd, drain["lines"])
        out = bytes.fromhex(drain["out"])
        assert len(out) == drain["len"], "round %d: logq_drain says %d bytes in a 1024-byte buffer" % (rnd, drain["len"])
        got = out.split(b"\0")
        assert got[-1] == b"", "round %d: the drained lines do not end with a NUL: %r" % (rnd, out)
        want = [line(expected + k) for k in range(3)]
        assert got[:-1] == want, "round %d: got %r, want %r (out of order or corrupted)" % (rnd, got[:-1], want)
        expected += 3
    stats = a[-2]
    assert stats["dropped_corrupt"] == 0, "dropped_corrupt = %d" % stats["dropped_corrupt"]
    assert stats["accepted"] == 600, "accepted = %d, want 600" % stats["accepted"]


def test_write_read_still_correct(probe):
    rng = random.Random(SEED)
    s = Script()
    s.add(("rinit", 0, 7), rc_is(0, "rb_init(7)"))
    for i in range(500):
        n = 1 + rng.randrange(7)
        data = bytes((i + j) & 0xFF for j in range(n))
        what = "round %d (%d bytes):" % (i, n)
        s.add(("write", 0, data), rc_is(0, what + " rb_write"))

        def space(a, n=n, what=what):
            assert a["value"] == 7 - n, "%s rb_space is %d, want %d" % (what, a["value"], 7 - n)
        s.add(("space", 0), space)
        s.add(("write", 0, data[:1] * (8 - n)), rc_is(-1, what + " rb_write of one byte more than the space"))

        def read(a, data=data, what=what):
            assert a["rc"] == 0 and bytes.fromhex(a["out"]) == data, "%s rb_read: %r, want %s" % (what, a, data.hex())
        s.add(("read", 0, n), read)

        def used(a, what=what):
            assert a["value"] == 0, "%s rb_used after reading everything is %d" % (what, a["value"])
        s.add(("used", 0), used)
    s.add(("rfree", 0))
    s.run(probe)
