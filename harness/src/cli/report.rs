//! `nab report --run DIR`: (re)write results.parquet, summary.json and report.html.

use std::process::ExitCode;

pub type Args = nab_reports::ReportArgs;

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let o = nab_reports::cli::report::run(&args)?;
    print!(
        "{}{}",
        o.tasks_table,
        nab_reports::run_end::headline(&o.summary)
    );
    for written in [&o.report_html, &o.summary_json, &o.parquet] {
        println!("wrote {}", written.display());
    }
    Ok(ExitCode::SUCCESS)
}
