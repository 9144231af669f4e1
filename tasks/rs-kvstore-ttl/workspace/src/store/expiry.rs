//! Active expiry: a server calls [`sweep`] now and then (see `Engine::tick`) so that keys
//! nobody reads again do not hold memory for ever. Lookups expire keys lazily on their own;
//! this only reclaims memory early.

use super::db::Db;

/// Removes at most `budget` keys whose deadline is at or before `now`, oldest deadline
/// first; returns how many it removed.
pub fn sweep(db: &mut Db, now: u64, budget: usize) -> usize {
    let mut due: Vec<(u64, String)> = db
        .deadlines()
        .filter(|(_, at)| **at <= now)
        .map(|(k, at)| (*at, k.clone()))
        .collect();
    due.sort();
    due.truncate(budget);
    for (_, key) in &due {
        db.expire_now(key);
    }
    due.len()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::Value;

    #[test]
    fn sweeps_only_what_is_due_within_the_budget() {
        let mut db = Db::new();
        for (i, k) in ["a", "b", "c", "d"].iter().enumerate() {
            db.insert(k.to_string(), Value::Str("v".into()));
            db.set_expiry(k, 100 + i as u64 * 10);
        }
        db.insert("forever".into(), Value::Str("v".into()));
        assert_eq!(sweep(&mut db, 125, 2), 2);
        assert_eq!(sweep(&mut db, 125, 2), 1);
        assert_eq!(sweep(&mut db, 125, 2), 0);
        assert_eq!(db.stats().expired_keys, 3);
    }
}
