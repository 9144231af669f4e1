//! The environment a child process gets: a whitelist, minus anything that looks like a
//! secret, plus a few settings that keep tools non-interactive.

/// Variables passed through when set (plus every `LC_*`).
pub const ALLOWED: &[&str] = &[
    "PATH",
    "HOME",
    "LANG",
    "LANGUAGE",
    "TERM",
    "TMPDIR",
    "TZ",
    "USER",
    "LOGNAME",
    "SHELL",
    "http_proxy",
    "https_proxy",
    "no_proxy",
    "all_proxy",
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "NO_PROXY",
    "ALL_PROXY",
    "SSL_CERT_FILE",
    "SSL_CERT_DIR",
    "REQUESTS_CA_BUNDLE",
    "CURL_CA_BUNDLE",
    "NODE_EXTRA_CA_CERTS",
    "JAVA_HOME",
    // nab sets it in the sandbox: Python run by a tool leaves no byte code in the workspace
    // (byte code there is a tamper flag).
    "PYTHONDONTWRITEBYTECODE",
];

/// Set for every child so that pagers and prompts never wait for a terminal.
pub const FIXED: &[(&str, &str)] = &[
    ("PAGER", "cat"),
    ("GIT_PAGER", "cat"),
    ("GIT_TERMINAL_PROMPT", "0"),
    ("DEBIAN_FRONTEND", "noninteractive"),
];

const DEFAULT_PATH: &str = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

/// A name that must never reach a child, even if whitelisted by mistake.
pub fn is_secret_name(name: &str) -> bool {
    let upper = name.to_ascii_uppercase();
    ["_KEY", "_SECRET", "_TOKEN", "_PASSWORD"]
        .iter()
        .any(|s| upper.ends_with(s))
        || ["SECRET", "PASSWORD", "API_KEY", "ACCESS_KEY", "TOKEN"]
            .iter()
            .any(|s| upper.contains(s))
}

/// The child's environment built from `parent` (usually `std::env::vars_os()`).
pub fn child_env<I, K, V>(parent: I) -> Vec<(String, String)>
where
    I: IntoIterator<Item = (K, V)>,
    K: AsRef<std::ffi::OsStr>,
    V: AsRef<std::ffi::OsStr>,
{
    let mut out: Vec<(String, String)> = parent
        .into_iter()
        .filter_map(|(k, v)| {
            let k = k.as_ref().to_str()?.to_string();
            let v = v.as_ref().to_str()?.to_string();
            let allowed = ALLOWED.contains(&k.as_str()) || k.starts_with("LC_");
            (allowed && !is_secret_name(&k)).then_some((k, v))
        })
        .collect();
    if !out.iter().any(|(k, _)| k == "PATH") {
        out.push(("PATH".into(), DEFAULT_PATH.into()));
    }
    for (k, v) in FIXED {
        out.push(((*k).into(), (*v).into()));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_never_pass_and_the_whitelist_does() {
        let parent = vec![
            ("PATH", "/bin"),
            ("HOME", "/tmp"),
            ("LC_ALL", "C.UTF-8"),
            ("OPENAI_API_KEY", "sk-1"),
            ("NAB_API_KEY", "sk-2"),
            ("AWS_SECRET_ACCESS_KEY", "x"),
            ("GITHUB_TOKEN", "x"),
            ("DB_PASSWORD", "x"),
            ("MY_SECRET", "x"),
            ("RANDOM_VAR", "x"),
        ];
        let env = child_env(parent);
        let names: Vec<&str> = env.iter().map(|(k, _)| k.as_str()).collect();
        for n in ["PATH", "HOME", "LC_ALL", "PAGER"] {
            assert!(names.contains(&n), "{n} missing from {names:?}");
        }
        for n in [
            "OPENAI_API_KEY",
            "NAB_API_KEY",
            "AWS_SECRET_ACCESS_KEY",
            "GITHUB_TOKEN",
            "DB_PASSWORD",
            "MY_SECRET",
            "RANDOM_VAR",
        ] {
            assert!(!names.contains(&n), "{n} leaked into {names:?}");
        }
        assert!(is_secret_name("HTTPS_PROXY_PASSWORD"));
        assert!(!is_secret_name("HTTPS_PROXY"));
    }
}
