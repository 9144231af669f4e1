//! A key whose deadline has been reached is absent for every command, whatever the command
//! and whatever the key held.

use emberkv::{Engine, ManualClock};

const T0: u64 = 1_700_000_000_000;

fn engine() -> (Engine, ManualClock) {
    let clock = ManualClock::new(T0);
    (Engine::new(clock.clone()), clock)
}

fn run(e: &mut Engine, line: &str) -> String {
    e.execute(line).to_string()
}

fn int(n: i64) -> String {
    format!("(integer) {}", n)
}

/// Runs `setup`, gives `key` a one-second deadline and lets it pass.
fn expired(e: &mut Engine, clock: &ManualClock, setup: &[&str], key: &str) {
    for line in setup {
        assert!(!e.execute(line).is_error(), "{}", line);
    }
    assert_eq!(run(e, &format!("EXPIRE {} 1", key)), int(1));
    clock.advance(1_000);
}

#[test]
fn a_key_is_gone_exactly_at_its_deadline() {
    let (mut e, clock) = engine();
    run(&mut e, "SET k v");
    assert_eq!(run(&mut e, "EXPIRE k 1"), int(1));
    clock.advance(999);
    assert_eq!(run(&mut e, "EXISTS k"), int(1));
    assert_eq!(run(&mut e, "DBSIZE"), int(1));
    clock.advance(1);
    assert_eq!(run(&mut e, "EXISTS k"), int(0));
    assert_eq!(run(&mut e, "DBSIZE"), int(0));
    assert_eq!(run(&mut e, "GET k"), "(nil)");
}

#[test]
fn exists_and_dbsize_do_not_count_expired_keys() {
    let (mut e, clock) = engine();
    run(&mut e, "SET live 1");
    run(&mut e, "RPUSH list a");
    expired(&mut e, &clock, &["SET gone x"], "gone");
    assert_eq!(run(&mut e, "EXISTS gone"), int(0));
    assert_eq!(run(&mut e, "EXISTS live gone live list"), int(3));
    assert_eq!(run(&mut e, "DBSIZE"), int(2));
}

#[test]
fn keys_lists_only_live_keys() {
    let (mut e, clock) = engine();
    run(&mut e, "SET user:1 a");
    run(&mut e, "SET user:2 b");
    run(&mut e, "HSET user:3 name c");
    assert_eq!(run(&mut e, "EXPIRE user:2 1"), int(1));
    assert_eq!(run(&mut e, "EXPIRE user:3 1"), int(1));
    clock.advance(1_000);
    assert_eq!(run(&mut e, "KEYS *"), "1) \"user:1\"");
    assert_eq!(run(&mut e, "KEYS user:[23]"), "(empty array)");
}

#[test]
fn type_strlen_and_mget_see_nothing() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["SET gone abc", "SADD gset m"], "gone");
    assert_eq!(run(&mut e, "EXPIRE gset 0"), int(1));
    assert_eq!(run(&mut e, "TYPE gone"), "none");
    assert_eq!(run(&mut e, "TYPE gset"), "none");
    assert_eq!(run(&mut e, "STRLEN gone"), int(0));
    assert_eq!(run(&mut e, "MGET gone"), "1) (nil)");
}

#[test]
fn reads_of_every_type_see_nothing() {
    let (mut e, clock) = engine();
    for line in ["RPUSH l a b", "HSET h f v", "SADD s m"] {
        assert!(!e.execute(line).is_error(), "{}", line);
    }
    for key in ["l", "h", "s"] {
        assert_eq!(run(&mut e, &format!("PEXPIRE {} 1", key)), int(1), "{}", key);
    }
    clock.advance(1);
    assert_eq!(run(&mut e, "LINDEX l 0"), "(nil)");
    assert_eq!(run(&mut e, "LRANGE l 0 -1"), "(empty array)");
    assert_eq!(run(&mut e, "HGET h f"), "(nil)");
    assert_eq!(run(&mut e, "HEXISTS h f"), int(0));
    assert_eq!(run(&mut e, "HGETALL h"), "(empty array)");
    assert_eq!(run(&mut e, "SMEMBERS s"), "(empty array)");
    assert_eq!(run(&mut e, "SCARD s"), int(0));
    let at = T0 / 1000 + 100;
    assert_eq!(run(&mut e, &format!("EXPIREAT l {}", at)), int(0));
    assert_eq!(run(&mut e, &format!("PEXPIREAT h {}", T0 + 100_000)), int(0));
    assert_eq!(run(&mut e, "DBSIZE"), int(0));
}

