//! Deadlines survive a snapshot and a replay of the append-only log: what is loaded later is
//! exactly what the original engine holds at that later time.

use emberkv::{Engine, ManualClock};

const T0: u64 = 1_700_000_000_000;

fn run(e: &mut Engine, line: &str) -> String {
    e.execute(line).to_string()
}

fn int(n: i64) -> String {
    format!("(integer) {}", n)
}

/// Every live key with its type, value and milliseconds left, in key order.
fn state(e: &mut Engine) -> Vec<String> {
    let listing = run(e, "KEYS *");
    let keys: Vec<String> = if listing == "(empty array)" {
        Vec::new()
    } else {
        listing
            .lines()
            .map(|l| {
                let quoted = l.splitn(2, ") ").nth(1).expect("a KEYS line");
                quoted[1..quoted.len() - 1].to_string()
            })
            .collect()
    };
    keys.iter()
        .map(|k| {
            let kind = run(e, &format!("TYPE {}", k));
            let value = match kind.as_str() {
                "string" => run(e, &format!("GET {}", k)),
                "list" => run(e, &format!("LRANGE {} 0 -1", k)),
                "hash" => run(e, &format!("HGETALL {}", k)),
                "set" => run(e, &format!("SMEMBERS {}", k)),
                other => panic!("key {} has type {}", k, other),
            };
            let left = run(e, &format!("PTTL {}", k));
            format!("{} {} [{}] {}", k, kind, value.replace('\n', " | "), left)
        })
        .collect()
}

fn logging(clock: &ManualClock) -> Engine {
    let mut e = Engine::new(clock.clone());
    e.enable_aof();
    e
}

fn script(e: &mut Engine, lines: &[&str]) {
    for line in lines {
        assert!(!e.execute(line).is_error(), "{}", line);
    }
}

/// The log of `original` replayed with the same clock gives the same state as `original`
/// has now.
fn replay_matches(original: &mut Engine, clock: &ManualClock) -> Engine {
    let mut replayed = Engine::replay(original.aof(), clock.clone()).expect("the log replays");
    let want = state(original);
    assert_eq!(
        state(&mut replayed),
        want,
        "log:\n{}",
        original.aof().join("\n")
    );
    replayed
}

fn typed_keys_with_deadlines(e: &mut Engine) {
    script(
        e,
        &[
            "SET a 1 EX 100",
            "RPUSH l x \"y z\"",
            "PEXPIRE l 5000",
            "HSET h f v g \"\"",
            "EXPIRE h 30",
            "SADD s m n",
            "EXPIRE s 60",
            "SET p forever",
            "SET q 1 PX 2500",
        ],
    );
}

#[test]
fn a_snapshot_keeps_each_deadline_as_a_point_in_time() {
    let clock = ManualClock::new(T0);
    let mut e = Engine::new(clock.clone());
    typed_keys_with_deadlines(&mut e);
    clock.advance(2_000);
    let text = e.snapshot();
    clock.advance(1_000);
    let mut loaded = Engine::from_snapshot(&text, clock.clone()).expect("the snapshot loads");
    let want = state(&mut e);
    assert_eq!(state(&mut loaded), want);
    assert_eq!(run(&mut loaded, "PTTL a"), int(97_000));
    assert_eq!(run(&mut loaded, "TTL q"), int(-2));
    clock.advance(2_000);
    assert_eq!(run(&mut loaded, "EXISTS l"), int(0));
    assert_eq!(run(&mut loaded, "DBSIZE"), int(4));
}

#[test]
fn keys_whose_deadline_passed_while_the_snapshot_was_stored_do_not_come_back() {
    let clock = ManualClock::new(T0);
    let mut e = Engine::new(clock.clone());
    typed_keys_with_deadlines(&mut e);
    let text = e.snapshot();
    let later = ManualClock::new(T0 + 45_000);
    let mut loaded = Engine::from_snapshot(&text, later.clone()).expect("the snapshot loads");
    assert_eq!(run(&mut loaded, "KEYS *"), "1) \"a\"\n2) \"p\"\n3) \"s\"");
    assert_eq!(run(&mut loaded, "DBSIZE"), int(3));
    assert_eq!(run(&mut loaded, "PTTL a"), int(55_000));
    assert_eq!(run(&mut loaded, "PTTL s"), int(15_000));
    assert_eq!(run(&mut loaded, "TTL p"), int(-1));
    assert_eq!(run(&mut loaded, "INCR h"), int(1));
    later.advance(15_000);
    assert_eq!(run(&mut loaded, "SMEMBERS s"), "(empty array)");
}

#[test]
fn a_snapshot_leaves_out_keys_that_have_expired() {
    let clock = ManualClock::new(T0);
    let mut e = Engine::new(clock.clone());
    script(
        &mut e,
        &[
            "SET goner-string x PX 10",
            "RPUSH goner-list a",
            "PEXPIRE goner-list 10",
            "SET stay y",
        ],
    );
    clock.advance(10);
    let text = e.snapshot();
    assert!(!text.contains("goner"), "{}", text);
    let mut loaded =
        Engine::from_snapshot(&text, ManualClock::new(T0)).expect("the snapshot loads");
    assert_eq!(run(&mut loaded, "KEYS *"), "1) \"stay\"");
}

