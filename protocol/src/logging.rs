//! The one tracing set-up of both binaries (`nab`, `nab-agent`): `NAB_LOG` picks the filter
//! (default `warn`), and logs go to stderr so stdout stays the program's output.

/// The environment variable holding the log filter (`RUST_LOG` syntax).
pub const LOG_ENV: &str = "NAB_LOG";

/// Installs the global subscriber. Call it once, first thing in `main`.
pub fn init() {
    tracing_subscriber::fmt()
        .with_env_filter(
            tracing_subscriber::EnvFilter::try_from_env(LOG_ENV).unwrap_or_else(|_| "warn".into()),
        )
        .with_writer(std::io::stderr)
        .init();
}
