use crate::storage::db::Db;

/// Drops sealed chunks that end before `now - keep_ms`; how many.
pub fn apply(db: &mut Db, now: i64, keep_ms: i64) -> usize {
    let cutoff = now.saturating_sub(keep_ms);
    db.shards_mut()
        .iter_mut()
        .flat_map(|sh| sh.series_mut().iter_mut())
        .map(|s| s.drop_chunks_before(cutoff))
        .sum()
}
