"""Deadlines: `SET`'s expiry options, the `EXPIRE` family, `TTL`/`PTTL`, `PERSIST`, and
which writes keep a key's deadline."""

from kv import T0, integer, is_error


def engine(probe):
    clock = probe.clock(T0)
    return probe.engine(clock), clock


def test_set_ex_and_px_give_a_deadline(probe):
    e, clock = engine(probe)
    assert e.run("SET k v EX 10") == "OK"
    assert e.run("TTL k") == integer(10)
    assert e.run("PTTL k") == integer(10_000)
    clock.advance(9_999)
    assert e.run("GET k") == '"v"'
    assert e.run("PTTL k") == integer(1)
    clock.advance(1)
    assert e.run("GET k") == "(nil)"
    assert e.run("SET p v PX 1500") == "OK"
    assert e.run("PTTL p") == integer(1_500)
    clock.advance(1_500)
    assert e.run("EXISTS p") == integer(0)


def test_set_options_in_any_order_and_case(probe):
    e, _clock = engine(probe)
    assert e.run("set a v nx ex 5") == "OK"
    assert e.run("PTTL a") == integer(5_000)
    assert e.run("SET a w Px 700 xX") == "OK"
    assert e.run("GET a") == '"w"'
    assert e.run("PTTL a") == integer(700)
    assert e.run("SET b v EX 3 NX") == "OK"
    assert e.run("PTTL b") == integer(3_000)


def test_ttl_rounds_to_the_nearest_second(probe):
    e, _clock = engine(probe)
    for px, ttl in [(2_499, 2), (2_500, 3), (1_500, 2), (499, 0), (500, 1), (10_000, 10)]:
        assert e.run("SET k v PX %d" % px) == "OK"
        assert e.run("TTL k") == integer(ttl), "PX %d" % px
        assert e.run("PTTL k") == integer(px), "PX %d" % px


def test_ttl_and_pttl_of_missing_and_persistent_keys(probe):
    e, _clock = engine(probe)
    assert e.run("TTL nope") == integer(-2)
    assert e.run("PTTL nope") == integer(-2)
    e.run("SET k v")
    e.run("RPUSH l a")
    assert e.run("TTL k") == integer(-1)
    assert e.run("PTTL l") == integer(-1)


def test_set_nx_and_xx_that_do_not_apply_change_nothing(probe):
    e, _clock = engine(probe)
    e.run("SET k old EX 100")
    assert e.run("SET k new NX EX 5") == "(nil)"
    assert e.run("GET k") == '"old"'
    assert e.run("PTTL k") == integer(100_000)
    assert e.run("SET missing v XX PX 5") == "(nil)"
    assert e.run("EXISTS missing") == integer(0)


def test_invalid_expire_times_in_set_are_errors_that_change_nothing(probe):
    e, _clock = engine(probe)
    e.run("SET k old EX 100")
    for line in [
        "SET k new EX 0",
        "SET k new EX -1",
        "SET k new PX 0",
        "SET k new PX -20",
        "SET k new EX abc",
        "SET k new PX 1.5",
        "SET k new EX",
        "SET k new EX 9223372036854775807",
        "SET k new PX 9223372036854775807",
    ]:
        assert is_error(e.run(line)), line
        assert e.run("GET k") == '"old"', line
        assert e.run("PTTL k") == integer(100_000), line


def test_conflicting_or_unknown_set_options_are_syntax_errors(probe):
    e, _clock = engine(probe)
    for line in [
        "SET k v EX 10 PX 100",
        "SET k v PX 100 EX 10",
        "SET k v EX 10 KEEPTTL",
        "SET k v KEEPTTL PX 10",
        "SET k v NX XX",
        "SET k v EXPIRE 10",
        "SET k v 10",
    ]:
        assert is_error(e.run(line)), line
        assert e.run("EXISTS k") == integer(0), line


def test_keepttl_keeps_the_deadline_the_key_had(probe):
    e, clock = engine(probe)
    e.run("SET k v EX 100")
    clock.advance(10_000)
    assert e.run("SET k w KEEPTTL") == "OK"
    assert e.run("GET k") == '"w"'
    assert e.run("PTTL k") == integer(90_000)
    assert e.run("SET k x keepttl XX") == "OK"
    assert e.run("PTTL k") == integer(90_000)
    e.run("SET p v")
    assert e.run("SET p w KEEPTTL") == "OK"
    assert e.run("TTL p") == integer(-1)
    assert e.run("SET fresh v KEEPTTL") == "OK"
    assert e.run("TTL fresh") == integer(-1)


def test_writes_that_replace_the_value_clear_the_deadline(probe):
    e, clock = engine(probe)
    e.run("SET a v EX 10")
    e.run("SET a w")
    e.run("SET b v EX 10")
    e.run("MSET x 1 b w y 2")
    e.run("SET c v EX 10")
    assert e.run("GETSET c w") == '"v"'
    e.run("SET d v EX 10")
    e.run("SET d w EX 100")
    for key in ["a", "b", "c"]:
        assert e.run("TTL %s" % key) == integer(-1), key
    assert e.run("TTL d") == integer(100)
    clock.advance(60_000)
    assert e.run("MGET a b c d") == '1) "w"\n2) "w"\n3) "w"\n4) "w"'


