//! Snapshots: a text image of a keyspace.
//!
//! ```text
//! EMBERKV 2
//! string <key> <value>
//! list <key> <element>...
//! hash <key> <field> <value>...
//! set <key> <member>...
//! expire <key> <deadline>
//! end
//! ```
//!
//! Every key and element is a token of [`super::escape`]; keys are written in sorted order.
//! A key with a deadline (milliseconds since the Unix epoch) has an `expire` line right
//! after its record. Version 1 (written before 0.5) has no `expire` lines; it still loads.
//! Keys already expired when the snapshot is written are left out.

use super::escape::{decode, encode};
use crate::error::{Error, Result};
use crate::store::{Db, Value};

pub const MAGIC: &str = "EMBERKV";
pub const VERSION: u32 = 2;
/// Every version [`read`] accepts.
pub const READABLE: [u32; 2] = [1, 2];

/// The snapshot of `db`.
pub fn write(db: &Db) -> String {
    let mut keys: Vec<&String> = db.iter().map(|(k, _)| k).collect();
    keys.sort();
    let mut out = format!("{} {}\n", MAGIC, VERSION);
    for key in keys {
        let value = match db.iter().find(|(k, _)| *k == key) {
            Some((_, v)) => v,
            None => continue,
        };
        out.push_str(&record(key, value));
        out.push('\n');
        if let Some(at) = db.expiry(key) {
            out.push_str(&format!("expire {} {}\n", encode(key), at.saturating_sub(db.now())));
        }
    }
    out.push_str("end\n");
    out
}

fn record(key: &str, value: &Value) -> String {
    let mut parts = vec![value.type_name().to_string(), encode(key)];
    match value {
        Value::Str(s) => parts.push(encode(s)),
        Value::List(l) => parts.extend(l.iter().map(|e| encode(e))),
        Value::Hash(h) => {
            for (f, v) in h {
                parts.push(encode(f));
                parts.push(encode(v));
            }
        }
        Value::Set(s) => parts.extend(s.iter().map(|m| encode(m))),
    }
    parts.join(" ")
}

/// The keyspace a snapshot holds; deadlines count from `now`.
pub fn read_at(text: &str, now: u64) -> Result<Db> {
    let mut db = read(text)?;
    let left: Vec<(String, u64)> = db.deadlines().map(|(k, at)| (k.clone(), *at)).collect();
    for (k, ms) in left {
        db.set_expiry(&k, now + ms);
    }
    Ok(db)
}

/// The keyspace a snapshot holds.
pub fn read(text: &str) -> Result<Db> {
    let mut lines = text.lines().enumerate();
    let bad = |line: usize, message: &str| Error::Snapshot {
        line: line + 1,
        message: message.to_string(),
    };
    let version = match lines.next() {
        Some((i, header)) => READABLE
            .iter()
            .copied()
            .find(|v| header == format!("{} {}", MAGIC, v))
            .ok_or_else(|| bad(i, "not an emberkv snapshot of a known version"))?,
        None => return Err(bad(0, "empty snapshot")),
    };
    let mut db = Db::new();
    for (i, line) in lines {
        if line == "end" {
            return Ok(db);
        }
        let mut words = line.split(' ');
        let kind = words.next().unwrap_or("");
        let key = words
            .next()
            .and_then(decode)
            .ok_or_else(|| bad(i, "missing or malformed key"))?;
        if kind == "expire" && version >= 2 {
            let at = match (words.next().map(|w| w.parse::<u64>()), words.next()) {
                (Some(Ok(at)), None) => at,
                _ => return Err(bad(i, "malformed deadline")),
            };
            if !db.set_expiry(&key, at) {
                return Err(bad(i, "deadline of a key the snapshot does not hold"));
            }
            continue;
        }
        let rest: Vec<String> = words
            .map(|w| decode(w).ok_or_else(|| bad(i, "malformed token")))
            .collect::<Result<_>>()?;
        let value = match kind {
            "string" if rest.len() == 1 => Value::Str(rest[0].clone()),
            "list" if !rest.is_empty() => Value::List(rest.into_iter().collect()),
            "hash" if !rest.is_empty() && rest.len() % 2 == 0 => Value::Hash(
                rest.chunks(2)
                    .map(|p| (p[0].clone(), p[1].clone()))
                    .collect(),
            ),
            "set" if !rest.is_empty() => Value::Set(rest.into_iter().collect()),
            _ => return Err(bad(i, "unknown record")),
        };
        db.insert(key, value);
    }
    Err(bad(text.lines().count(), "snapshot ends without `end`"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_round_trips() {
        let mut db = Db::new();
        db.insert("s".into(), Value::Str("a b".into()));
        db.insert("e".into(), Value::Str(String::new()));
        db.insert(
            "l".into(),
            Value::List(vec!["x".to_string(), "y z".to_string()].into()),
        );
        db.insert(
            "h".into(),
            Value::Hash(
                vec![("f".to_string(), "v".to_string())]
                    .into_iter()
                    .collect(),
            ),
        );
        db.insert(
            "t".into(),
            Value::Set(vec!["m".to_string()].into_iter().collect()),
        );
        let text = write(&db);
        assert!(
            text.starts_with("EMBERKV 2\nstring e ~\nhash h f v\n"),
            "{}",
            text
        );
        let back = read(&text).unwrap();
        assert_eq!(back.len(), 5);
        for (k, v) in db.iter() {
            assert_eq!(
                back.iter().find(|(bk, _)| *bk == k).map(|(_, bv)| bv),
                Some(v)
            );
        }
    }

    #[test]
    fn deadlines_round_trip_and_version_1_still_loads() {
        let mut db = Db::new();
        db.insert("a".into(), Value::Str("1".into()));
        db.insert("b".into(), Value::Str("2".into()));
        db.set_expiry("a", 5_000);
        let text = write(&db);
        assert!(text.contains("expire a 5000\n"), "{}", text);
        let back = read_at(&text, 0).unwrap();
        assert_eq!(back.expiry("a"), Some(5_000));
        assert_eq!(back.expiry("b"), None);
        let old = read("EMBERKV 1\nstring a 1\nend\n").unwrap();
        assert_eq!(old.len(), 1);
        assert!(read("EMBERKV 1\nstring a 1\nexpire a 5\nend\n").is_err());
    }

    #[test]
    fn truncated_or_foreign_text_is_refused() {
        assert!(read("").is_err());
        assert!(read("REDIS0009\n").is_err());
        assert!(read("EMBERKV 1\nstring a b\n").is_err());
        assert!(read("EMBERKV 1\nzset a b\nend\n").is_err());
        assert!(read("EMBERKV 3\nend\n").is_err());
        assert!(read("EMBERKV 2\nexpire a 5\nend\n").is_err());
    }
}
