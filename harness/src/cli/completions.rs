//! `nab completions <SHELL>`: the shell's completion script for every nab command and flag,
//! generated (clap_complete) from the same clap definitions `nab` parses.

use clap::CommandFactory;
use std::io::Write;
use std::process::ExitCode;

#[derive(Debug, clap::Args)]
pub struct Args {
    /// The shell to write the script for.
    shell: clap_complete::Shell,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let script = script(args.shell);
    // Written in one piece, so a closed pipe is an error here rather than a panic inside the
    // generator.
    std::io::stdout().lock().write_all(&script)?;
    Ok(ExitCode::SUCCESS)
}

/// The completion script for `shell`.
pub(crate) fn script(shell: clap_complete::Shell) -> Vec<u8> {
    let mut out = Vec::new();
    clap_complete::generate(shell, &mut super::Cli::command(), "nab", &mut out);
    out
}

#[cfg(test)]
mod tests {
    use clap_complete::Shell;

    #[test]
    fn every_shell_gets_a_script_naming_the_subcommands() {
        for shell in [
            Shell::Bash,
            Shell::Zsh,
            Shell::Fish,
            Shell::Elvish,
            Shell::PowerShell,
        ] {
            let s = String::from_utf8(super::script(shell)).unwrap();
            for name in [
                "validate",
                "run",
                "gate",
                "leaderboard",
                "completions",
                "man",
            ] {
                assert!(s.contains(name), "{shell}: no `{name}` in\n{s}");
            }
        }
    }
}
