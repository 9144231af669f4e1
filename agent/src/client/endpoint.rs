//! Where the model lives: `http(s)://host[:port][/prefix]` or `unix:///path/to.sock`.

use std::path::PathBuf;

use crate::client::error::ClientError;

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Endpoint {
    Tcp {
        host: String,
        port: u16,
        /// `https://`: the connection is wrapped in TLS (rustls, system roots).
        tls: bool,
        /// Path prefix before `/chat/completions`, e.g. `/v1` (no trailing slash).
        prefix: String,
    },
    Unix {
        socket: PathBuf,
        prefix: String,
    },
}

impl Endpoint {
    /// Parses a base URL: `http://`, `https://` or `unix://`.
    pub fn parse(url: &str) -> Result<Endpoint, ClientError> {
        let bad = |why: &str| ClientError::BadBaseUrl {
            url: url.to_string(),
            why: why.to_string(),
        };
        if let Some(rest) = url.strip_prefix("unix://") {
            // unix:///run/x.sock  or  unix:///run/x.sock:/v1 (a path prefix after ':')
            let (sock, prefix) = match rest.split_once(".sock:") {
                Some((s, p)) => (format!("{s}.sock"), p.to_string()),
                None => (rest.to_string(), String::new()),
            };
            if !sock.starts_with('/') {
                return Err(bad(
                    "a unix socket path must be absolute: unix:///path/to.sock",
                ));
            }
            return Ok(Endpoint::Unix {
                socket: PathBuf::from(sock),
                prefix: normalize_prefix(&prefix),
            });
        }
        let (rest, tls) = match (url.strip_prefix("https://"), url.strip_prefix("http://")) {
            (Some(rest), _) => (rest, true),
            (None, Some(rest)) => (rest, false),
            (None, None) => {
                return Err(bad(
                    "expected http(s)://host[:port][/path] or unix:///path.sock",
                ));
            }
        };
        let default_port = if tls { 443 } else { 80 };
        let (authority, path) = match rest.find('/') {
            Some(i) => (&rest[..i], &rest[i..]),
            None => (rest, ""),
        };
        if authority.is_empty() {
            return Err(bad("missing host"));
        }
        let port_of = |p: &str| {
            p.parse::<u16>()
                .map_err(|_| bad("the port is not a number 0-65535"))
        };
        let (host, port) = if let Some(v6) = authority.strip_prefix('[') {
            // [::1] or [::1]:8080
            let (h, rest) = v6
                .split_once(']')
                .ok_or_else(|| bad("unclosed `[` in an IPv6 host"))?;
            match rest.strip_prefix(':') {
                Some(p) => (h.to_string(), port_of(p)?),
                None if rest.is_empty() => (h.to_string(), default_port),
                None => return Err(bad("unexpected text after an IPv6 host")),
            }
        } else {
            match authority.split_once(':') {
                Some((h, p)) => (h.to_string(), port_of(p)?),
                None => (authority.to_string(), default_port),
            }
        };
        Ok(Endpoint::Tcp {
            host,
            port,
            tls,
            prefix: normalize_prefix(path),
        })
    }

    /// The request path for chat completions.
    pub fn completions_path(&self) -> String {
        let prefix = match self {
            Endpoint::Tcp { prefix, .. } | Endpoint::Unix { prefix, .. } => prefix,
        };
        format!("{prefix}/chat/completions")
    }

    /// The `Host` header value.
    pub fn host_header(&self) -> String {
        match self {
            Endpoint::Tcp {
                host, port, tls, ..
            } => {
                let host = if host.contains(':') {
                    format!("[{host}]")
                } else {
                    host.clone()
                };
                if *port == if *tls { 443 } else { 80 } {
                    host
                } else {
                    format!("{host}:{port}")
                }
            }
            Endpoint::Unix { .. } => "localhost".into(),
        }
    }
}

fn normalize_prefix(p: &str) -> String {
    let p = p.trim_end_matches('/');
    let p = p.strip_suffix("/chat/completions").unwrap_or(p);
    if p.is_empty() || p.starts_with('/') {
        p.to_string()
    } else {
        format!("/{p}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_the_supported_forms_and_refuses_others() {
        assert_eq!(
            Endpoint::parse("http://127.0.0.1:8080/v1/").unwrap(),
            Endpoint::Tcp {
                host: "127.0.0.1".into(),
                port: 8080,
                tls: false,
                prefix: "/v1".into()
            }
        );
        assert_eq!(
            Endpoint::parse("http://localhost")
                .unwrap()
                .completions_path(),
            "/chat/completions"
        );
        assert_eq!(
            Endpoint::parse("unix:///nab/llm.sock").unwrap(),
            Endpoint::Unix {
                socket: "/nab/llm.sock".into(),
                prefix: String::new()
            }
        );
        assert_eq!(
            Endpoint::parse("unix:///nab/llm.sock:/v1")
                .unwrap()
                .completions_path(),
            "/v1/chat/completions"
        );
        let https = Endpoint::parse("https://api.example/v1").unwrap();
        assert_eq!(
            https,
            Endpoint::Tcp {
                host: "api.example".into(),
                port: 443,
                tls: true,
                prefix: "/v1".into()
            }
        );
        assert_eq!(https.host_header(), "api.example");
        assert_eq!(
            Endpoint::parse("https://h:8443").unwrap().host_header(),
            "h:8443"
        );
        assert!(Endpoint::parse("ftp://x").is_err());
        assert!(
            Endpoint::parse("http://h:notaport")
                .unwrap_err()
                .to_string()
                .contains("port")
        );
        assert!(Endpoint::parse("unix://relative.sock").is_err());
        let v6 = Endpoint::parse("http://[::1]:8080/v1").unwrap();
        assert_eq!(
            v6,
            Endpoint::Tcp {
                host: "::1".into(),
                port: 8080,
                tls: false,
                prefix: "/v1".into()
            }
        );
        assert_eq!(v6.host_header(), "[::1]:8080");
        assert_eq!(
            Endpoint::parse("http://[::1]").unwrap().host_header(),
            "[::1]"
        );
    }
}
