//! Reads the machine's own apt sources so the image comes from the mirror this machine
//! already trusts; no mirror host is ever written into the repository.

use std::path::{Path, PathBuf};

#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct AptSource {
    pub uri: String,
    pub suite: String,
    pub components: Vec<String>,
    pub signed_by: Option<String>,
}

impl AptSource {
    /// The one-line form mmdebstrap accepts as a mirror argument.
    pub(super) fn to_mirror_line(&self) -> String {
        let opts = match &self.signed_by {
            Some(k) => format!("[signed-by={k}] "),
            None => String::new(),
        };
        format!(
            "deb {opts}{} {} {}",
            self.uri,
            self.suite,
            self.components.join(" ")
        )
    }
}

#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum SourcesError {
    #[error(
        "no apt source for suite `{suite}` found in {searched}; add a `deb` entry for {suite} \
         (deb822 .sources or one-line sources.list) so the image can be built"
    )]
    NoneForSuite { suite: String, searched: String },
}

/// Parses deb822 `.sources` text. Comments and `Types:` other than `deb` are skipped.
pub(super) fn parse_deb822(text: &str) -> Vec<AptSource> {
    let mut out = Vec::new();
    for stanza in text.split("\n\n") {
        let mut types = Vec::new();
        let mut uris = Vec::new();
        let mut suites = Vec::new();
        let mut comps = Vec::new();
        let mut signed_by = None;
        let mut enabled = true;
        for line in stanza.lines() {
            let line = line.trim_end();
            if line.trim_start().starts_with('#') || line.is_empty() {
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                continue;
            };
            let words = || {
                value
                    .split_whitespace()
                    .map(str::to_owned)
                    .collect::<Vec<_>>()
            };
            match key.trim().to_ascii_lowercase().as_str() {
                "types" => types = words(),
                "uris" => uris = words(),
                "suites" => suites = words(),
                "components" => comps = words(),
                "signed-by" => signed_by = Some(value.trim().to_owned()),
                "enabled" => enabled = value.trim() != "no",
                _ => {}
            }
        }
        if !enabled || !types.iter().any(|t| t == "deb") {
            continue;
        }
        for uri in &uris {
            for suite in &suites {
                out.push(AptSource {
                    uri: uri.clone(),
                    suite: suite.clone(),
                    components: comps.clone(),
                    // An inline key block cannot go on a one-line entry; the host keyring is used.
                    signed_by: signed_by.clone().filter(|k| k.starts_with('/')),
                });
            }
        }
    }
    out
}

/// Parses one-line `sources.list` text (`deb [opts] uri suite comp...`).
pub(super) fn parse_one_line(text: &str) -> Vec<AptSource> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        let mut rest = match line.strip_prefix("deb ") {
            Some(r) => r.trim(),
            None => continue,
        };
        let mut signed_by = None;
        if let Some(opts) = rest.strip_prefix('[') {
            let Some((opts, after)) = opts.split_once(']') else {
                continue;
            };
            for o in opts.split_whitespace() {
                if let Some(k) = o.strip_prefix("signed-by=") {
                    signed_by = Some(k.to_owned());
                }
            }
            rest = after.trim();
        }
        let mut words = rest.split_whitespace();
        let (Some(uri), Some(suite)) = (words.next(), words.next()) else {
            continue;
        };
        out.push(AptSource {
            uri: uri.to_owned(),
            suite: suite.to_owned(),
            components: words.map(str::to_owned).collect(),
            signed_by,
        });
    }
    out
}

/// The host's sources for `suite` and its `-updates`/`-security` companions.
pub(super) fn host_sources_for(suite: &str) -> Result<Vec<AptSource>, SourcesError> {
    let mut files: Vec<PathBuf> = vec![PathBuf::from("/etc/apt/sources.list")];
    if let Ok(dir) = std::fs::read_dir("/etc/apt/sources.list.d") {
        let mut extra: Vec<PathBuf> = dir.flatten().map(|e| e.path()).collect();
        extra.sort();
        files.extend(extra);
    }
    let mut all = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue;
        };
        all.extend(parse_for_path(f, &text));
    }
    let wanted: Vec<AptSource> = all
        .into_iter()
        .filter(|s| {
            s.suite == suite
                || s.suite
                    .strip_prefix(suite)
                    .is_some_and(|r| r.starts_with('-'))
        })
        .filter(|s| s.components.iter().any(|c| c == "main"))
        .map(|mut s| {
            s.components = vec!["main".to_owned()];
            s
        })
        .collect();
    if !wanted.iter().any(|s| s.suite == suite) {
        return Err(SourcesError::NoneForSuite {
            suite: suite.to_owned(),
            searched: files
                .iter()
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    Ok(wanted)
}

fn parse_for_path(path: &Path, text: &str) -> Vec<AptSource> {
    match path.extension().and_then(|e| e.to_str()) {
        Some("sources") => parse_deb822(text),
        Some("list") => parse_one_line(text),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deb822_and_one_line_forms_parse_and_other_suites_are_kept_apart() {
        let d = "Types: deb\n# a comment\nURIs: http://mirror.example/debian\nSuites: bookworm bookworm-updates\nComponents: main\nSigned-By: /usr/share/keyrings/k.gpg\n\nTypes: deb-src\nURIs: http://x\nSuites: bookworm\nComponents: main\n";
        let s = parse_deb822(d);
        assert_eq!(s.len(), 2);
        assert_eq!(s[1].suite, "bookworm-updates");
        assert_eq!(
            s[0].to_mirror_line(),
            "deb [signed-by=/usr/share/keyrings/k.gpg] http://mirror.example/debian bookworm main"
        );
        let o = parse_one_line(
            "deb [arch=amd64 signed-by=/k.gpg] http://m/debian bookworm main contrib\n# deb x y\ndeb-src http://m b main\n",
        );
        assert_eq!(o.len(), 1);
        assert_eq!(o[0].signed_by.as_deref(), Some("/k.gpg"));
        assert_eq!(o[0].components, vec!["main", "contrib"]);
    }
}
