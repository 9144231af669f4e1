//! `--engine URL[#OPTIONS]`: which Docker engine to use and how many trials it takes at once.
//!
//! - `default`: the `DOCKER_HOST` conventions, as `nab` connects without `--engine`
//!   (`DOCKER_HOST` unset: the local Unix socket);
//! - `unix:///absolute/path.sock`;
//! - `tcp://host:port` (plain HTTP, port default 2375, unless `DOCKER_TLS_VERIFY` is set:
//!   then TLS with the client certificates in `DOCKER_CERT_PATH`, default `~/.docker`,
//!   port default 2376), `https://host:port` (always TLS);
//! - `ssh://[user@]host[:port]` (Docker's convention: `docker system dial-stdio` over ssh;
//!   see `ssh`).
//!
//! Options after `#`, comma-separated: `slots=N` (trials at once on this engine, 1..=256;
//! default: the command's `-j`), `tls=DIR` (TLS with `ca.pem`, `cert.pem` and `key.pem`
//! from DIR, for this engine alone), `remote` (the engine sees none of this machine's
//! files: inputs are copied in and sockets relayed through its API; the default for
//! tcp:// and https://) or `local` (it does see them, so they are bind-mounted). Parsing is strict: an unknown scheme, option or a
//! repeated option is an error naming it, because a typo must not silently run every
//! trial on one engine.

use std::path::PathBuf;
use std::str::FromStr;

/// The most trials one engine may be given at once: a guard against `slots=100000`.
pub const MAX_SLOTS: usize = 256;

/// How to reach one engine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum EngineAddr {
    /// `DOCKER_HOST` or the local socket, as without `--engine`.
    Default,
    Unix(PathBuf),
    Tcp {
        host: String,
        port: u16,
        tls: Tls,
    },
    Ssh(super::ssh::SshTarget),
}

/// Whether a `tcp://` engine is reached over TLS, and with which certificates.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Tls {
    Off,
    /// Certificates from `DOCKER_CERT_PATH` (default `~/.docker`), read at connect time.
    FromEnv,
    /// `ca.pem`, `cert.pem` and `key.pem` in this folder.
    Dir(PathBuf),
}

/// One `--engine` value.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EngineSpec {
    pub addr: EngineAddr,
    /// `#slots=N`; `None`: the command's `-j`.
    pub slots: Option<usize>,
    /// The engine shares no paths with this machine: what local engines get by bind
    /// mounts is carried through its API (`#remote`; the default for tcp:// and https://,
    /// `#local` says a tcp:// engine does see this machine's paths).
    pub remote: bool,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum EngineUrlError {
    #[error(
        "engine `{0}`: unknown scheme; use unix:///path, tcp://host:port, https://host:port, ssh://[user@]host[:port] or default"
    )]
    Scheme(String),
    #[error("engine `{0}`: the Unix socket path must be absolute (unix:///run/docker.sock)")]
    RelativeSocket(String),
    #[error("engine `{url}`: {why}")]
    Address { url: String, why: String },
    #[error(
        "engine `{url}`: unknown option `{option}`; options are slots=N, tls=DIR, remote and local"
    )]
    Option { url: String, option: String },
    #[error("engine `{url}`: option `{option}` is given twice")]
    Repeated { url: String, option: String },
    #[error("engine `{url}`: slots must be a whole number from 1 to {MAX_SLOTS}, not `{value}`")]
    Slots { url: String, value: String },
    #[error("engine `{url}`: tls=DIR needs a folder (with ca.pem, cert.pem, key.pem)")]
    TlsDir { url: String },
    #[error("engine `{url}`: tls=DIR is for tcp:// and https:// engines")]
    TlsNotTcp { url: String },
    #[error("engine `{url}`: `{option}` takes no value")]
    Flag { url: String, option: String },
    #[error("engine `{url}`: an engine is either remote or local, not both")]
    RemoteAndLocal { url: String },
}

impl EngineSpec {
    /// Parses `s`, reading `DOCKER_TLS_VERIFY` for `tcp://` as the docker CLI does.
    pub fn parse(s: &str) -> Result<EngineSpec, EngineUrlError> {
        let tls_verify = std::env::var_os("DOCKER_TLS_VERIFY").is_some_and(|v| !v.is_empty());
        Self::parse_with(s, tls_verify)
    }

