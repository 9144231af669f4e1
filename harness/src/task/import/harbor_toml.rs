//! Harbor's `task.toml`, the parts a conversion uses. Keys the converter does not know are
//! ignored, as Harbor ignores them; the deprecated spellings (`memory = "4G"`,
//! `storage = "10G"`) are read like `memory_mb`/`storage_mb`.

use toml::Value;

#[derive(Debug, Clone, PartialEq)]
pub(super) struct HarborToml {
    pub agent_timeout_s: f64,
    pub verifier_timeout_s: f64,
    pub cpus: f64,
    pub memory_mb: i64,
    pub storage_mb: Option<i64>,
    pub gpus: i64,
    pub gpu_types: Vec<String>,
    pub allow_internet: bool,
    pub docker_image: Option<String>,
    pub difficulty: Option<String>,
    pub category: Option<String>,
}

/// Harbor's own defaults where a field is absent.
const DEFAULT_AGENT_S: f64 = 600.0;
const DEFAULT_VERIFIER_S: f64 = 600.0;
const DEFAULT_MEMORY_MB: i64 = 2048;

/// Why a `task.toml` was refused; names the section and key.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub(super) enum TomlError {
    #[error("{0}")]
    Syntax(#[source] toml::de::Error),
    #[error("[{section}] {key} is {value}, not a number")]
    NotANumber {
        section: &'static str,
        key: &'static str,
        value: String,
    },
    #[error("[{section}] {key} = \"{value}\" is not a size like \"4G\" or \"512M\"")]
    BadSize {
        section: &'static str,
        key: &'static str,
        value: String,
    },
    #[error("[{section}] {key} is {value}, not a size")]
    NotASize {
        section: &'static str,
        key: &'static str,
        value: String,
    },
}

pub(super) fn parse(text: &str) -> Result<HarborToml, TomlError> {
    let v: Value = text
        .parse::<toml::Table>()
        .map(Value::Table)
        .map_err(TomlError::Syntax)?;
    let get = |section: &str, key: &str| v.get(section).and_then(|s| s.get(key));
    let num = |section: &'static str, key: &'static str| -> Result<Option<f64>, TomlError> {
        match get(section, key) {
            None => Ok(None),
            Some(Value::Integer(i)) => Ok(Some(*i as f64)),
            Some(Value::Float(f)) => Ok(Some(*f)),
            Some(other) => Err(TomlError::NotANumber {
                section,
                key,
                value: other.to_string(),
            }),
        }
    };
    let size = |section: &'static str,
                mb_key: &'static str,
                old_key: &'static str|
     -> Result<Option<i64>, TomlError> {
        if let Some(n) = num(section, mb_key)? {
            return Ok(Some(n as i64));
        }
        match get(section, old_key) {
            None => Ok(None),
            Some(Value::String(s)) => {
                parse_size_mb(s)
                    .map(Some)
                    .ok_or_else(|| TomlError::BadSize {
                        section,
                        key: old_key,
                        value: s.clone(),
                    })
            }
            Some(Value::Integer(i)) => Ok(Some(*i)),
            Some(other) => Err(TomlError::NotASize {
                section,
                key: old_key,
                value: other.to_string(),
            }),
        }
    };
    let string =
        |section: &str, key: &str| get(section, key).and_then(Value::as_str).map(str::to_owned);
    Ok(HarborToml {
        agent_timeout_s: num("agent", "timeout_sec")?.unwrap_or(DEFAULT_AGENT_S),
        verifier_timeout_s: num("verifier", "timeout_sec")?.unwrap_or(DEFAULT_VERIFIER_S),
        cpus: num("environment", "cpus")?.unwrap_or(1.0),
        memory_mb: size("environment", "memory_mb", "memory")?.unwrap_or(DEFAULT_MEMORY_MB),
        storage_mb: size("environment", "storage_mb", "storage")?,
        gpus: num("environment", "gpus")?.unwrap_or(0.0) as i64,
        gpu_types: get("environment", "gpu_types")
            .and_then(Value::as_array)
            .map(|a| {
                a.iter()
                    .filter_map(Value::as_str)
                    .map(str::to_owned)
                    .collect()
            })
            .unwrap_or_default(),
        allow_internet: get("environment", "allow_internet")
            .and_then(Value::as_bool)
            .unwrap_or(false),
        docker_image: string("environment", "docker_image").filter(|s| !s.trim().is_empty()),
        difficulty: string("metadata", "difficulty"),
        category: string("metadata", "category"),
    })
}

/// `"4G"`, `"512M"`, `"2048"` (MiB), `"1.5G"` → MiB.
fn parse_size_mb(s: &str) -> Option<i64> {
    let s = s.trim();
    let (num, unit) = s
        .find(|c: char| c.is_ascii_alphabetic())
        .map_or((s, ""), |i| (&s[..i], &s[i..]));
    let n: f64 = num.trim().parse().ok()?;
    let factor = match unit.trim().to_ascii_uppercase().as_str() {
        "" | "M" | "MB" | "MI" | "MIB" => 1.0,
        "G" | "GB" | "GI" | "GIB" => 1024.0,
        "K" | "KB" | "KI" | "KIB" => 1.0 / 1024.0,
        _ => return None,
    };
    Some((n * factor).round() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_defaults_and_old_spellings() {
        let t = parse(
            "version = \"1.0\"\n[metadata]\ndifficulty = \"hard\"\n[agent]\ntimeout_sec = 900.0\n[verifier]\ntimeout_sec = 120\n[environment]\ncpus = 2\nmemory = \"1G\"\nstorage = \"512M\"\n",
        )
        .unwrap();
        assert_eq!(t.agent_timeout_s, 900.0);
        assert_eq!(t.verifier_timeout_s, 120.0);
        assert_eq!((t.cpus, t.memory_mb, t.storage_mb), (2.0, 1024, Some(512)));
        assert_eq!(t.difficulty.as_deref(), Some("hard"));
        let t = parse("[environment]\nmemory_mb = 4096\ngpus = 1\nallow_internet = true\ndocker_image = \"x/y:1\"\n").unwrap();
        assert_eq!((t.memory_mb, t.gpus, t.allow_internet), (4096, 1, true));
        assert_eq!(t.docker_image.as_deref(), Some("x/y:1"));
        assert_eq!(t.agent_timeout_s, DEFAULT_AGENT_S);
        assert!(parse("[environment]\nmemory = \"lots\"\n").is_err());
        assert!(parse("not toml [").is_err());
    }
}
