//! The `nab report`, `nab compare`, `nab gate`, `nab leaderboard`, `nab export` and
//! `nab view`
//! subcommands. The `nab` binary flattens each `*Args` into its subcommand and calls the
//! matching `run`.

pub mod compare;
pub mod export;
pub mod gate;
pub mod leaderboard;
pub mod report;
pub mod view;

pub use compare::CompareArgs;
pub use export::ExportArgs;
pub use gate::GateArgs;
pub use leaderboard::LeaderboardArgs;
pub use report::ReportArgs;
pub use view::ViewArgs;