def test_writes_that_change_the_value_in_place_keep_the_deadline(probe):
    cases = [
        ("SET k hello", "APPEND k !"),
        ("SET k 5", "INCR k"),
        ("SET k 5", "DECR k"),
        ("SET k 5", "INCRBY k 10"),
        ("SET k 5", "DECRBY k 10"),
        ("RPUSH k a", "RPUSH k b"),
        ("RPUSH k a", "LPUSH k b c"),
        ("RPUSH k a b", "LPOP k"),
        ("RPUSH k a b", "RPOP k"),
        ("HSET k f 1", "HSET k g 2"),
        ("HSET k f 1", "HSET k f 2"),
        ("HSET k f 1 g 2", "HDEL k f"),
        ("SADD k a", "SADD k b"),
        ("SADD k a b", "SREM k a"),
    ]
    for setup, write in cases:
        e, clock = engine(probe)
        e.run(setup)
        assert e.run("EXPIRE k 50") == integer(1)
        clock.advance(5_000)
        assert not is_error(e.run(write)), write
        assert e.run("PTTL k") == integer(45_000), "%s then %s" % (setup, write)
        clock.advance(45_000)
        assert e.run("EXISTS k") == integer(0), "%s then %s" % (setup, write)


def test_rename_moves_the_deadline_with_the_value(probe):
    e, clock = engine(probe)
    e.run("SET a 1 EX 50")
    e.run("SET b 2 EX 500")
    assert e.run("RENAME a b") == "OK"
    assert e.run("PTTL b") == integer(50_000)
    assert e.run("TTL a") == integer(-2)
    e.run("SET c 3")
    e.run("SET d 4 EX 100")
    assert e.run("RENAME c d") == "OK"
    assert e.run("TTL d") == integer(-1)
    e.run("RPUSH l x")
    e.run("PEXPIRE l 7000")
    assert e.run("RENAME l m") == "OK"
    assert e.run("PTTL m") == integer(7_000)
    clock.advance(50_000)
    assert e.run("KEYS *") == '1) "d"'
    assert e.run("GET d") == '"3"'


def test_the_expire_family_sets_relative_and_absolute_deadlines(probe):
    e, _clock = engine(probe)
    e.run("SET k v")
    assert e.run("EXPIRE k 10") == integer(1)
    assert e.run("PTTL k") == integer(10_000)
    assert e.run("PEXPIRE k 2500") == integer(1)
    assert e.run("PTTL k") == integer(2_500)
    at = T0 // 1000 + 30
    assert e.run("EXPIREAT k %d" % at) == integer(1)
    assert e.run("PTTL k") == integer(30_000)
    assert e.run("PEXPIREAT k %d" % (T0 + 1_234)) == integer(1)
    assert e.run("PTTL k") == integer(1_234)
    assert e.run("expire k 20") == integer(1)
    assert e.run("TTL k") == integer(20)
    for line in [
        "EXPIRE nope 10",
        "PEXPIRE nope 10",
        "EXPIREAT nope 1900000000",
        "PEXPIREAT nope 1900000000000",
    ]:
        assert e.run(line) == integer(0), line
        assert e.run("EXISTS nope") == integer(0), line


def test_a_deadline_that_is_not_in_the_future_deletes_the_key(probe):
    past_s = T0 // 1000 - 1
    lines = [
        "EXPIRE k 0",
        "EXPIRE k -5",
        "PEXPIRE k 0",
        "PEXPIRE k -1",
        "EXPIREAT k %d" % past_s,
        "EXPIREAT k %d" % (T0 // 1000),
        "EXPIREAT k -1",
        "PEXPIREAT k %d" % T0,
        "PEXPIREAT k 1",
    ]
    for line in lines:
        e, _clock = engine(probe)
        e.run("SET k v")
        e.run("SET other v")
        assert e.run(line) == integer(1), line
        assert e.run("EXISTS k") == integer(0), line
        assert e.run("KEYS *") == '1) "other"', line
        assert e.run("TTL k") == integer(-2), line
        assert e.run(line) == integer(0), line


def test_expire_times_out_of_range_are_errors_that_change_nothing(probe):
    for line in [
        "EXPIRE k 9223372036854775807",
        "EXPIRE k -9223372036854775808",
        "EXPIRE k 9223372036854776",
        "PEXPIRE k 9223372036854775807",
        "EXPIREAT k 9223372036854775807",
        "EXPIRE k ten",
        "PEXPIRE k 1.5",
        "EXPIREAT k",
    ]:
        e, _clock = engine(probe)
        e.run("SET k v EX 100")
        assert is_error(e.run(line)), line
        assert e.run("GET k") == '"v"', line
        assert e.run("PTTL k") == integer(100_000), line
    e, _clock = engine(probe)
    e.run("SET k v")
    assert e.run("PEXPIREAT k 9223372036854775807") == integer(1)
    assert e.run("PTTL k") == integer(9_223_372_036_854_775_807 - T0)


def test_persist_removes_the_deadline(probe):
    e, clock = engine(probe)
    e.run("SET k v EX 10")
    assert e.run("PERSIST k") == integer(1)
    assert e.run("TTL k") == integer(-1)
    assert e.run("PERSIST k") == integer(0)
    assert e.run("PERSIST nope") == integer(0)
    e.run("HSET h f v")
    assert e.run("PEXPIRE h 100") == integer(1)
    assert e.run("persist h") == integer(1)
    clock.advance(20_000)
    assert e.run("GET k") == '"v"'
    assert e.run("HGET h f") == '"v"'
    assert e.run("EXPIRE k 5") == integer(1)
    assert e.run("TTL k") == integer(5)


def test_reads_do_not_change_the_deadline(probe):
    e, clock = engine(probe)
    e.run("SET k v EX 10")
    clock.advance(4_000)
    for line in ["GET k", "STRLEN k", "TYPE k", "EXISTS k", "KEYS *", "TTL k", "MGET k", "DBSIZE"]:
        e.run(line)
    assert e.run("PTTL k") == integer(6_000)
    clock.advance(6_000)
    assert e.run("GET k") == "(nil)"
