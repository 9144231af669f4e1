//! Deadlines: `SET`'s expiry options, the `EXPIRE` family, `TTL`/`PTTL`, `PERSIST`, and
//! which writes keep a key's deadline.

use emberkv::{Engine, ManualClock};

/// A whole second, so that `EXPIREAT` deadlines land on it.
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

fn is_error(reply: &str) -> bool {
    reply.starts_with("(error)")
}

#[test]
fn set_ex_and_px_give_a_deadline() {
    let (mut e, clock) = engine();
    assert_eq!(run(&mut e, "SET k v EX 10"), "OK");
    assert_eq!(run(&mut e, "TTL k"), int(10));
    assert_eq!(run(&mut e, "PTTL k"), int(10_000));
    clock.advance(9_999);
    assert_eq!(run(&mut e, "GET k"), "\"v\"");
    assert_eq!(run(&mut e, "PTTL k"), int(1));
    clock.advance(1);
    assert_eq!(run(&mut e, "GET k"), "(nil)");
    assert_eq!(run(&mut e, "SET p v PX 1500"), "OK");
    assert_eq!(run(&mut e, "PTTL p"), int(1_500));
    clock.advance(1_500);
    assert_eq!(run(&mut e, "EXISTS p"), int(0));
}

#[test]
fn set_options_in_any_order_and_case() {
    let (mut e, _clock) = engine();
    assert_eq!(run(&mut e, "set a v nx ex 5"), "OK");
    assert_eq!(run(&mut e, "PTTL a"), int(5_000));
    assert_eq!(run(&mut e, "SET a w Px 700 xX"), "OK");
    assert_eq!(run(&mut e, "GET a"), "\"w\"");
    assert_eq!(run(&mut e, "PTTL a"), int(700));
    assert_eq!(run(&mut e, "SET b v EX 3 NX"), "OK");
    assert_eq!(run(&mut e, "PTTL b"), int(3_000));
}

#[test]
fn ttl_rounds_to_the_nearest_second() {
    let (mut e, _clock) = engine();
    for (px, ttl) in [
        (2_499, 2),
        (2_500, 3),
        (1_500, 2),
        (499, 0),
        (500, 1),
        (10_000, 10),
    ] {
        assert_eq!(run(&mut e, &format!("SET k v PX {}", px)), "OK");
        assert_eq!(run(&mut e, "TTL k"), int(ttl), "PX {}", px);
        assert_eq!(run(&mut e, "PTTL k"), int(px), "PX {}", px);
    }
}

#[test]
fn ttl_and_pttl_of_missing_and_persistent_keys() {
    let (mut e, _clock) = engine();
    assert_eq!(run(&mut e, "TTL nope"), int(-2));
    assert_eq!(run(&mut e, "PTTL nope"), int(-2));
    run(&mut e, "SET k v");
    run(&mut e, "RPUSH l a");
    assert_eq!(run(&mut e, "TTL k"), int(-1));
    assert_eq!(run(&mut e, "PTTL l"), int(-1));
}

#[test]
fn set_nx_and_xx_that_do_not_apply_change_nothing() {
    let (mut e, _clock) = engine();
    run(&mut e, "SET k old EX 100");
    assert_eq!(run(&mut e, "SET k new NX EX 5"), "(nil)");
    assert_eq!(run(&mut e, "GET k"), "\"old\"");
    assert_eq!(run(&mut e, "PTTL k"), int(100_000));
    assert_eq!(run(&mut e, "SET missing v XX PX 5"), "(nil)");
    assert_eq!(run(&mut e, "EXISTS missing"), int(0));
}

#[test]
fn invalid_expire_times_in_set_are_errors_that_change_nothing() {
    let (mut e, _clock) = engine();
    run(&mut e, "SET k old EX 100");
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
    ] {
        assert!(is_error(&run(&mut e, line)), "{}", line);
        assert_eq!(run(&mut e, "GET k"), "\"old\"", "{}", line);
        assert_eq!(run(&mut e, "PTTL k"), int(100_000), "{}", line);
    }
}

#[test]
fn conflicting_or_unknown_set_options_are_syntax_errors() {
    let (mut e, _clock) = engine();
    for line in [
        "SET k v EX 10 PX 100",
        "SET k v PX 100 EX 10",
        "SET k v EX 10 KEEPTTL",
        "SET k v KEEPTTL PX 10",
        "SET k v NX XX",
        "SET k v EXPIRE 10",
        "SET k v 10",
    ] {
        assert!(is_error(&run(&mut e, line)), "{}", line);
        assert_eq!(run(&mut e, "EXISTS k"), int(0), "{}", line);
    }
}

