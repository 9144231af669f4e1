use tidemark::model::Labels;
use tidemark::query::{select, Selector, TimeRange};
use tidemark::{Config, Db, Error};

const TEXT: &str = r#"
# two instances, one restart
up{job="api",instance="web-1"} 1 1000
up{job="api",instance="web-2"} 1 1000
up{job="api",instance="web-1"} 0 2000
up{instance="web-2",job="api"} 1 2000
up{job="api",instance="web-1"} 1 3000
"#;

#[test]
fn ingest_groups_samples_by_series() {
    let mut db = Db::new(Config::default());
    let r = db.ingest_text(TEXT).unwrap();
    assert_eq!(r.accepted, 5);
    assert_eq!(db.series_count(), 2);
    let got = select(&db, &Selector::parse("up{instance=\"web-2\"}").unwrap(), TimeRange::all()).unwrap();
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].samples.len(), 2);
}

#[test]
fn a_sample_at_the_newest_time_replaces_it() {
    let mut db = Db::new(Config::with_shards(2));
    let r = db.ingest_text("up{job=\"a\"} 1 1000\nup{job=\"a\"} 2 1000\n").unwrap();
    assert_eq!((r.accepted, r.replaced), (1, 1));
    let got = select(&db, &Selector::parse("up").unwrap(), TimeRange::all()).unwrap();
    assert_eq!(got[0].samples.len(), 1);
    assert_eq!(got[0].samples[0].value, 2.0);
}

#[test]
fn older_samples_are_refused() {
    let mut db = Db::new(Config::default());
    let labels = Labels::from_pairs(vec![("job", "a")]).unwrap();
    db.append("up", &labels, 2000, 1.0).unwrap();
    match db.append("up", &labels, 1000, 1.0) {
        Err(Error::OutOfOrder { .. }) => {}
        other => panic!("expected OutOfOrder, got {:?}", other),
    }
    assert_eq!(db.stats().samples_out_of_order, 1);
}

#[test]
fn chunks_are_sealed_and_read_back() {
    let mut db = Db::new(Config { shards: 3, chunk_samples: 7 });
    let labels = Labels::from_pairs(vec![("job", "a")]).unwrap();
    for i in 0..50 {
        db.append("x", &labels, i * 1000 + (i % 4), i as f64).unwrap();
    }
    let got = select(&db, &Selector::parse("x").unwrap(), TimeRange::new(10_000, 20_000)).unwrap();
    let ts: Vec<i64> = got[0].samples.iter().map(|s| s.ts).collect();
    assert_eq!(ts, (10..20).map(|i| i * 1000 + (i % 4)).collect::<Vec<_>>());
}

#[test]
fn bad_lines_are_named() {
    let mut db = Db::new(Config::default());
    match db.ingest_text("up 1 1000\nup{job=} 1 2000\n") {
        Err(Error::Parse { line: 2, .. }) => {}
        other => panic!("expected a parse error on line 2, got {:?}", other),
    }
}
