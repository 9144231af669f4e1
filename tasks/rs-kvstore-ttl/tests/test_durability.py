"""Deadlines survive a snapshot and a replay of the append-only log: what is loaded later is
exactly what the original engine holds at that later time."""

from kv import T0, integer


def state(e):
    """Every live key with its type, value and milliseconds left, in key order."""
    listing = e.run("KEYS *")
    keys = []
    if listing != "(empty array)":
        for line in listing.split("\n"):
            parts = line.split(") ", 1)
            assert len(parts) == 2, "a KEYS line: %r" % line
            quoted = parts[1]
            keys.append(quoted[1:-1])
    out = []
    for k in keys:
        kind = e.run("TYPE %s" % k)
        if kind == "string":
            value = e.run("GET %s" % k)
        elif kind == "list":
            value = e.run("LRANGE %s 0 -1" % k)
        elif kind == "hash":
            value = e.run("HGETALL %s" % k)
        elif kind == "set":
            value = e.run("SMEMBERS %s" % k)
        else:
            raise AssertionError("key %s has type %s" % (k, kind))
        left = e.run("PTTL %s" % k)
        out.append("%s %s [%s] %s" % (k, kind, value.replace("\n", " | "), left))
    return out


def logging(probe, clock):
    e = probe.engine(clock)
    e.enable_aof()
    return e


def replay_matches(probe, original, clock):
    """The log of `original` replayed with the same clock gives the same state as `original`
    has now."""
    replayed = probe.replay(original, clock)
    want = state(original)
    assert state(replayed) == want, "log:\n%s" % "\n".join(original.aof())
    return replayed


def typed_keys_with_deadlines(e):
    e.script([
        "SET a 1 EX 100",
        'RPUSH l x "y z"',
        "PEXPIRE l 5000",
        'HSET h f v g ""',
        "EXPIRE h 30",
        "SADD s m n",
        "EXPIRE s 60",
        "SET p forever",
        "SET q 1 PX 2500",
    ])


def test_a_snapshot_keeps_each_deadline_as_a_point_in_time(probe):
    clock = probe.clock(T0)
    e = probe.engine(clock)
    typed_keys_with_deadlines(e)
    clock.advance(2_000)
    text = e.snapshot()
    clock.advance(1_000)
    loaded = probe.from_snapshot(text, clock)
    want = state(e)
    assert state(loaded) == want
    assert loaded.run("PTTL a") == integer(97_000)
    assert loaded.run("TTL q") == integer(-2)
    clock.advance(2_000)
    assert loaded.run("EXISTS l") == integer(0)
    assert loaded.run("DBSIZE") == integer(4)


def test_keys_whose_deadline_passed_while_the_snapshot_was_stored_do_not_come_back(probe):
    clock = probe.clock(T0)
    e = probe.engine(clock)
    typed_keys_with_deadlines(e)
    text = e.snapshot()
    later = probe.clock(T0 + 45_000)
    loaded = probe.from_snapshot(text, later)
    assert loaded.run("KEYS *") == '1) "a"\n2) "p"\n3) "s"'
    assert loaded.run("DBSIZE") == integer(3)
    assert loaded.run("PTTL a") == integer(55_000)
    assert loaded.run("PTTL s") == integer(15_000)
    assert loaded.run("TTL p") == integer(-1)
    assert loaded.run("INCR h") == integer(1)
    later.advance(15_000)
    assert loaded.run("SMEMBERS s") == "(empty array)"


def test_a_snapshot_leaves_out_keys_that_have_expired(probe):
    clock = probe.clock(T0)
    e = probe.engine(clock)
    e.script([
        "SET goner-string x PX 10",
        "RPUSH goner-list a",
        "PEXPIRE goner-list 10",
        "SET stay y",
    ])
    clock.advance(10)
    text = e.snapshot()
    assert "goner" not in text, text
    loaded = probe.from_snapshot(text, probe.clock(T0))
    assert loaded.run("KEYS *") == '1) "stay"'