#[test]
fn keepttl_keeps_the_deadline_the_key_had() {
    let (mut e, clock) = engine();
    run(&mut e, "SET k v EX 100");
    clock.advance(10_000);
    assert_eq!(run(&mut e, "SET k w KEEPTTL"), "OK");
    assert_eq!(run(&mut e, "GET k"), "\"w\"");
    assert_eq!(run(&mut e, "PTTL k"), int(90_000));
    assert_eq!(run(&mut e, "SET k x keepttl XX"), "OK");
    assert_eq!(run(&mut e, "PTTL k"), int(90_000));
    run(&mut e, "SET p v");
    assert_eq!(run(&mut e, "SET p w KEEPTTL"), "OK");
    assert_eq!(run(&mut e, "TTL p"), int(-1));
    assert_eq!(run(&mut e, "SET fresh v KEEPTTL"), "OK");
    assert_eq!(run(&mut e, "TTL fresh"), int(-1));
}

#[test]
fn writes_that_replace_the_value_clear_the_deadline() {
    let (mut e, clock) = engine();
    run(&mut e, "SET a v EX 10");
    run(&mut e, "SET a w");
    run(&mut e, "SET b v EX 10");
    run(&mut e, "MSET x 1 b w y 2");
    run(&mut e, "SET c v EX 10");
    assert_eq!(run(&mut e, "GETSET c w"), "\"v\"");
    run(&mut e, "SET d v EX 10");
    run(&mut e, "SET d w EX 100");
    for key in ["a", "b", "c"] {
        assert_eq!(run(&mut e, &format!("TTL {}", key)), int(-1), "{}", key);
    }
    assert_eq!(run(&mut e, "TTL d"), int(100));
    clock.advance(60_000);
    assert_eq!(
        run(&mut e, "MGET a b c d"),
        "1) \"w\"\n2) \"w\"\n3) \"w\"\n4) \"w\""
    );
}

#[test]
fn writes_that_change_the_value_in_place_keep_the_deadline() {
    let cases: &[(&str, &str)] = &[
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
    ];
    for (setup, write) in cases {
        let (mut e, clock) = engine();
        run(&mut e, setup);
        assert_eq!(run(&mut e, "EXPIRE k 50"), int(1));
        clock.advance(5_000);
        assert!(!is_error(&run(&mut e, write)), "{}", write);
        assert_eq!(
            run(&mut e, "PTTL k"),
            int(45_000),
            "{} then {}",
            setup,
            write
        );
        clock.advance(45_000);
        assert_eq!(run(&mut e, "EXISTS k"), int(0), "{} then {}", setup, write);
    }
}

#[test]
fn rename_moves_the_deadline_with_the_value() {
    let (mut e, clock) = engine();
    run(&mut e, "SET a 1 EX 50");
    run(&mut e, "SET b 2 EX 500");
    assert_eq!(run(&mut e, "RENAME a b"), "OK");
    assert_eq!(run(&mut e, "PTTL b"), int(50_000));
    assert_eq!(run(&mut e, "TTL a"), int(-2));
    run(&mut e, "SET c 3");
    run(&mut e, "SET d 4 EX 100");
    assert_eq!(run(&mut e, "RENAME c d"), "OK");
    assert_eq!(run(&mut e, "TTL d"), int(-1));
    run(&mut e, "RPUSH l x");
    run(&mut e, "PEXPIRE l 7000");
    assert_eq!(run(&mut e, "RENAME l m"), "OK");
    assert_eq!(run(&mut e, "PTTL m"), int(7_000));
    clock.advance(50_000);
    assert_eq!(run(&mut e, "KEYS *"), "1) \"d\"");
    assert_eq!(run(&mut e, "GET d"), "\"3\"");
}

