"""A key whose deadline has been reached is absent for every command, whatever the command
and whatever the key held."""

from kv import T0, integer


def engine(probe):
    clock = probe.clock(T0)
    return probe.engine(clock), clock


def expired(e, clock, setup, key):
    """Runs `setup`, gives `key` a one-second deadline and lets it pass."""
    e.script(setup)
    assert e.run("EXPIRE %s 1" % key) == integer(1)
    clock.advance(1_000)


def test_a_key_is_gone_exactly_at_its_deadline(probe):
    e, clock = engine(probe)
    e.run("SET k v")
    assert e.run("EXPIRE k 1") == integer(1)
    clock.advance(999)
    assert e.run("EXISTS k") == integer(1)
    assert e.run("DBSIZE") == integer(1)
    clock.advance(1)
    assert e.run("EXISTS k") == integer(0)
    assert e.run("DBSIZE") == integer(0)
    assert e.run("GET k") == "(nil)"


def test_exists_and_dbsize_do_not_count_expired_keys(probe):
    e, clock = engine(probe)
    e.run("SET live 1")
    e.run("RPUSH list a")
    expired(e, clock, ["SET gone x"], "gone")
    assert e.run("EXISTS gone") == integer(0)
    assert e.run("EXISTS live gone live list") == integer(3)
    assert e.run("DBSIZE") == integer(2)


def test_keys_lists_only_live_keys(probe):
    e, clock = engine(probe)
    e.run("SET user:1 a")
    e.run("SET user:2 b")
    e.run("HSET user:3 name c")
    assert e.run("EXPIRE user:2 1") == integer(1)
    assert e.run("EXPIRE user:3 1") == integer(1)
    clock.advance(1_000)
    assert e.run("KEYS *") == '1) "user:1"'
    assert e.run("KEYS user:[23]") == "(empty array)"


def test_type_strlen_and_mget_see_nothing(probe):
    e, clock = engine(probe)
    expired(e, clock, ["SET gone abc", "SADD gset m"], "gone")
    assert e.run("EXPIRE gset 0") == integer(1)
    assert e.run("TYPE gone") == "none"
    assert e.run("TYPE gset") == "none"
    assert e.run("STRLEN gone") == integer(0)
    assert e.run("MGET gone") == "1) (nil)"


def test_reads_of_every_type_see_nothing(probe):
    e, clock = engine(probe)
    e.script(["RPUSH l a b", "HSET h f v", "SADD s m"])
    for key in ["l", "h", "s"]:
        assert e.run("PEXPIRE %s 1" % key) == integer(1), key
    clock.advance(1)
    assert e.run("LINDEX l 0") == "(nil)"
    assert e.run("LRANGE l 0 -1") == "(empty array)"
    assert e.run("HGET h f") == "(nil)"
    assert e.run("HEXISTS h f") == integer(0)
    assert e.run("HGETALL h") == "(empty array)"
    assert e.run("SMEMBERS s") == "(empty array)"
    assert e.run("SCARD s") == integer(0)
    at = T0 // 1000 + 100
    assert e.run("EXPIREAT l %d" % at) == integer(0)
    assert e.run("PEXPIREAT h %d" % (T0 + 100_000)) == integer(0)
    assert e.run("DBSIZE") == integer(0)


def test_del_does_not_count_expired_keys(probe):
    e, clock = engine(probe)
    e.run("SET live 1")
    expired(e, clock, ["SET gone x"], "gone")
    assert e.run("DEL gone") == integer(0)
    assert e.run("DEL gone live") == integer(1)
    assert e.run("DBSIZE") == integer(0)


def test_counters_start_again_from_zero(probe):
    e, clock = engine(probe)
    expired(e, clock, ["SET n 10"], "n")
    assert e.run("INCR n") == integer(1)
    assert e.run("TTL n") == integer(-1)
    expired(e, clock, ["SET m 10"], "m")
    assert e.run("DECRBY m 3") == integer(-3)
    expired(e, clock, ["SET o 10"], "o")
    assert e.run("INCRBY o 5") == integer(5)
    expired(e, clock, ["SET p 10"], "p")
    assert e.run("DECR p") == integer(-1)
    assert e.run("GET p") == '"-1"'


def test_append_and_getset_start_from_nothing(probe):
    e, clock = engine(probe)
    expired(e, clock, ["SET s hello"], "s")
    assert e.run("APPEND s xy") == integer(2)
    assert e.run("GET s") == '"xy"'
    assert e.run("TTL s") == integer(-1)
    expired(e, clock, ["SET g old"], "g")
    assert e.run("GETSET g new") == "(nil)"
    assert e.run("GET g") == '"new"'


def test_conditional_sets_treat_expired_keys_as_missing(probe):
    e, clock = engine(probe)
    expired(e, clock, ["SET a old", "SET b old", "SET c old"], "a")
    assert e.run("EXPIRE b 0") == integer(1)
    assert e.run("PEXPIRE c 1") == integer(1)
    clock.advance(1)
    assert e.run("SETNX a new") == integer(1)
    assert e.run("GET a") == '"new"'
    assert e.run("SET b new NX") == "OK"
    assert e.run("GET b") == '"new"'
    assert e.run("SET c new XX") == "(nil)"
    assert e.run("EXISTS c") == integer(0)