def test_a_snapshot_written_before_deadlines_were_kept_still_loads(probe):
    old = ("EMBERKV 1\nhash user name ann%20lee\nlist jobs a b\nset tags x y\n"
           "string greeting hello%20world\nstring empty ~\nend\n")
    clock = probe.clock(T0)
    e = probe.from_snapshot(old, clock, "a version 1 snapshot loads")
    assert e.run("DBSIZE") == integer(5)
    assert e.run("GET greeting") == '"hello world"'
    assert e.run("GET empty") == '""'
    assert e.run("HGET user name") == '"ann lee"'
    assert e.run("LRANGE jobs 0 -1") == '1) "a"\n2) "b"'
    assert e.run("SMEMBERS tags") == '1) "x"\n2) "y"'
    for key in ["user", "jobs", "tags", "greeting", "empty"]:
        assert e.run("TTL %s" % key) == integer(-1), key
    clock.advance(365 * 24 * 3_600_000)
    assert e.run("DBSIZE") == integer(5)


def test_a_snapshot_of_a_loaded_snapshot_is_the_same_keyspace(probe):
    clock = probe.clock(T0)
    e = probe.engine(clock)
    typed_keys_with_deadlines(e)
    e.script(["PERSIST h", "SET a 2 KEEPTTL"])
    first = e.snapshot()
    loaded = probe.from_snapshot(first, clock, "loads")
    second = loaded.snapshot()
    again = probe.from_snapshot(second, clock, "loads again")
    want = state(e)
    assert state(again) == want
    assert again.run("TTL h") == integer(-1)
    assert again.run("PTTL a") == integer(100_000)
    clock.advance(100_000)
    assert state(again) == state(e)


def test_a_malformed_snapshot_is_refused(probe):
    for text in [
        "",
        "EMBERKV\nend\n",
        "EMBERKV 9\nend\n",
        "EMBERKV 1\nstring a\nend\n",
        "EMBERKV 1\nstring a b\n",
    ]:
        loaded, err = probe.try_from_snapshot(text, probe.clock(T0))
        assert loaded is None and err is not None, repr(text)


def test_a_log_replayed_later_keeps_each_deadline_as_a_point_in_time(probe):
    clock = probe.clock(T0)
    e = logging(probe, clock)
    typed_keys_with_deadlines(e)
    clock.advance(1_000)
    e.script(["SET b 2", "EXPIRE b 50", "PEXPIREAT c 1", "SET c 3 EX 20"])
    replay_matches(probe, e, clock)
    clock.advance(29_000)
    r = replay_matches(probe, e, clock)
    assert r.run("PTTL a") == integer(70_000)
    assert r.run("PTTL b") == integer(21_000)
    assert r.run("EXISTS l q c") == integer(0)
    clock.advance(40_000)
    replay_matches(probe, e, clock)


def test_a_replay_does_not_revive_keys_that_expired_after_their_last_write(probe):
    clock = probe.clock(T0)
    e = logging(probe, clock)
    e.script([
        "SET n 5 EX 10",
        "RPUSH l a",
        "EXPIRE l 10",
        "HSET h f 1",
        "EXPIRE h 10",
        "SADD s a",
        "EXPIRE s 10",
        "SET t abc PX 10000",
    ])
    clock.advance(1_000)
    e.script([
        "INCR n",
        "RPUSH l b",
        "HSET h g 2",
        "SADD s b",
        "APPEND t def",
        "SET u 1 EX 9 NX",
    ])
    clock.advance(30_000)
    assert e.run("DBSIZE") == integer(0)
    r = replay_matches(probe, e, clock)
    assert r.run("DBSIZE") == integer(0)


def test_a_replay_rebuilds_keys_written_again_after_they_expired(probe):
    clock = probe.clock(T0)
    e = logging(probe, clock)
    e.script([
        "SET n 5 EX 10",
        "RPUSH l a b",
        "EXPIRE l 10",
        "SET s old EX 10",
        "HSET h f 1",
        "EXPIRE h 10",
        "SET x 1 PX 500",
    ])
    clock.advance(20_000)
    e.script([
        "INCR n",
        "RPUSH l c",
        "SET s new NX",
        "HSET h g 2",
        "SET x 2 XX",
        "SETNX x 3",
    ])
    r = replay_matches(probe, e, clock)
    assert r.run("GET n") == '"1"'
    assert r.run("LRANGE l 0 -1") == '1) "c"'
    assert r.run("GET s") == '"new"'
    assert r.run("HGETALL h") == '1) "g"\n2) "2"'
    assert r.run("GET x") == '"3"'
    clock.advance(3_600_000)
    replay_matches(probe, e, clock)


