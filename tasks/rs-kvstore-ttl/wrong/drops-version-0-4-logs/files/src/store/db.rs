//! One keyspace: the values, and the deadline of each key that has one (milliseconds since
//! the Unix epoch; a key is gone once the clock reaches its deadline).
//!
//! The keyspace knows the engine's time ([`Db::set_now`], set before every command): a key
//! whose deadline has been reached is absent for every accessor, and is removed the first
//! time one of them looks at it.

use super::stats::Stats;
use super::value::Value;
use std::collections::HashMap;

#[derive(Debug, Default, Clone)]
pub struct Db {
    map: HashMap<String, Value>,
    expires: HashMap<String, u64>,
    stats: Stats,
    now: u64,
}

impl Db {
    pub fn new() -> Db {
        Db::default()
    }

    /// The time against which deadlines are judged, until the next call.
    pub fn set_now(&mut self, now: u64) {
        self.now = now;
    }

    pub fn now(&self) -> u64 {
        self.now
    }

    /// The value of `key` for reading, removing the key first if its deadline has passed.
    pub fn get(&mut self, key: &str, now: u64) -> Option<&Value> {
        self.now = now;
        self.expire_if_due(key);
        let found = self.map.get(key);
        if found.is_some() {
            self.stats.hits += 1;
        } else {
            self.stats.misses += 1;
        }
        found
    }

    /// The value of `key` for changing in place (its deadline stays).
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.expire_if_due(key);
        self.map.get_mut(key)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.map.contains_key(key) && !self.is_due(key)
    }

    /// Stores `value` under `key`, replacing any value it had; the key has no deadline
    /// afterwards.
    pub fn insert(&mut self, key: String, value: Value) {
        self.expires.remove(&key);
        self.map.insert(key, value);
    }

    /// Removes `key` and its deadline; its value if it had one.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.take(key).map(|(v, _)| v)
    }

    /// Removes `key`; its value and deadline if it had a value.
    pub fn take(&mut self, key: &str) -> Option<(Value, Option<u64>)> {
        self.expire_if_due(key);
        let at = self.expires.remove(key);
        self.map.remove(key).map(|v| (v, at))
    }

    /// Every key, in no particular order.
    pub fn keys(&self) -> Vec<&String> {
        self.map.keys().filter(|k| !self.is_due(k)).collect()
    }

    pub fn len(&self) -> usize {
        self.map.keys().filter(|k| !self.is_due(k)).count()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Every key with its value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.map.iter().filter(move |(k, _)| !self.is_due(k))
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.expires.clear();
    }

    /// Gives `key` the deadline `at`; false if there is no such key.
    pub fn set_expiry(&mut self, key: &str, at: u64) -> bool {
        if !self.contains(key) {
            return false;
        }
        self.expires.insert(key.to_string(), at);
        true
    }

    /// The deadline of `key`, if it exists and has one.
    pub fn expiry(&self, key: &str) -> Option<u64> {
        if !self.contains(key) {
            return None;
        }
        self.expires.get(key).copied()
    }

    /// Removes the deadline of `key`; true if it had one.
    pub fn clear_expiry(&mut self, key: &str) -> bool {
        self.expire_if_due(key);
        self.expires.remove(key).is_some()
    }

    /// Every key that has a deadline, with it (including keys already due).
    pub fn deadlines(&self) -> impl Iterator<Item = (&String, &u64)> {
        self.expires.iter()
    }

    /// Removes `key` and its deadline as expired (counted in the stats).
    pub fn expire_now(&mut self, key: &str) {
        if self.map.remove(key).is_some() {
            self.stats.expired_keys += 1;
        }
        self.expires.remove(key);
    }

    /// Removes every key whose deadline has been reached; how many.
    pub fn purge_due(&mut self) -> usize {
        let due: Vec<String> = self
            .expires
            .iter()
            .filter(|(_, at)| **at <= self.now)
            .map(|(k, _)| k.clone())
            .collect();
        for key in &due {
            self.expire_now(key);
        }
        due.len()
    }

    fn is_due(&self, key: &str) -> bool {
        matches!(self.expires.get(key), Some(&at) if at <= self.now)
    }

    /// Removes `key` if its deadline has been reached; true if it did.
    fn expire_if_due(&mut self, key: &str) -> bool {
        if self.is_due(key) {
            self.expire_now(key);
            true
        } else {
            false
        }
    }

    pub fn stats(&self) -> &Stats {
        &self.stats
    }

    pub fn stats_mut(&mut self) -> &mut Stats {
        &mut self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_gone_once_its_deadline_is_reached() {
        let mut db = Db::new();
        db.insert("k".into(), Value::Str("v".into()));
        assert!(db.set_expiry("k", 1_000));
        assert!(db.get("k", 999).is_some());
        assert!(db.get("k", 1_000).is_none());
        assert_eq!(db.stats().expired_keys, 1);
        assert!(!db.set_expiry("k", 2_000));
    }

    #[test]
    fn a_due_key_is_absent_for_every_accessor() {
        let mut db = Db::new();
        db.insert("k".into(), Value::Str("v".into()));
        db.insert("other".into(), Value::Str("w".into()));
        db.set_expiry("k", 50);
        db.set_now(50);
        assert!(!db.contains("k"));
        assert_eq!(db.len(), 1);
        assert_eq!(db.keys(), vec!["other"]);
        assert_eq!(db.iter().count(), 1);
        assert_eq!(db.expiry("k"), None);
        assert!(db.get_mut("k").is_none());
        assert!(db.remove("k").is_none());
    }

    #[test]
    fn overwriting_clears_the_deadline_and_removing_forgets_it() {
        let mut db = Db::new();
        db.insert("k".into(), Value::Str("v".into()));
        db.set_expiry("k", 50);
        db.insert("k".into(), Value::Str("w".into()));
        assert_eq!(db.expiry("k"), None);
        db.set_expiry("k", 50);
        db.remove("k");
        db.insert("k".into(), Value::Str("x".into()));
        db.set_now(60);
        assert!(db.contains("k"));
    }

    #[test]
    fn clear_empties_values_and_deadlines() {
        let mut db = Db::new();
        db.insert("a".into(), Value::Str("1".into()));
        db.set_expiry("a", 10);
        db.clear();
        assert!(db.is_empty());
        assert_eq!(db.deadlines().count(), 0);
    }
}
