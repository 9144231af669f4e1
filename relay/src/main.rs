//! `nab-relay SOCKET...` (a remote engine's socket relay) and `nab-relay loopback ADDR
//! SOCKET` (the gateway at an HTTP base URL on the loopback): see the library's
//! documentation. nab execs both; neither is meant to be run by hand.

use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str =
    "usage: nab-relay SOCKET... | nab-relay loopback ADDR SOCKET (exec'd by nab in a sandbox)";

fn main() -> ExitCode {
    let args: Vec<PathBuf> = std::env::args_os().skip(1).map(PathBuf::from).collect();
    let result = match args.as_slice() {
        [] => return usage(),
        [mode, addr, socket] if mode.as_os_str() == "loopback" => loopback(addr, socket),
        [mode, ..] if mode.as_os_str() == "loopback" => return usage(),
        paths => nab_relay::run(paths, std::io::stdin().lock(), std::io::stdout()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("nab-relay: {e}");
            ExitCode::FAILURE
        }
    }
}

fn usage() -> ExitCode {
    eprintln!("{USAGE}");
    ExitCode::from(2)
}

fn loopback(addr: &Path, socket: &Path) -> std::io::Result<()> {
    let addr = addr.to_string_lossy().parse().map_err(|e| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{}: {e}", addr.display()),
        )
    })?;
    nab_relay::loopback::run(addr, socket, std::io::stdin(), std::io::stdout())
}