#[test]
fn del_does_not_count_expired_keys() {
    let (mut e, clock) = engine();
    run(&mut e, "SET live 1");
    expired(&mut e, &clock, &["SET gone x"], "gone");
    assert_eq!(run(&mut e, "DEL gone"), int(0));
    assert_eq!(run(&mut e, "DEL gone live"), int(1));
    assert_eq!(run(&mut e, "DBSIZE"), int(0));
}

#[test]
fn counters_start_again_from_zero() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["SET n 10"], "n");
    assert_eq!(run(&mut e, "INCR n"), int(1));
    assert_eq!(run(&mut e, "TTL n"), int(-1));
    expired(&mut e, &clock, &["SET m 10"], "m");
    assert_eq!(run(&mut e, "DECRBY m 3"), int(-3));
    expired(&mut e, &clock, &["SET o 10"], "o");
    assert_eq!(run(&mut e, "INCRBY o 5"), int(5));
    expired(&mut e, &clock, &["SET p 10"], "p");
    assert_eq!(run(&mut e, "DECR p"), int(-1));
    assert_eq!(run(&mut e, "GET p"), "\"-1\"");
}

#[test]
fn append_and_getset_start_from_nothing() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["SET s hello"], "s");
    assert_eq!(run(&mut e, "APPEND s xy"), int(2));
    assert_eq!(run(&mut e, "GET s"), "\"xy\"");
    assert_eq!(run(&mut e, "TTL s"), int(-1));
    expired(&mut e, &clock, &["SET g old"], "g");
    assert_eq!(run(&mut e, "GETSET g new"), "(nil)");
    assert_eq!(run(&mut e, "GET g"), "\"new\"");
}

#[test]
fn conditional_sets_treat_expired_keys_as_missing() {
    let (mut e, clock) = engine();
    expired(
        &mut e,
        &clock,
        &["SET a old", "SET b old", "SET c old"],
        "a",
    );
    assert_eq!(run(&mut e, "EXPIRE b 0"), int(1));
    assert_eq!(run(&mut e, "PEXPIRE c 1"), int(1));
    clock.advance(1);
    assert_eq!(run(&mut e, "SETNX a new"), int(1));
    assert_eq!(run(&mut e, "GET a"), "\"new\"");
    assert_eq!(run(&mut e, "SET b new NX"), "OK");
    assert_eq!(run(&mut e, "GET b"), "\"new\"");
    assert_eq!(run(&mut e, "SET c new XX"), "(nil)");
    assert_eq!(run(&mut e, "EXISTS c"), int(0));
}

#[test]
fn an_expired_key_of_another_type_is_no_type_error() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["RPUSH l a b"], "l");
    assert_eq!(run(&mut e, "GET l"), "(nil)");
    assert_eq!(run(&mut e, "INCR l"), int(1));
    expired(&mut e, &clock, &["HSET h f v"], "h");
    assert_eq!(run(&mut e, "APPEND h abc"), int(3));
    expired(&mut e, &clock, &["SET s v"], "s");
    assert_eq!(run(&mut e, "SADD s m"), int(1));
    assert_eq!(run(&mut e, "TYPE s"), "set");
}

#[test]
fn lists_start_empty() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["RPUSH l a b c"], "l");
    assert_eq!(run(&mut e, "LLEN l"), int(0));
    assert_eq!(run(&mut e, "LPOP l"), "(nil)");
    assert_eq!(run(&mut e, "LPUSH l x"), int(1));
    assert_eq!(run(&mut e, "LRANGE l 0 -1"), "1) \"x\"");
    assert_eq!(run(&mut e, "TTL l"), int(-1));
    expired(&mut e, &clock, &["RPUSH r a b"], "r");
    assert_eq!(run(&mut e, "RPOP r"), "(nil)");
    assert_eq!(run(&mut e, "RPUSH r z"), int(1));
}

#[test]
fn hashes_start_empty() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["HSET h f 1 g 2"], "h");
    assert_eq!(run(&mut e, "HDEL h f"), int(0));
    assert_eq!(run(&mut e, "HLEN h"), int(0));
    assert_eq!(run(&mut e, "HSET h g 3"), int(1));
    assert_eq!(run(&mut e, "HGETALL h"), "1) \"g\"\n2) \"3\"");
    assert_eq!(run(&mut e, "TTL h"), int(-1));
}