def test_a_replay_keeps_what_was_written_before_a_deadline_that_was_then_removed(probe):
    clock = probe.clock(T0)
    e = logging(probe, clock)
    e.script([
        "SET k 5 EX 10",
        "RPUSH l a",
        "EXPIRE l 10",
        "SADD s a",
        "PEXPIRE s 10000",
        "SET t x EX 10",
    ])
    clock.advance(1_000)
    e.script([
        "INCR k",
        "PERSIST k",
        "RPUSH l b",
        "RENAME l m",
        "PERSIST m",
        "SADD s b",
        "SET s2 y",
        "RENAME s2 s",
        "APPEND t y",
        "SET t z KEEPTTL",
    ])
    clock.advance(60_000)
    r = replay_matches(probe, e, clock)
    assert r.run("GET k") == '"6"'
    assert r.run("LRANGE m 0 -1") == '1) "a"\n2) "b"'
    assert r.run("GET s") == '"y"'
    assert r.run("DBSIZE") == integer(3)


def test_a_replay_keeps_persist_rename_and_overwrites(probe):
    clock = probe.clock(T0)
    e = logging(probe, clock)
    e.script([
        "SET a 1 EX 10",
        "PERSIST a",
        "SET b 2 EX 10",
        "RENAME b c",
        "SET d 1 EX 5",
        "SET d 2",
        "SET e 1 EX 5",
        "SET e 2 KEEPTTL",
        "SET f 1 EX 5",
        "MSET f 2 g 3",
        "SET h 1 EX 5",
        "GETSET h 2",
        "SET i 1",
        "EXPIRE i 0",
        "SET j 1",
        "DEL j",
        "SET j 2",
    ])
    clock.advance(7_000)
    r = replay_matches(probe, e, clock)
    assert r.run("KEYS *") == '1) "a"\n2) "c"\n3) "d"\n4) "f"\n5) "g"\n6) "h"\n7) "j"'
    assert r.run("PTTL c") == integer(3_000)
    clock.advance(3_000)
    replay_matches(probe, e, clock)


def test_a_replayed_engine_keeps_logging_and_replays_again(probe):
    clock = probe.clock(T0)
    e = logging(probe, clock)
    e.script(["SET a 1 EX 100", "RPUSH l x", "EXPIRE l 20"])
    clock.advance(10_000)
    r = replay_matches(probe, e, clock)
    r.script(["SET z 1 EX 5", "RPUSH l y", "PERSIST a"])
    clock.advance(6_000)
    again = probe.replay(r, clock)
    want = state(r)
    assert state(again) == want
    assert again.run("PTTL l") == integer(4_000)
    assert again.run("TTL a") == integer(-1)
    assert again.run("EXISTS z") == integer(0)


def test_a_log_written_before_deadlines_were_kept_still_replays(probe):
    old = [
        "# emberkv 0.4",
        'SET greeting "hello world"',
        "RPUSH jobs a b c",
        "LPOP jobs",
        "HSET user name ann",
        "SADD tags x y",
        "SET counter 1",
        "INCR counter",
        "SET gone 1",
        "DEL gone",
        "",
    ]
    r = probe.replay_lines(old, probe.clock(T0), "a 0.4 log replays")
    assert state(r) == [
        'counter string ["2"] (integer) -1',
        'greeting string ["hello world"] (integer) -1',
        'jobs list [1) "b" | 2) "c"] (integer) -1',
        'tags set [1) "x" | 2) "y"] (integer) -1',
        'user hash [1) "name" | 2) "ann"] (integer) -1',
    ]


def test_a_snapshot_of_a_replayed_log_keeps_the_deadlines(probe):
    clock = probe.clock(T0)
    e = logging(probe, clock)
    typed_keys_with_deadlines(e)
    clock.advance(3_000)
    r = probe.replay(e, clock)
    text = r.snapshot()
    clock.advance(10_000)
    loaded = probe.from_snapshot(text, clock)
    want = state(e)
    assert state(loaded) == want
    assert loaded.run("PTTL h") == integer(17_000)
