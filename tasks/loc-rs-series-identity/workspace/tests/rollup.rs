use tidemark::query::{Selector, TimeRange};
use tidemark::rollup::{run, Across, Agg, RollupSpec};
use tidemark::{Config, Db};

fn db() -> Db {
    let mut db = Db::new(Config::default());
    let mut text = String::new();
    for i in 0..8 {
        let t = i * 60_000;
        text.push_str(&format!("mem{{job=\"api\",instance=\"a\"}} {} {}\n", 100 + i, t));
        text.push_str(&format!("mem{{job=\"api\",instance=\"b\"}} {} {}\n", 200 + i, t));
        text.push_str(&format!("req{{job=\"api\",instance=\"a\"}} {} {}\n", if i < 5 { i * 60 } else { (i - 5) * 60 }, t));
    }
    db.ingest_text(&text).unwrap();
    db
}

fn spec(sel: &str, agg: Agg, by: &[&str]) -> RollupSpec {
    RollupSpec {
        selector: Selector::parse(sel).unwrap(),
        agg,
        across: Across::Sum,
        by: by.iter().map(|s| s.to_string()).collect(),
        step: 240_000,
        range: TimeRange::new(0, 480_000),
    }
}

#[test]
fn avg_per_series_then_sum_per_group() {
    let rows = run(&db(), &spec("mem", Agg::Avg, &["job"])).unwrap();
    let got: Vec<(i64, String, f64)> = rows.iter().map(|r| (r.start, r.group.to_string(), r.value)).collect();
    assert_eq!(
        got,
        vec![
            (0, "{job=\"api\"}".to_string(), 101.5 + 201.5),
            (240_000, "{job=\"api\"}".to_string(), 105.5 + 205.5),
        ]
    );
}

#[test]
fn rate_counts_a_restart_from_zero() {
    let rows = run(&db(), &spec("req", Agg::Rate, &[])).unwrap();
    // 0,60,120,180 then 240,(restart)0,60,120: 180 and 60+0+60+... per 240 s
    assert_eq!(rows[0].value, 180.0 / 240.0);
    assert_eq!(rows[1].value, (0.0 + 60.0 + 60.0) / 240.0);
}
