//! The `nab report`, `nab compare` and `nab gate` subcommands. The `nab` binary flattens
//! each `*Args` into its subcommand and calls the matching `run`.

pub mod compare;
pub mod gate;
pub mod report;

pub use compare::CompareArgs;
pub use gate::GateArgs;
pub use report::ReportArgs;