#[test]
fn sets_start_empty() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["SADD s a b"], "s");
    assert_eq!(run(&mut e, "SREM s a"), int(0));
    assert_eq!(run(&mut e, "SISMEMBER s b"), int(0));
    assert_eq!(run(&mut e, "SADD s c"), int(1));
    assert_eq!(run(&mut e, "SMEMBERS s"), "1) \"c\"");
    assert_eq!(run(&mut e, "SCARD s"), int(1));
}

#[test]
fn rename_of_an_expired_key_is_an_error() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["SET gone x"], "gone");
    assert!(run(&mut e, "RENAME gone other").starts_with("(error)"));
    assert_eq!(run(&mut e, "EXISTS other"), int(0));
    assert_eq!(run(&mut e, "DBSIZE"), int(0));
}

#[test]
fn rename_onto_an_expired_key_gives_it_the_new_value_for_good() {
    let (mut e, clock) = engine();
    run(&mut e, "SET src v");
    expired(&mut e, &clock, &["SET dst old"], "dst");
    assert_eq!(run(&mut e, "RENAME src dst"), "OK");
    assert_eq!(run(&mut e, "GET dst"), "\"v\"");
    assert_eq!(run(&mut e, "TTL dst"), int(-1));
    clock.advance(3_600_000);
    assert_eq!(run(&mut e, "GET dst"), "\"v\"");
}

#[test]
fn time_commands_see_an_expired_key_as_missing() {
    let (mut e, clock) = engine();
    expired(&mut e, &clock, &["SET gone x"], "gone");
    assert_eq!(run(&mut e, "TTL gone"), int(-2));
    assert_eq!(run(&mut e, "PTTL gone"), int(-2));
    assert_eq!(run(&mut e, "PERSIST gone"), int(0));
    assert_eq!(run(&mut e, "EXPIRE gone 100"), int(0));
    assert_eq!(run(&mut e, "PEXPIRE gone 100"), int(0));
    assert_eq!(run(&mut e, "EXISTS gone"), int(0));
}

#[test]
fn a_key_deleted_and_written_again_has_no_deadline() {
    let (mut e, clock) = engine();
    run(&mut e, "SET k v");
    assert_eq!(run(&mut e, "EXPIRE k 10"), int(1));
    assert_eq!(run(&mut e, "DEL k"), int(1));
    run(&mut e, "SET k again");
    assert_eq!(run(&mut e, "TTL k"), int(-1));
    run(&mut e, "RPUSH l a");
    assert_eq!(run(&mut e, "EXPIRE l 10"), int(1));
    assert_eq!(run(&mut e, "LPOP l"), "\"a\"");
    assert_eq!(run(&mut e, "RPUSH l b"), int(1));
    run(&mut e, "SADD s a");
    assert_eq!(run(&mut e, "EXPIRE s 10"), int(1));
    assert_eq!(run(&mut e, "SREM s a"), int(1));
    assert_eq!(run(&mut e, "SADD s b"), int(1));
    run(&mut e, "HSET h f 1");
    assert_eq!(run(&mut e, "EXPIRE h 10"), int(1));
    assert_eq!(run(&mut e, "RENAME h h2"), "OK");
    assert_eq!(run(&mut e, "HSET h g 2"), int(1));
    clock.advance(20_000);
    assert_eq!(run(&mut e, "GET k"), "\"again\"");
    assert_eq!(run(&mut e, "LRANGE l 0 -1"), "1) \"b\"");
    assert_eq!(run(&mut e, "SMEMBERS s"), "1) \"b\"");
    assert_eq!(run(&mut e, "HGETALL h"), "1) \"g\"\n2) \"2\"");
    assert_eq!(run(&mut e, "DBSIZE"), int(4));
}

#[test]
fn flushdb_forgets_every_deadline() {
    let (mut e, clock) = engine();
    run(&mut e, "SET f v");
    assert_eq!(run(&mut e, "EXPIRE f 10"), int(1));
    assert_eq!(run(&mut e, "FLUSHDB"), "OK");
    assert_eq!(run(&mut e, "DBSIZE"), int(0));
    run(&mut e, "SET f w");
    clock.advance(20_000);
    assert_eq!(run(&mut e, "GET f"), "\"w\"");
}
