use crate::cli::args::Args;
use crate::config::Config;
use crate::error::{Error, Result};
use crate::query::{Selector, TimeRange};
use crate::report;
use crate::rollup::{self, Across, Agg, RollupSpec};
use crate::storage::Db;
use crate::time::{format_time, parse_duration, parse_time};

/// A store holding every file named on the command line, ingested in order.
fn load(args: &Args) -> Result<(Db, Vec<String>)> {
    if args.files.is_empty() {
        return Err(Error::Usage("name at least one file".into()));
    }
    let shards = match args.get("shards") {
        Some(n) => n
            .parse::<usize>()
            .ok()
            .filter(|&n| n > 0)
            .ok_or_else(|| Error::Usage("--shards takes a positive number".into()))?,
        None => Config::default().shards,
    };
    let mut db = Db::new(Config::with_shards(shards));
    let mut notes = Vec::new();
    for f in &args.files {
        let text = std::fs::read_to_string(f).map_err(|e| Error::Io(format!("{}: {}", f, e)))?;
        let r = db.ingest_text(&text).map_err(|e| Error::Io(format!("{}: {}", f, e)))?;
        for line in r.out_of_order {
            notes.push(format!("{}:{}: out of order sample left out", f, line));
        }
    }
    Ok((db, notes))
}

pub fn series(args: &Args) -> Result<String> {
    let (db, _) = load(args)?;
    let mut out = String::new();
    for s in db.series() {
        let span = match (s.first_ts, s.last_ts) {
            (Some(a), Some(b)) => format!("{} .. {}", format_time(a), format_time(b)),
            _ => "-".to_string(),
        };
        out.push_str(&format!("{}  {} samples  {}\n", s.key, s.samples, span));
    }
    out.push_str(&format!("{} series\n", db.series_count()));
    Ok(out)
}

pub fn rollup(args: &Args) -> Result<String> {
    let (db, _) = load(args)?;
    let selector = Selector::parse(args.get("select").ok_or_else(|| Error::Usage("--select is required".into()))?)?;
    let agg = Agg::parse(args.get("agg").unwrap_or("avg"))?;
    let across = Across::parse(args.get("across").unwrap_or("sum"))?;
    let by: Vec<String> = args
        .get("by")
        .map(|b| b.split(',').map(|s| s.trim().to_string()).filter(|s| !s.is_empty()).collect())
        .unwrap_or_default();
    let step = parse_duration(args.get("step").unwrap_or("15m"))?;
    let (lo, hi) = data_span(&db);
    let start = match args.get("from") {
        Some(t) => parse_time(t)?,
        None => lo,
    };
    let end = match args.get("to") {
        Some(t) => parse_time(t)?,
        None => hi.saturating_add(1),
    };
    let spec = RollupSpec {
        selector,
        agg,
        across,
        by,
        step,
        range: TimeRange::new(start, end),
    };
    let rows = rollup::run(&db, &spec)?;
    Ok(if args.switch("csv") {
        report::csv::render(&rows)
    } else {
        report::table::render(&rows)
    })
}

pub fn export(args: &Args) -> Result<String> {
    let (db, _) = load(args)?;
    crate::export::export(&db)
}

pub fn stats(args: &Args) -> Result<String> {
    let (db, notes) = load(args)?;
    let s = db.stats();
    let mut out = format!(
        "series {}\nsamples appended {}\nsamples replaced {}\nsamples out of order {}\n",
        db.series_count(),
        s.samples_appended,
        s.samples_replaced,
        s.samples_out_of_order
    );
    for n in notes {
        out.push_str(&n);
        out.push('\n');
    }
    Ok(out)
}

/// The first and last time of any sample.
fn data_span(db: &Db) -> (i64, i64) {
    let mut lo = i64::MAX;
    let mut hi = i64::MIN;
    for s in db.series() {
        if let (Some(a), Some(b)) = (s.first_ts, s.last_ts) {
            lo = lo.min(a);
            hi = hi.max(b);
        }
    }
    if lo > hi {
        (0, 0)
    } else {
        (lo, hi)
    }
}