#[test]
fn a_snapshot_written_before_deadlines_were_kept_still_loads() {
    let old = "EMBERKV 1\nhash user name ann%20lee\nlist jobs a b\nset tags x y\nstring greeting hello%20world\nstring empty ~\nend\n";
    let clock = ManualClock::new(T0);
    let mut e = Engine::from_snapshot(old, clock.clone()).expect("a version 1 snapshot loads");
    assert_eq!(run(&mut e, "DBSIZE"), int(5));
    assert_eq!(run(&mut e, "GET greeting"), "\"hello world\"");
    assert_eq!(run(&mut e, "GET empty"), "\"\"");
    assert_eq!(run(&mut e, "HGET user name"), "\"ann lee\"");
    assert_eq!(run(&mut e, "LRANGE jobs 0 -1"), "1) \"a\"\n2) \"b\"");
    assert_eq!(run(&mut e, "SMEMBERS tags"), "1) \"x\"\n2) \"y\"");
    for key in ["user", "jobs", "tags", "greeting", "empty"] {
        assert_eq!(run(&mut e, &format!("TTL {}", key)), int(-1), "{}", key);
    }
    clock.advance(365 * 24 * 3_600_000);
    assert_eq!(run(&mut e, "DBSIZE"), int(5));
}

#[test]
fn a_snapshot_of_a_loaded_snapshot_is_the_same_keyspace() {
    let clock = ManualClock::new(T0);
    let mut e = Engine::new(clock.clone());
    typed_keys_with_deadlines(&mut e);
    script(&mut e, &["PERSIST h", "SET a 2 KEEPTTL"]);
    let first = e.snapshot();
    let mut loaded = Engine::from_snapshot(&first, clock.clone()).expect("loads");
    let second = loaded.snapshot();
    let mut again = Engine::from_snapshot(&second, clock.clone()).expect("loads again");
    let want = state(&mut e);
    assert_eq!(state(&mut again), want);
    assert_eq!(run(&mut again, "TTL h"), int(-1));
    assert_eq!(run(&mut again, "PTTL a"), int(100_000));
    clock.advance(100_000);
    assert_eq!(state(&mut again), state(&mut e));
}

#[test]
fn a_malformed_snapshot_is_refused() {
    for text in [
        "",
        "EMBERKV\nend\n",
        "EMBERKV 9\nend\n",
        "EMBERKV 1\nstring a\nend\n",
        "EMBERKV 1\nstring a b\n",
    ] {
        assert!(
            Engine::from_snapshot(text, ManualClock::new(T0)).is_err(),
            "{:?}",
            text
        );
    }
}

#[test]
fn a_log_replayed_later_keeps_each_deadline_as_a_point_in_time() {
    let clock = ManualClock::new(T0);
    let mut e = logging(&clock);
    typed_keys_with_deadlines(&mut e);
    clock.advance(1_000);
    script(
        &mut e,
        &["SET b 2", "EXPIRE b 50", "PEXPIREAT c 1", "SET c 3 EX 20"],
    );
    replay_matches(&mut e, &clock);
    clock.advance(29_000);
    let mut r = replay_matches(&mut e, &clock);
    assert_eq!(run(&mut r, "PTTL a"), int(70_000));
    assert_eq!(run(&mut r, "PTTL b"), int(21_000));
    assert_eq!(run(&mut r, "EXISTS l q c"), int(0));
    clock.advance(40_000);
    replay_matches(&mut e, &clock);
}

#[test]
fn a_replay_does_not_revive_keys_that_expired_after_their_last_write() {
    let clock = ManualClock::new(T0);
    let mut e = logging(&clock);
    script(
        &mut e,
        &[
            "SET n 5 EX 10",
            "RPUSH l a",
            "EXPIRE l 10",
            "HSET h f 1",
            "EXPIRE h 10",
            "SADD s a",
            "EXPIRE s 10",
            "SET t abc PX 10000",
        ],
    );
    clock.advance(1_000);
    script(
        &mut e,
        &[
            "INCR n",
            "RPUSH l b",
            "HSET h g 2",
            "SADD s b",
            "APPEND t def",
            "SET u 1 EX 9 NX",
        ],
    );
    clock.advance(30_000);
    assert_eq!(run(&mut e, "DBSIZE"), int(0));
    let mut r = replay_matches(&mut e, &clock);
    assert_eq!(run(&mut r, "DBSIZE"), int(0));
}