    /// [`EngineSpec::parse`] with `DOCKER_TLS_VERIFY` given (tests do not touch the environment).
    pub fn parse_with(s: &str, tls_verify: bool) -> Result<EngineSpec, EngineUrlError> {
        let (url, options) = match s.split_once('#') {
            Some((u, o)) => (u, Some(o)),
            None => (s, None),
        };
        let Options {
            slots,
            tls_dir,
            paths,
        } = Options::parse(s, options)?;
        let addr = if url == "default" {
            EngineAddr::Default
        } else if let Some(path) = url.strip_prefix("unix://") {
            if !path.starts_with('/') {
                return Err(EngineUrlError::RelativeSocket(s.into()));
            }
            EngineAddr::Unix(PathBuf::from(path))
        } else if let Some(rest) = url.strip_prefix("tcp://") {
            let tls = if tls_verify { Tls::FromEnv } else { Tls::Off };
            tcp(s, rest, tls)?
        } else if let Some(rest) = url.strip_prefix("https://") {
            tcp(s, rest, Tls::FromEnv)?
        } else if let Some(rest) = url.strip_prefix("ssh://") {
            ssh(s, rest)?
        } else {
            return Err(EngineUrlError::Scheme(s.into()));
        };
        let addr = match (addr, tls_dir) {
            (EngineAddr::Tcp { host, port, .. }, Some(dir)) => EngineAddr::Tcp {
                host,
                port,
                tls: Tls::Dir(dir),
            },
            (_, Some(_)) => return Err(EngineUrlError::TlsNotTcp { url: s.into() }),
            (addr, None) => addr,
        };
        let remote = paths.unwrap_or(matches!(addr, EngineAddr::Tcp { .. } | EngineAddr::Ssh(_)));
        Ok(EngineSpec {
            addr,
            slots,
            remote,
        })
    }
}

/// The options after `#`.
#[derive(Default)]
struct Options {
    slots: Option<usize>,
    tls_dir: Option<PathBuf>,
    /// `Some(true)` for `#remote`, `Some(false)` for `#local`.
    paths: Option<bool>,
}

impl Options {
    /// Parses `options` (comma-separated) of the engine URL `s`.
    fn parse(s: &str, options: Option<&str>) -> Result<Options, EngineUrlError> {
        let mut slots = None;
        let mut tls_dir = None;
        let mut paths: Option<bool> = None;
        for opt in options.into_iter().flat_map(|o| o.split(',')) {
            let (key, value) = opt.split_once('=').unwrap_or((opt, ""));
            let seen = match key {
                "slots" => slots.is_some(),
                "tls" => tls_dir.is_some(),
                "remote" | "local" => {
                    if opt.contains('=') {
                        return Err(EngineUrlError::Flag {
                            url: s.into(),
                            option: key.into(),
                        });
                    }
                    if paths.replace(key == "remote").is_some() {
                        return Err(EngineUrlError::RemoteAndLocal { url: s.into() });
                    }
                    continue;
                }
                _ => {
                    return Err(EngineUrlError::Option {
                        url: s.into(),
                        option: opt.into(),
                    });
                }
            };
            if seen {
                return Err(EngineUrlError::Repeated {
                    url: s.into(),
                    option: key.into(),
                });
            }
            if key == "slots" {
                let n = value
                    .parse::<usize>()
                    .ok()
                    .filter(|n| (1..=MAX_SLOTS).contains(n) && !value.starts_with('+'))
                    .ok_or_else(|| EngineUrlError::Slots {
                        url: s.into(),
                        value: value.into(),
                    })?;
                slots = Some(n);
            } else {
                if value.is_empty() {
                    return Err(EngineUrlError::TlsDir { url: s.into() });
                }
                tls_dir = Some(PathBuf::from(value));
            }
        }
        Ok(Options {
            slots,
            tls_dir,
            paths,
        })
    }
}

