//! One keyspace: the values, and the deadline of each key that has one (milliseconds since
//! the Unix epoch; a key is gone once the clock reaches its deadline).

use super::stats::Stats;
use super::value::Value;
use std::collections::HashMap;

#[derive(Debug, Default, Clone)]
pub struct Db {
    map: HashMap<String, Value>,
    expires: HashMap<String, u64>,
    stats: Stats,
}

impl Db {
    pub fn new() -> Db {
        Db::default()
    }

    /// The value of `key` for reading, removing the key first if its deadline has passed.
    pub fn get(&mut self, key: &str, now: u64) -> Option<&Value> {
        self.expire_if_due(key, now);
        let found = self.map.get(key);
        if found.is_some() {
            self.stats.hits += 1;
        } else {
            self.stats.misses += 1;
        }
        found
    }

    /// The value of `key` for changing in place.
    pub fn get_mut(&mut self, key: &str) -> Option<&mut Value> {
        self.map.get_mut(key)
    }

    pub fn contains(&self, key: &str) -> bool {
        self.map.contains_key(key)
    }

    /// Stores `value` under `key`, replacing any value it had.
    pub fn insert(&mut self, key: String, value: Value) {
        self.map.insert(key, value);
    }

    /// Removes `key`; its value if it had one.
    pub fn remove(&mut self, key: &str) -> Option<Value> {
        self.map.remove(key)
    }

    /// Every key, in no particular order.
    pub fn keys(&self) -> Vec<&String> {
        self.map.keys().collect()
    }

    pub fn len(&self) -> usize {
        self.map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.map.is_empty()
    }

    /// Every key with its value, in no particular order.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &Value)> {
        self.map.iter()
    }

    pub fn clear(&mut self) {
        self.map.clear();
        self.expires.clear();
    }

    /// Gives `key` the deadline `at`; false if there is no such key.
    pub fn set_expiry(&mut self, key: &str, at: u64) -> bool {
        if !self.map.contains_key(key) {
            return false;
        }
        self.expires.insert(key.to_string(), at);
        true
    }

    /// The deadline of `key`, if it has one.
    pub fn expiry(&self, key: &str) -> Option<u64> {
        self.expires.get(key).copied()
    }

    /// Removes the deadline of `key`; true if it had one.
    pub fn clear_expiry(&mut self, key: &str) -> bool {
        self.expires.remove(key).is_some()
    }

    /// Every key that has a deadline, with it.
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

    /// Removes `key` if its deadline is at or before `now`; true if it did.
    fn expire_if_due(&mut self, key: &str, now: u64) -> bool {
        match self.expires.get(key) {
            Some(&at) if at <= now => {
                self.expire_now(key);
                true
            }
            _ => false,
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
    fn clear_empties_values_and_deadlines() {
        let mut db = Db::new();
        db.insert("a".into(), Value::Str("1".into()));
        db.set_expiry("a", 10);
        db.clear();
        assert!(db.is_empty());
        assert_eq!(db.deadlines().count(), 0);
    }
}