def test_an_expired_key_of_another_type_is_no_type_error(probe):
    e, clock = engine(probe)
    expired(e, clock, ["RPUSH l a b"], "l")
    assert e.run("GET l") == "(nil)"
    assert e.run("INCR l") == integer(1)
    expired(e, clock, ["HSET h f v"], "h")
    assert e.run("APPEND h abc") == integer(3)
    expired(e, clock, ["SET s v"], "s")
    assert e.run("SADD s m") == integer(1)
    assert e.run("TYPE s") == "set"


def test_lists_start_empty(probe):
    e, clock = engine(probe)
    expired(e, clock, ["RPUSH l a b c"], "l")
    assert e.run("LLEN l") == integer(0)
    assert e.run("LPOP l") == "(nil)"
    assert e.run("LPUSH l x") == integer(1)
    assert e.run("LRANGE l 0 -1") == '1) "x"'
    assert e.run("TTL l") == integer(-1)
    expired(e, clock, ["RPUSH r a b"], "r")
    assert e.run("RPOP r") == "(nil)"
    assert e.run("RPUSH r z") == integer(1)


def test_hashes_start_empty(probe):
    e, clock = engine(probe)
    expired(e, clock, ["HSET h f 1 g 2"], "h")
    assert e.run("HDEL h f") == integer(0)
    assert e.run("HLEN h") == integer(0)
    assert e.run("HSET h g 3") == integer(1)
    assert e.run("HGETALL h") == '1) "g"\n2) "3"'
    assert e.run("TTL h") == integer(-1)


def test_sets_start_empty(probe):
    e, clock = engine(probe)
    expired(e, clock, ["SADD s a b"], "s")
    assert e.run("SREM s a") == integer(0)
    assert e.run("SISMEMBER s b") == integer(0)
    assert e.run("SADD s c") == integer(1)
    assert e.run("SMEMBERS s") == '1) "c"'
    assert e.run("SCARD s") == integer(1)


def test_rename_of_an_expired_key_is_an_error(probe):
    e, clock = engine(probe)
    expired(e, clock, ["SET gone x"], "gone")
    assert e.run("RENAME gone other").startswith("(error)")
    assert e.run("EXISTS other") == integer(0)
    assert e.run("DBSIZE") == integer(0)


def test_rename_onto_an_expired_key_gives_it_the_new_value_for_good(probe):
    e, clock = engine(probe)
    e.run("SET src v")
    expired(e, clock, ["SET dst old"], "dst")
    assert e.run("RENAME src dst") == "OK"
    assert e.run("GET dst") == '"v"'
    assert e.run("TTL dst") == integer(-1)
    clock.advance(3_600_000)
    assert e.run("GET dst") == '"v"'


def test_time_commands_see_an_expired_key_as_missing(probe):
    e, clock = engine(probe)
    expired(e, clock, ["SET gone x"], "gone")
    assert e.run("TTL gone") == integer(-2)
    assert e.run("PTTL gone") == integer(-2)
    assert e.run("PERSIST gone") == integer(0)
    assert e.run("EXPIRE gone 100") == integer(0)
    assert e.run("PEXPIRE gone 100") == integer(0)
    assert e.run("EXISTS gone") == integer(0)


def test_a_key_deleted_and_written_again_has_no_deadline(probe):
    e, clock = engine(probe)
    e.run("SET k v")
    assert e.run("EXPIRE k 10") == integer(1)
    assert e.run("DEL k") == integer(1)
    e.run("SET k again")
    assert e.run("TTL k") == integer(-1)
    e.run("RPUSH l a")
    assert e.run("EXPIRE l 10") == integer(1)
    assert e.run("LPOP l") == '"a"'
    assert e.run("RPUSH l b") == integer(1)
    e.run("SADD s a")
    assert e.run("EXPIRE s 10") == integer(1)
    assert e.run("SREM s a") == integer(1)
    assert e.run("SADD s b") == integer(1)
    e.run("HSET h f 1")
    assert e.run("EXPIRE h 10") == integer(1)
    assert e.run("RENAME h h2") == "OK"
    assert e.run("HSET h g 2") == integer(1)
    clock.advance(20_000)
    assert e.run("GET k") == '"again"'
    assert e.run("LRANGE l 0 -1") == '1) "b"'
    assert e.run("SMEMBERS s") == '1) "b"'
    assert e.run("HGETALL h") == '1) "g"\n2) "2"'
    assert e.run("DBSIZE") == integer(4)


def test_flushdb_forgets_every_deadline(probe):
    e, clock = engine(probe)
    e.run("SET f v")
    assert e.run("EXPIRE f 10") == integer(1)
    assert e.run("FLUSHDB") == "OK"
    assert e.run("DBSIZE") == integer(0)
    e.run("SET f w")
    clock.advance(20_000)
    assert e.run("GET f") == '"w"'