/// `[user@]host[:port]` of an ssh:// URL, with nothing after it (the port: ssh's default).
fn ssh(url: &str, rest: &str) -> Result<EngineAddr, EngineUrlError> {
    let bad = |why: &str| EngineUrlError::Address {
        url: url.into(),
        why: why.into(),
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    let (user, hostport) = match rest.split_once('@') {
        Some((u, h)) if !u.is_empty() && !u.contains(':') => (Some(u.to_owned()), h),
        Some(_) => return Err(bad("the user before `@` is missing or has a `:`")),
        None => (None, rest),
    };
    // Reuse the tcp form's host:port rules; the port given or none.
    let explicit = hostport.rsplit_once(':').is_some() && !hostport.ends_with(']');
    let EngineAddr::Tcp { host, port, .. } = tcp(url, hostport, Tls::Off)? else {
        return Err(bad("not host[:port]"));
    };
    if host.starts_with('-') {
        return Err(bad("a host cannot start with `-`"));
    }
    Ok(EngineAddr::Ssh(super::ssh::SshTarget {
        user,
        host,
        port: explicit.then_some(port),
    }))
}

/// `host[:port]` of a tcp:// or https:// URL, with nothing after it.
fn tcp(url: &str, rest: &str, tls: Tls) -> Result<EngineAddr, EngineUrlError> {
    let bad = |why: &str| EngineUrlError::Address {
        url: url.into(),
        why: why.into(),
    };
    let rest = rest.strip_suffix('/').unwrap_or(rest);
    if rest.contains(['/', '?', '@']) {
        return Err(bad("only host:port may follow the scheme"));
    }
    // [v6]:port or host:port.
    let (host, port) = if let Some(v6) = rest.strip_prefix('[') {
        let (h, after) = v6
            .split_once(']')
            .ok_or_else(|| bad("an IPv6 address needs its closing `]`"))?;
        let port = match after {
            "" => None,
            p => Some(
                p.strip_prefix(':')
                    .ok_or_else(|| bad("a port follows `]:`"))?,
            ),
        };
        (format!("[{h}]"), port)
    } else {
        match rest.rsplit_once(':') {
            Some((h, p)) => (h.to_owned(), Some(p)),
            None => (rest.to_owned(), None),
        }
    };
    if host.is_empty() || host == "[]" {
        return Err(bad("the host is missing"));
    }
    let port = match port {
        None if tls == Tls::Off => 2375,
        None => 2376,
        Some(p) => p
            .parse::<u16>()
            .ok()
            .filter(|n| *n != 0 && !p.starts_with('+'))
            .ok_or_else(|| bad(&format!("the port must be 1..65535, not `{p}`")))?,
    };
    Ok(EngineAddr::Tcp { host, port, tls })
}

impl FromStr for EngineSpec {
    type Err = EngineUrlError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        EngineSpec::parse(s)
    }
}

impl std::fmt::Display for EngineAddr {
    /// The engine's name in progress lines, records and errors (no options).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            EngineAddr::Default => f.write_str("default"),
            EngineAddr::Unix(p) => write!(f, "unix://{}", p.display()),
            EngineAddr::Tcp {
                host,
                port,
                tls: Tls::Off,
            } => write!(f, "tcp://{host}:{port}"),
            EngineAddr::Tcp { host, port, .. } => write!(f, "https://{host}:{port}"),
            EngineAddr::Ssh(t) => write!(f, "{t}"),
        }
    }
}

/// Refuses the same engine given twice: its capacity is one `#slots=N`, and two entries
/// would double it behind the user's back.
pub fn check_distinct(specs: &[EngineSpec]) -> Result<(), DuplicateEngine> {
    let mut seen = std::collections::HashSet::new();
    for s in specs {
        let name = s.addr.to_string();
        if !seen.insert(name.clone()) {
            return Err(DuplicateEngine { name });
        }
    }
    Ok(())
}

