//! Checks of `environment:`: package names a Debian or PyPI index could hold, every PyPI
//! package pinned to one version, set-up commands that are one non-empty line each. The
//! names reach a build script, so anything that is not a plain name is refused here.

use super::schema::Environment;

/// Problems as (field, message) pairs, every one of them.
pub(crate) fn check(env: &Environment) -> Vec<(String, String)> {
    let mut out = Vec::new();
    if env.apt.is_empty() && env.pip.is_empty() && env.setup.is_empty() {
        out.push((
            "environment".to_owned(),
            "is empty; list `apt`, `pip` or `setup`, or remove the section (the base image is used)"
                .to_owned(),
        ));
    }
    for (i, p) in env.apt.iter().enumerate() {
        if !debian_name(p) {
            out.push((
                format!("environment.apt[{i}]"),
                format!(
                    "`{p}` is not a Debian package name (lower-case letters, digits, `+`, `-`, `.`; starts with a letter or digit)"
                ),
            ));
        }
    }
    for (i, p) in env.pip.iter().enumerate() {
        if let Err(why) = pinned_requirement(p) {
            out.push((format!("environment.pip[{i}]"), format!("`{p}` {why}")));
        }
    }
    for (i, c) in env.setup.iter().enumerate() {
        if c.trim().is_empty() || c.contains('\n') || c.contains('\0') {
            out.push((
                format!("environment.setup[{i}]"),
                "must be one non-empty line (a command run with `sh -c` as root at build time)"
                    .to_owned(),
            ));
        }
    }
    out
}

/// Debian policy §5.6.1: at least two characters, `[a-z0-9][a-z0-9+.-]+`.
pub fn debian_name(s: &str) -> bool {
    let mut chars = s.chars();
    matches!(chars.next(), Some(c) if c.is_ascii_lowercase() || c.is_ascii_digit())
        && s.len() >= 2
        && chars.all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || "+-.".contains(c))
}

/// `name==version` (PEP 508 name, optional `[extras]`, one exact version).
pub fn pinned_requirement(s: &str) -> Result<(), &'static str> {
    let Some((name, version)) = s.split_once("==") else {
        return Err(
            "is not pinned; write `name==version` (one exact version, so the image is reproducible)",
        );
    };
    let name = match name.split_once('[') {
        Some((n, extras)) => {
            let ok = extras.strip_suffix(']').is_some_and(|e| {
                e.split(',')
                    .all(|x| !x.is_empty() && x.chars().all(pep508_char))
            });
            if !ok {
                return Err("has malformed extras; write `name[extra1,extra2]==version`");
            }
            n
        }
        None => name,
    };
    let name_ok = !name.is_empty()
        && name.chars().all(pep508_char)
        && name.starts_with(|c: char| c.is_ascii_alphanumeric())
        && name.ends_with(|c: char| c.is_ascii_alphanumeric());
    if !name_ok {
        return Err("has no valid package name before `==` (letters, digits, `.`, `_`, `-`)");
    }
    let version_ok = !version.is_empty()
        && version.starts_with(|c: char| c.is_ascii_digit())
        && version
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || ".+!_-".contains(c));
    if !version_ok {
        return Err("has no exact version after `==` (e.g. `2.0.1`; no wildcards or ranges)");
    }
    Ok(())
}

fn pep508_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || "._-".contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_pins_are_checked_one_by_one() {
        for ok in ["sqlite3", "g++", "libc6-dev", "python3.11", "jq"] {
            assert!(debian_name(ok), "{ok}");
        }
        for bad in [
            "",
            "a",
            "Jq",
            "-x",
            "jq; rm -rf /",
            "jq=1.6",
            "x y",
            "$(id)",
        ] {
            assert!(!debian_name(bad), "{bad}");
        }
        for ok in [
            "tomli==2.0.1",
            "PyYAML==6.0.1",
            "requests[socks]==2.31.0",
            "a==1",
        ] {
            assert!(pinned_requirement(ok).is_ok(), "{ok}");
        }
        for bad in [
            "tomli",
            "tomli>=2",
            "tomli==",
            "tomli==2.*",
            "==2.0",
            "tomli==2.0; rm -rf /",
            "-e==1",
            "x[]==1",
            "git+https==1",
        ] {
            assert!(pinned_requirement(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn an_empty_section_and_multi_line_setup_are_problems() {
        let e = Environment::default();
        assert_eq!(check(&e)[0].0, "environment");
        let e = Environment {
            apt: vec!["jq".into(), "BAD".into()],
            pip: vec!["x>=1".into()],
            setup: vec!["echo ok".into(), "a\nb".into(), " ".into()],
        };
        let fields: Vec<String> = check(&e).into_iter().map(|(f, _)| f).collect();
        assert_eq!(
            fields,
            [
                "environment.apt[1]",
                "environment.pip[0]",
                "environment.setup[1]",
                "environment.setup[2]"
            ]
        );
    }
}
