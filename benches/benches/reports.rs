//! nab-reports: aggregating and rendering two runs of 28 tasks × 10 trials (transcripts of
//! 8 turns with a 40 KB tool output each), as `nab compare` and two `nab report`s would.
//! Prints the HTML sizes once.

// Test code: a panic is how it reports a failure.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use criterion::{Criterion, criterion_group, criterion_main};
use nab_reports::Comparison;
use nab_reports::Run;
use nab_reports::RunSummary;
use nab_reports::SynthSpec;
use nab_reports::{render_compare, render_report};
use nab_reports::{synth_records, write_synth_run};
use std::hint::black_box;

fn bench(c: &mut Criterion) {
    let tmp = tempfile::tempdir().expect("tempdir");
    let mut dirs = Vec::new();
    for (name, seed) in [("baseline", 7), ("candidate", 8)] {
        let mut spec = SynthSpec::new(name, 28, 10);
        spec.seed = seed;
        let dir = tmp.path().join(name);
        write_synth_run(&dir, &spec, &synth_records(&spec)).expect("write run");
        dirs.push(dir);
    }
    {
        let b = Run::load(&dirs[0]).expect("load");
        let k = Run::load(&dirs[1]).expect("load");
        let html = render_report(&b, &RunSummary::compute(&b)).expect("render");
        let cmp = render_compare(&Comparison::compute(&b, &k, Vec::new(), 1).expect("compare"))
            .expect("render");
        let raw: u64 = walk_size(&dirs[0].join(nab_protocol::TRIALS_DIR));
        eprintln!(
            "reports: report.html {:.2} MiB ({} bytes) for 280 trials ({:.1} MiB of trial artifacts), compare.html {} KiB",
            html.len() as f64 / 1048576.0,
            html.len(),
            raw as f64 / 1048576.0,
            cmp.len() / 1024
        );
    }
    let mut g = c.benchmark_group("reports");
    g.sample_size(10);
    g.bench_function("aggregate_and_render_28x10x2", |bch| {
        bch.iter(|| {
            let b = Run::load(&dirs[0]).expect("load");
            let k = Run::load(&dirs[1]).expect("load");
            let sb = RunSummary::compute(&b);
            let sk = RunSummary::compute(&k);
            let hb = render_report(&b, &sb).expect("render");
            let hk = render_report(&k, &sk).expect("render");
            let cmp = Comparison::compute(&b, &k, Vec::new(), 1).expect("compare");
            let hc = render_compare(&cmp).expect("render");
            black_box((hb.len(), hk.len(), hc.len()))
        })
    });
    g.bench_function("summary_only_28x10", |bch| {
        let b = Run::load(&dirs[0]).expect("load");
        bch.iter(|| black_box(RunSummary::compute(&b)))
    });
    g.finish();
}

fn walk_size(p: &std::path::Path) -> u64 {
    let mut n = 0;
    if let Ok(rd) = std::fs::read_dir(p) {
        for e in rd.flatten() {
            let m = e
                .metadata()
                .map(|m| (m.is_dir(), m.len()))
                .unwrap_or((false, 0));
            n += if m.0 { walk_size(&e.path()) } else { m.1 };
        }
    }
    n
}

criterion_group!(benches, bench);
criterion_main!(benches);
