//! `nab docs cli` (hidden): the command reference in Markdown, rendered from the clap
//! definitions `nab` parses. docs/src/reference/cli.md is its output, committed; a test fails
//! when the file and the definitions differ, and names [`REGENERATE`].

use clap::{ArgAction, Command};
use std::fmt::Write as _;
use std::io::Write as _;
use std::process::ExitCode;

/// The command that rewrites the committed reference, run from the repository's root.
pub(crate) const REGENERATE: &str =
    "cargo run -q -p nab-harness --bin nab -- docs cli > docs/src/reference/cli.md";

#[derive(Debug, clap::Args)]
pub struct Args {
    #[command(subcommand)]
    what: What,
}

#[derive(Debug, clap::Subcommand)]
enum What {
    /// Every command and flag as Markdown: the book's docs/src/reference/cli.md.
    Cli,
}

pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    match args.what {
        What::Cli => std::io::stdout()
            .lock()
            .write_all(cli_reference().as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// The reference page: nab's usage, a table of contents, the exit codes, then one section per
/// visible command and subcommand (about, usage, subcommands, arguments, options with their
/// defaults, possible values and environment variables).
pub(crate) fn cli_reference() -> String {
    let mut root = <super::Cli as clap::CommandFactory>::command().disable_help_subcommand(true);
    root.build();
    let mut out = String::new();
    out.push_str("# Command-line reference\n\n");
    let _ = writeln!(
        out,
        "*Generated from nab's clap definitions by `nab docs cli`; do not edit by hand. After \
         changing a command or flag, regenerate it from the repository's root with \
         `{REGENERATE}` (a test of nab-harness fails until then).*\n"
    );
    out.push_str(
        "Every command and flag of `nab`. The same text is in `nab <command> --help`, in the \
         man pages (`nab man`) and behind the shell completions (`nab completions`); \
         [Commands](commands.md) introduces them.\n\n",
    );
    paragraphs(&mut out, &about(&root));
    usage(&mut out, &root);
    out.push_str(
        "Every command takes `-h` (a summary) and `--help` (the whole text); `nab --version` \
         prints the version.\n\n",
    );
    for sub in visible(&root) {
        contents(&mut out, sub, 0);
    }
    out.push('\n');
    if let Some(after) = root.get_after_long_help().or(root.get_after_help()) {
        let _ = writeln!(out, "```text\n{}\n```\n", after.to_string().trim_end());
    }
    for sub in visible(&root) {
        section(&mut out, sub, 2);
    }
    // One newline at the end, as an editor would leave it.
    let end = out.trim_end().len();
    out.truncate(end);
    out.push('\n');
    out
}

/// The subcommands a user sees (not hidden ones such as `nab docs`).
fn visible(cmd: &Command) -> impl Iterator<Item = &Command> {
    cmd.get_subcommands().filter(|s| !s.is_hide_set())
}

/// `nab image build`: the command's full name, set by `build` on the root.
fn full_name(cmd: &Command) -> String {
    cmd.get_bin_name().unwrap_or(cmd.get_name()).to_owned()
}

/// A heading's anchor as mdBook and GitHub make it (the names here are plain words).
fn anchor(name: &str) -> String {
    name.to_lowercase().replace(' ', "-")
}

fn about(cmd: &Command) -> String {
    cmd.get_long_about()
        .or(cmd.get_about())
        .map(|s| s.to_string())
        .unwrap_or_default()
}

fn contents(out: &mut String, cmd: &Command, depth: usize) {
    let name = full_name(cmd);
    let summary = cmd.get_about().map(|s| s.to_string()).unwrap_or_default();
    let _ = writeln!(
        out,
        "{}- [`{name}`](#{}): {}",
        "  ".repeat(depth),
        anchor(&name),
        escape(summary.trim())
    );
    for sub in visible(cmd) {
        contents(out, sub, depth + 1);
    }
}

fn usage(out: &mut String, cmd: &Command) {
    let text = cmd.clone().render_usage().to_string();
    let lines: Vec<&str> = text
        .lines()
        .map(|l| l.trim_start().trim_start_matches("Usage:").trim())
        .filter(|l| !l.is_empty())
        .collect();
    let _ = writeln!(out, "```text\n{}\n```\n", lines.join("\n"));
}

fn section(out: &mut String, cmd: &Command, level: usize) {
    let name = full_name(cmd);
    let _ = writeln!(out, "{} `{name}`\n", "#".repeat(level));
    paragraphs(out, &about(cmd));
    usage(out, cmd);

    let subs: Vec<&Command> = visible(cmd).collect();
    if !subs.is_empty() {
        out.push_str("**Subcommands**\n\n");
        for sub in &subs {
            let sub_name = full_name(sub);
            let summary = sub.get_about().map(|s| s.to_string()).unwrap_or_default();
            let _ = writeln!(
                out,
                "- [`{}`](#{}): {}",
                sub.get_name(),
                anchor(&sub_name),
                escape(summary.trim())
            );
        }
        out.push('\n');
    }

    let args: Vec<&clap::Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !is_builtin(a))
        .collect();
    let (positionals, options): (Vec<&clap::Arg>, Vec<&clap::Arg>) =
        args.into_iter().partition(|a| a.is_positional());
    for (title, list) in [("Arguments", positionals), ("Options", options)] {
        if list.is_empty() {
            continue;
        }
        let _ = writeln!(out, "**{title}**\n");
        for arg in list {
            argument(out, arg);
        }
        out.push('\n');
    }
    if let Some(after) = cmd.get_after_long_help().or(cmd.get_after_help()) {
        let _ = writeln!(out, "```text\n{}\n```\n", after.to_string().trim_end());
    }
    for sub in subs {
        section(out, sub, level + 1);
    }
}

/// `--help` and `--version`, which clap adds to every command: said once at the top.
fn is_builtin(arg: &clap::Arg) -> bool {
    matches!(
        arg.get_action(),
        ArgAction::Help | ArgAction::HelpShort | ArgAction::HelpLong | ArgAction::Version
    )
}

/// One list item: the argument as typed, its help, then what clap knows of it.
fn argument(out: &mut String, arg: &clap::Arg) {
    let help = arg
        .get_long_help()
        .or(arg.get_help())
        .map(|s| s.to_string())
        .unwrap_or_default();
    let facts = facts(arg);
    let mut text = help.trim().to_owned();
    if !facts.is_empty() {
        if text.is_empty() {
            text = facts.join(" ");
        } else {
            let _ = write!(text, "\n\n{}", facts.join(" "));
        }
    }
    let _ = write!(out, "- `{}`", spelling(arg));
    if text.is_empty() {
        out.push('\n');
        return;
    }
    out.push_str(": ");
    let mut first = true;
    for para in split_paragraphs(&text) {
        if first {
            let _ = writeln!(out, "{}", escape(&para));
            first = false;
        } else {
            out.push('\n');
            for line in escape(&para).lines() {
                let _ = writeln!(out, "  {line}");
            }
        }
    }
}

/// What clap knows of an argument besides its help: required, repeatable, default, possible
/// values, environment variable, aliases; one sentence each.
fn facts(arg: &clap::Arg) -> Vec<String> {
    let mut facts = Vec::new();
    if arg.is_required_set() && !arg.is_positional() {
        facts.push("Required.".to_owned());
    }
    let takes_value = arg.get_action().takes_values();
    if matches!(arg.get_action(), ArgAction::Append | ArgAction::Count) && !arg.is_positional() {
        facts.push("May be given more than once.".to_owned());
    }
    let defaults: Vec<String> = arg
        .get_default_values()
        .iter()
        .map(|v| format!("`{}`", v.to_string_lossy()))
        .collect();
    if takes_value && !defaults.is_empty() {
        facts.push(format!("Default: {}.", defaults.join(", ")));
    }
    let possible: Vec<String> = arg
        .get_possible_values()
        .iter()
        .filter(|p| !p.is_hide_set())
        .map(|p| match p.get_help() {
            Some(h) => format!("`{}` ({})", p.get_name(), escape(h.to_string().trim())),
            None => format!("`{}`", p.get_name()),
        })
        .collect();
    if takes_value && !possible.is_empty() {
        facts.push(format!("Possible values: {}.", possible.join(", ")));
    }
    if let Some(env) = arg.get_env() {
        facts.push(format!(
            "Environment variable: `{}`.",
            env.to_string_lossy()
        ));
    }
    let aliases: Vec<String> = arg
        .get_visible_aliases()
        .unwrap_or_default()
        .into_iter()
        .map(|a| format!("`--{a}`"))
        .collect();
    if !aliases.is_empty() {
        facts.push(format!("Also spelled {}.", aliases.join(", ")));
    }

    facts
}

/// The argument as a user types it: `-j, --jobs <N>`, `--resume`, `[ID]...`.
fn spelling(arg: &clap::Arg) -> String {
    let names: Vec<String> = match arg.get_value_names() {
        Some(v) if !v.is_empty() => v.iter().map(|n| n.to_string()).collect(),
        _ => vec![arg.get_id().as_str().to_uppercase()],
    };
    let many = arg
        .get_num_args()
        .is_some_and(|r| r.max_values() > 1 && names.len() == 1)
        || (arg.is_positional() && matches!(arg.get_action(), ArgAction::Append));
    let dots = if many { "..." } else { "" };
    if arg.is_positional() {
        let n = names.join(" ");
        return if arg.is_required_set() {
            format!("<{n}>{dots}")
        } else {
            format!("[{n}]{dots}")
        };
    }
    let mut s = String::new();
    if let Some(c) = arg.get_short() {
        let _ = write!(s, "-{c}");
    }
    if let Some(l) = arg.get_long() {
        if !s.is_empty() {
            s.push_str(", ");
        }
        let _ = write!(s, "--{l}");
    }
    if arg.get_action().takes_values() {
        let optional = arg.get_num_args().is_some_and(|r| r.min_values() == 0);
        let v: Vec<String> = names.iter().map(|n| format!("<{n}>")).collect();
        let v = v.join(" ");
        if optional {
            let _ = write!(s, " [{v}]{dots}");
        } else {
            let _ = write!(s, " {v}{dots}");
        }
    }
    s
}

fn split_paragraphs(text: &str) -> Vec<String> {
    text.split("\n\n")
        .map(|p| p.trim_matches('\n').to_owned())
        .filter(|p| !p.trim().is_empty())
        .collect()
}

fn paragraphs(out: &mut String, text: &str) {
    for para in split_paragraphs(text) {
        for line in escape(&para).lines() {
            let _ = writeln!(out, "{line}");
        }
        out.push('\n');
    }
}

/// Help text as Markdown prose: `<DIR>` would be an HTML tag and `*` emphasis, so both are
/// escaped outside code spans; what is in backticks stays a code span.
fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_code = false;
    for c in text.chars() {
        match c {
            '`' => {
                in_code = !in_code;
                out.push(c);
            }
            '<' | '>' | '*' | '\\' if !in_code => {
                out.push('\\');
                out.push(c);
            }
            _ => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::Path;

    /// docs/src/reference/cli.md is what the clap definitions render now: a flag added,
    /// renamed or re-documented without regenerating the page fails here.
    #[test]
    fn cli_reference_page_matches_the_clap_definitions() {
        let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/src/reference/cli.md");
        let committed = std::fs::read_to_string(&path).unwrap_or_default();
        let current = super::cli_reference();
        if committed != current {
            let diff = similar::TextDiff::from_lines(&committed, &current)
                .unified_diff()
                .context_radius(2)
                .header(
                    "docs/src/reference/cli.md (committed)",
                    "nab docs cli (now)",
                )
                .to_string();
            panic!(
                "docs/src/reference/cli.md differs from what nab's clap definitions render.\n\
                 Regenerate it from the repository's root with:\n\n    {}\n\n{diff}",
                super::REGENERATE
            );
        }
    }

    #[test]
    fn reference_names_every_command_flags_defaults_and_values() {
        let md = super::cli_reference();
        for needle in [
            "## `nab run`",
            "### `nab image build`",
            "- [`nab run`](#nab-run)",
            "- `-j, --jobs <JOBS>`: ",
            "- `--max-retries <N>`: ",
            "- `--tasks <TASKS>`: Folder with one sub-folder per task",
            "Default: `tasks`.",
            "## `nab completions`",
            "Possible values: `bash`",
            "Exit codes:",
        ] {
            assert!(md.contains(needle), "no {needle:?} in\n{md}");
        }
        // Hidden commands and clap's own flags are not listed per command.
        assert!(!md.contains("`nab docs`"), "{md}");
        assert!(!md.contains("- `-h, --help`"), "{md}");
    }

    #[test]
    fn escape_keeps_code_spans_and_escapes_tags_outside_them() {
        assert_eq!(
            super::escape("a <DIR> and `<DIR>` and *x*"),
            "a \\<DIR\\> and `<DIR>` and \\*x\\*"
        );
    }
}