#[test]
fn the_expire_family_sets_relative_and_absolute_deadlines() {
    let (mut e, _clock) = engine();
    run(&mut e, "SET k v");
    assert_eq!(run(&mut e, "EXPIRE k 10"), int(1));
    assert_eq!(run(&mut e, "PTTL k"), int(10_000));
    assert_eq!(run(&mut e, "PEXPIRE k 2500"), int(1));
    assert_eq!(run(&mut e, "PTTL k"), int(2_500));
    let at = T0 / 1000 + 30;
    assert_eq!(run(&mut e, &format!("EXPIREAT k {}", at)), int(1));
    assert_eq!(run(&mut e, "PTTL k"), int(30_000));
    assert_eq!(run(&mut e, &format!("PEXPIREAT k {}", T0 + 1_234)), int(1));
    assert_eq!(run(&mut e, "PTTL k"), int(1_234));
    assert_eq!(run(&mut e, "expire k 20"), int(1));
    assert_eq!(run(&mut e, "TTL k"), int(20));
    for line in [
        "EXPIRE nope 10",
        "PEXPIRE nope 10",
        "EXPIREAT nope 1900000000",
        "PEXPIREAT nope 1900000000000",
    ] {
        assert_eq!(run(&mut e, line), int(0), "{}", line);
        assert_eq!(run(&mut e, "EXISTS nope"), int(0), "{}", line);
    }
}

#[test]
fn a_deadline_that_is_not_in_the_future_deletes_the_key() {
    let past_s = T0 / 1000 - 1;
    let lines = [
        "EXPIRE k 0".to_string(),
        "EXPIRE k -5".to_string(),
        "PEXPIRE k 0".to_string(),
        "PEXPIRE k -1".to_string(),
        format!("EXPIREAT k {}", past_s),
        format!("EXPIREAT k {}", T0 / 1000),
        "EXPIREAT k -1".to_string(),
        format!("PEXPIREAT k {}", T0),
        "PEXPIREAT k 1".to_string(),
    ];
    for line in &lines {
        let (mut e, _clock) = engine();
        run(&mut e, "SET k v");
        run(&mut e, "SET other v");
        assert_eq!(run(&mut e, line), int(1), "{}", line);
        assert_eq!(run(&mut e, "EXISTS k"), int(0), "{}", line);
        assert_eq!(run(&mut e, "KEYS *"), "1) \"other\"", "{}", line);
        assert_eq!(run(&mut e, "TTL k"), int(-2), "{}", line);
        assert_eq!(run(&mut e, line), int(0), "{}", line);
    }
}

#[test]
fn expire_times_out_of_range_are_errors_that_change_nothing() {
    for line in [
        "EXPIRE k 9223372036854775807",
        "EXPIRE k -9223372036854775808",
        "EXPIRE k 9223372036854776",
        "PEXPIRE k 9223372036854775807",
        "EXPIREAT k 9223372036854775807",
        "EXPIRE k ten",
        "PEXPIRE k 1.5",
        "EXPIREAT k",
    ] {
        let (mut e, _clock) = engine();
        run(&mut e, "SET k v EX 100");
        assert!(is_error(&run(&mut e, line)), "{}", line);
        assert_eq!(run(&mut e, "GET k"), "\"v\"", "{}", line);
        assert_eq!(run(&mut e, "PTTL k"), int(100_000), "{}", line);
    }
    let (mut e, _clock) = engine();
    run(&mut e, "SET k v");
    assert_eq!(run(&mut e, "PEXPIREAT k 9223372036854775807"), int(1));
    assert_eq!(
        run(&mut e, "PTTL k"),
        int(9_223_372_036_854_775_807 - T0 as i64)
    );
}

#[test]
fn persist_removes_the_deadline() {
    let (mut e, clock) = engine();
    run(&mut e, "SET k v EX 10");
    assert_eq!(run(&mut e, "PERSIST k"), int(1));
    assert_eq!(run(&mut e, "TTL k"), int(-1));
    assert_eq!(run(&mut e, "PERSIST k"), int(0));
    assert_eq!(run(&mut e, "PERSIST nope"), int(0));
    run(&mut e, "HSET h f v");
    assert_eq!(run(&mut e, "PEXPIRE h 100"), int(1));
    assert_eq!(run(&mut e, "persist h"), int(1));
    clock.advance(20_000);
    assert_eq!(run(&mut e, "GET k"), "\"v\"");
    assert_eq!(run(&mut e, "HGET h f"), "\"v\"");
    assert_eq!(run(&mut e, "EXPIRE k 5"), int(1));
    assert_eq!(run(&mut e, "TTL k"), int(5));
}

#[test]
fn reads_do_not_change_the_deadline() {
    let (mut e, clock) = engine();
    run(&mut e, "SET k v EX 10");
    clock.advance(4_000);
    for line in [
        "GET k", "STRLEN k", "TYPE k", "EXISTS k", "KEYS *", "TTL k", "MGET k", "DBSIZE",
    ] {
        run(&mut e, line);
    }
    assert_eq!(run(&mut e, "PTTL k"), int(6_000));
    clock.advance(6_000);
    assert_eq!(run(&mut e, "GET k"), "(nil)");
}