/// The same engine given twice to `--engine`.
#[derive(Debug, thiserror::Error)]
#[error("engine {name} is given twice; give it once with #slots=N for more trials at once")]
pub struct DuplicateEngine {
    pub name: String,
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(s: &str) -> EngineSpec {
        EngineSpec::parse_with(s, false).unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    fn err(s: &str) -> String {
        EngineSpec::parse_with(s, false).expect_err(s).to_string()
    }

    #[test]
    fn unix_sockets_with_and_without_slots() {
        assert_eq!(
            ok("unix:///run/d2/docker.sock"),
            EngineSpec {
                addr: EngineAddr::Unix("/run/d2/docker.sock".into()),
                slots: None,
                remote: false,
            }
        );
        let s = ok("unix:///var/run/docker.sock#slots=4");
        assert_eq!(s.slots, Some(4));
        assert_eq!(s.addr.to_string(), "unix:///var/run/docker.sock");
        assert_eq!(ok("default#slots=2").addr, EngineAddr::Default);
    }

    #[test]
    fn remote_is_the_default_for_tcp_and_said_for_sockets() {
        assert!(ok("tcp://build-1").remote);
        assert!(ok("https://build-1").remote);
        assert!(!ok("tcp://127.0.0.1#local").remote);
        assert!(ok("unix:///run/far/docker.sock#remote,slots=2").remote);
        assert!(!ok("unix:///run/docker.sock").remote);
        assert!(!ok("default").remote);
        assert!(err("default#remote,local").contains("either remote or local"));
        assert!(err("default#remote=yes").contains("takes no value"));
    }

    #[test]
    fn ssh_engines_by_dockers_convention() {
        let s = ok("ssh://ci@build-1:2222");
        assert!(s.remote);
        assert_eq!(s.addr.to_string(), "ssh://ci@build-1:2222");
        assert_eq!(ok("ssh://build-1").addr.to_string(), "ssh://build-1");
        assert!(err("ssh://@build-1").contains("user"));
        assert!(err("ssh://-oProxyCommand=x").contains("cannot start with `-`"));
        assert!(err("ssh://h/path").contains("only host:port"));
    }

    #[test]
    fn tcp_ports_and_tls() {
        assert_eq!(
            ok("tcp://10.0.0.5:2375").addr,
            EngineAddr::Tcp {
                host: "10.0.0.5".into(),
                port: 2375,
                tls: Tls::Off
            }
        );
        // The docker CLI's defaults: 2375 in the clear, 2376 with TLS.
        assert_eq!(ok("tcp://build-1").addr.to_string(), "tcp://build-1:2375");
        assert_eq!(
            ok("https://build-1").addr.to_string(),
            "https://build-1:2376"
        );
        let env = EngineSpec::parse_with("tcp://build-1:2376", true).unwrap();
        assert!(matches!(
            env.addr,
            EngineAddr::Tcp {
                tls: Tls::FromEnv,
                ..
            }
        ));
        let dir = ok("tcp://build-1:2376#tls=/etc/nab/certs,slots=8");
        assert_eq!(dir.slots, Some(8));
        assert!(
            matches!(&dir.addr, EngineAddr::Tcp { tls: Tls::Dir(d), .. } if d == std::path::Path::new("/etc/nab/certs"))
        );
        assert_eq!(ok("tcp://[::1]:2375/").addr.to_string(), "tcp://[::1]:2375");
    }

    #[test]
    fn bad_urls_are_refused_by_name() {
        assert!(
            err("npipe://host").contains("unknown scheme"),
            "{}",
            err("npipe://host")
        );
        assert!(err("/var/run/docker.sock").contains("unknown scheme"));
        assert!(err("unix://docker.sock").contains("must be absolute"));
        assert!(err("tcp://:2375").contains("host is missing"));
        assert!(err("tcp://h:0").contains("1..65535"));
        assert!(err("tcp://h:70000").contains("1..65535"));
        assert!(err("tcp://h:x").contains("1..65535"));
        assert!(err("tcp://h:2375/v1.41").contains("only host:port"));
        assert!(err("tcp://user@h:2375").contains("only host:port"));
        assert!(err("tcp://[::1:2375").contains("closing"));
    }

    #[test]
    fn bad_options_are_refused_by_name() {
        for (s, want) in [
            ("default#slots=0", "slots must be"),
            ("default#slots=257", "slots must be"),
            ("default#slots=-1", "slots must be"),
            ("default#slots=+3", "slots must be"),
            ("default#slots=", "slots must be"),
            ("default#slots=2.5", "slots must be"),
            ("default#slot=2", "unknown option `slot=2`"),
            ("default#", "unknown option ``"),
            ("default#slots=2,slots=3", "`slots` is given twice"),
            ("tcp://h:1#tls=", "needs a folder"),
            ("unix:///s#tls=/c", "for tcp://"),
            ("default#tls=/c", "for tcp://"),
        ] {
            let e = err(s);
            assert!(e.contains(want), "{s}: {e}");
        }
    }

    #[test]
    fn the_same_engine_twice_is_refused() {
        let a = ok("unix:///a.sock#slots=2");
        let b = ok("unix:///b.sock");
        assert!(check_distinct(&[a.clone(), b.clone()]).is_ok());
        let e = check_distinct(&[a, b, ok("unix:///a.sock")]).unwrap_err();
        assert!(
            e.to_string().contains("unix:///a.sock is given twice"),
            "{e}"
        );
    }
}