#[test]
fn a_replay_rebuilds_keys_written_again_after_they_expired() {
    let clock = ManualClock::new(T0);
    let mut e = logging(&clock);
    script(
        &mut e,
        &[
            "SET n 5 EX 10",
            "RPUSH l a b",
            "EXPIRE l 10",
            "SET s old EX 10",
            "HSET h f 1",
            "EXPIRE h 10",
            "SET x 1 PX 500",
        ],
    );
    clock.advance(20_000);
    script(
        &mut e,
        &[
            "INCR n",
            "RPUSH l c",
            "SET s new NX",
            "HSET h g 2",
            "SET x 2 XX",
            "SETNX x 3",
        ],
    );
    let mut r = replay_matches(&mut e, &clock);
    assert_eq!(run(&mut r, "GET n"), "\"1\"");
    assert_eq!(run(&mut r, "LRANGE l 0 -1"), "1) \"c\"");
    assert_eq!(run(&mut r, "GET s"), "\"new\"");
    assert_eq!(run(&mut r, "HGETALL h"), "1) \"g\"\n2) \"2\"");
    assert_eq!(run(&mut r, "GET x"), "\"3\"");
    clock.advance(3_600_000);
    replay_matches(&mut e, &clock);
}

#[test]
fn a_replay_keeps_what_was_written_before_a_deadline_that_was_then_removed() {
    let clock = ManualClock::new(T0);
    let mut e = logging(&clock);
    script(
        &mut e,
        &[
            "SET k 5 EX 10",
            "RPUSH l a",
            "EXPIRE l 10",
            "SADD s a",
            "PEXPIRE s 10000",
            "SET t x EX 10",
        ],
    );
    clock.advance(1_000);
    script(
        &mut e,
        &[
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
        ],
    );
    clock.advance(60_000);
    let mut r = replay_matches(&mut e, &clock);
    assert_eq!(run(&mut r, "GET k"), "\"6\"");
    assert_eq!(run(&mut r, "LRANGE m 0 -1"), "1) \"a\"\n2) \"b\"");
    assert_eq!(run(&mut r, "GET s"), "\"y\"");
    assert_eq!(run(&mut r, "DBSIZE"), int(3));
}

#[test]
fn a_replay_keeps_persist_rename_and_overwrites() {
    let clock = ManualClock::new(T0);
    let mut e = logging(&clock);
    script(
        &mut e,
        &[
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
        ],
    );
    clock.advance(7_000);
    let mut r = replay_matches(&mut e, &clock);
    assert_eq!(
        run(&mut r, "KEYS *"),
        "1) \"a\"\n2) \"c\"\n3) \"d\"\n4) \"f\"\n5) \"g\"\n6) \"h\"\n7) \"j\""
    );
    assert_eq!(run(&mut r, "PTTL c"), int(3_000));
    clock.advance(3_000);
    replay_matches(&mut e, &clock);
}

#[test]
fn a_replayed_engine_keeps_logging_and_replays_again() {
    let clock = ManualClock::new(T0);
    let mut e = logging(&clock);
    script(&mut e, &["SET a 1 EX 100", "RPUSH l x", "EXPIRE l 20"]);
    clock.advance(10_000);
    let mut r = replay_matches(&mut e, &clock);
    script(&mut r, &["SET z 1 EX 5", "RPUSH l y", "PERSIST a"]);
    clock.advance(6_000);
    let mut again = Engine::replay(r.aof(), clock.clone()).expect("the log replays");
    let want = state(&mut r);
    assert_eq!(state(&mut again), want);
    assert_eq!(run(&mut again, "PTTL l"), int(4_000));
    assert_eq!(run(&mut again, "TTL a"), int(-1));
    assert_eq!(run(&mut again, "EXISTS z"), int(0));
}

#[test]
fn a_log_written_before_deadlines_were_kept_still_replays() {
    let old: Vec<String> = [
        "# emberkv 0.4",
        "SET greeting \"hello world\"",
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
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut r = Engine::replay(&old, ManualClock::new(T0)).expect("a 0.4 log replays");
    assert_eq!(
        state(&mut r),
        [
            "counter string [\"2\"] (integer) -1",
            "greeting string [\"hello world\"] (integer) -1",
            "jobs list [1) \"b\" | 2) \"c\"] (integer) -1",
            "tags set [1) \"x\" | 2) \"y\"] (integer) -1",
            "user hash [1) \"name\" | 2) \"ann\"] (integer) -1",
        ]
    );
}

#[test]
fn a_snapshot_of_a_replayed_log_keeps_the_deadlines() {
    let clock = ManualClock::new(T0);
    let mut e = logging(&clock);
    typed_keys_with_deadlines(&mut e);
    clock.advance(3_000);
    let mut r = Engine::replay(e.aof(), clock.clone()).expect("the log replays");
    let text = r.snapshot();
    clock.advance(10_000);
    let mut loaded = Engine::from_snapshot(&text, clock.clone()).expect("the snapshot loads");
    let want = state(&mut e);
    assert_eq!(state(&mut loaded), want);
    assert_eq!(run(&mut loaded, "PTTL h"), int(17_000));
}
