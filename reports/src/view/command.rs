//! The command lines the viewer shows, to copy into a POSIX shell. A folder name comes from
//! whoever wrote the folder, so an argument is single-quoted unless it is plainly safe: a
//! pasted command can never run more than it says.

/// `arg` as one shell word.
pub fn quote(arg: &str) -> String {
    let plain = !arg.is_empty()
        && arg.bytes().all(|b| {
            b.is_ascii_alphanumeric()
                || matches!(
                    b,
                    b'/' | b'.' | b'_' | b'-' | b'+' | b',' | b'=' | b'@' | b':'
                )
        });
    if plain {
        arg.to_owned()
    } else {
        format!("'{}'", arg.replace('\'', r"'\''"))
    }
}

/// `nab leaderboard <sweep>`: what writes a sweep's leaderboard.html.
pub fn leaderboard(sweep_arg: &str) -> String {
    format!("nab leaderboard {sweep_arg}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_plain_words_go_unquoted() {
        assert_eq!(quote("runs/sweep-1/m1"), "runs/sweep-1/m1");
        assert_eq!(quote("runs/a b"), "'runs/a b'");
        assert_eq!(quote("x'; rm -rf ~; '"), r"'x'\''; rm -rf ~; '\'''");
        assert_eq!(quote("$(id)"), "'$(id)'");
        assert_eq!(quote(""), "''");
    }
}
