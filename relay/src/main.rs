//! `nab-relay SOCKET...`: see the library's documentation.

use std::path::PathBuf;
use std::process::ExitCode;

fn main() -> ExitCode {
    let paths: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    if paths.is_empty() {
        eprintln!("usage: nab-relay SOCKET... (exec'd by nab on a remote engine)");
        return ExitCode::from(2);
    }
    match nab_relay::run(&paths, std::io::stdin().lock(), std::io::stdout()) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nab-relay: {e}");
            ExitCode::FAILURE
        }
    }
}
