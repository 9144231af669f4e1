//! Provider spec strings (`openai:…`, `anthropic:…`, `record:…`, `replay:…`, `scripted:…`)
//! and building providers from them.

use crate::dialect::Dialect;
use crate::error::SpecError;
use crate::normalize::Normalizer;
use crate::provider::Provider;
use crate::providers::{
    AnthropicProvider, OpenAiProvider, RecordProvider, ReplayProvider, ScriptedProvider,
};
use nab_protocol::Trajectory;
use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::Arc;

/// The variable holding the API key unless [`ProviderOptions::api_key_env`] names another.
pub const DEFAULT_KEY_ENV: &str = "NAB_API_KEY";
/// The variable giving the base URL of `openai:<model>` when the spec has no `@<base_url>`.
pub const BASE_URL_ENV: &str = "NAB_BASE_URL";
/// The variable holding the key of `anthropic:` unless [`ProviderOptions::api_key_env`]
/// names another.
pub const ANTHROPIC_KEY_ENV: &str = "ANTHROPIC_API_KEY";

/// A parsed provider spec.
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum ProviderSpec {
    /// `openai[<options>]:<model>[@<base_url>]` (the options and their brackets optional)
    OpenAi {
        model: String,
        base_url: Option<String>,
        dialect: Dialect,
    },
    /// `anthropic[<options>]:<model>[@<base_url>]` (default base URL
    /// [`crate::providers::anthropic::DEFAULT_BASE_URL`]; option `cache=on|off`, prompt
    /// caching of the stable prefix, on by default)
    Anthropic {
        model: String,
        base_url: Option<String>,
        options: crate::providers::anthropic::cache::AnthropicOptions,
    },
    /// `record:<cassette-dir>:<inner spec>`
    Record {
        dir: PathBuf,
        inner: Box<ProviderSpec>,
    },
    /// `replay:<cassette-dir>`
    Replay { dir: PathBuf },
    /// `scripted:<file>` or `scripted:task`
    Scripted { source: ScriptSource },
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ScriptSource {
    File(PathBuf),
    /// The task's `trajectory.yaml`, passed by the caller in [`ProviderOptions::task_trajectory`].
    Task,
}

impl ProviderSpec {
    pub fn parse(spec: &str) -> Result<ProviderSpec, SpecError> {
        let Some((kind, rest)) = spec.split_once(':') else {
            return Err(SpecError::UnknownKind {
                spec: spec.to_owned(),
            });
        };
        let (kind, options) = split_options(spec, kind)?;
        match kind {
            "openai" => {
                let dialect = match options {
                    Some(o) => Dialect::parse(o).map_err(|source| SpecError::Dialect {
                        spec: spec.to_owned(),
                        source,
                    })?,
                    None => Dialect::default(),
                };
                let (model, base_url) = model_at_url(kind, rest).map_err(|m| invalid(spec, &m))?;
                Ok(ProviderSpec::OpenAi {
                    model: model.to_owned(),
                    base_url,
                    dialect,
                })
            }
            "anthropic" => {
                let options = match options {
                    Some(o) => crate::providers::anthropic::cache::AnthropicOptions::parse(o)
                        .map_err(|m| invalid(spec, &m))?,
                    None => Default::default(),
                };
                let (model, base_url) = model_at_url(kind, rest).map_err(|m| invalid(spec, &m))?;
                Ok(ProviderSpec::Anthropic {
                    model: model.to_owned(),
                    base_url,
                    options,
                })
            }
            "record" => parse_record(spec, rest),
            "replay" => {
                if rest.is_empty() {
                    return Err(invalid(spec, "expected replay:<cassette-dir>"));
                }
                Ok(ProviderSpec::Replay {
                    dir: PathBuf::from(rest),
                })
            }
            "scripted" => parse_scripted(spec, rest),
            _ => Err(SpecError::UnknownKind {
                spec: spec.to_owned(),
            }),
        }
    }
}

fn invalid(spec: &str, message: &str) -> SpecError {
    SpecError::Invalid {
        spec: spec.to_owned(),
        message: message.to_owned(),
    }
}

/// The kind and its `[options]`: `openai[stream=off,...]`. Dialect options ride on the
/// kind, so they can never clash with a model name or a URL; only `openai` and `anthropic`
/// take them.
fn split_options<'a>(spec: &str, kind: &'a str) -> Result<(&'a str, Option<&'a str>), SpecError> {
    let (kind, options) = match kind.split_once('[') {
        Some((k, opts)) => {
            let Some(opts) = opts.strip_suffix(']') else {
                return Err(invalid(
                    spec,
                    "unclosed `[` in the options: write openai[key=value,...]:<model>[@<base_url>]",
                ));
            };
            (k, Some(opts))
        }
        None => (kind, None),
    };
    if options.is_some() && kind != "openai" && kind != "anthropic" {
        return Err(invalid(
            spec,
            &format!("only openai: and anthropic: take [options]; {kind}: has none"),
        ));
    }
    Ok((kind, options))
}

/// `record:<cassette-dir>:<inner spec>`, the inner spec a live or scripted provider.
fn parse_record(spec: &str, rest: &str) -> Result<ProviderSpec, SpecError> {
    let Some((dir, inner)) = rest.split_once(':') else {
        return Err(invalid(
            spec,
            "expected record:<cassette-dir>:<inner spec>, e.g. record:cassettes/run1:openai:gpt-4o@http://127.0.0.1:8000/v1",
        ));
    };
    if dir.is_empty() {
        return Err(invalid(spec, "the cassette directory is empty"));
    }
    let inner = ProviderSpec::parse(inner)?;
    if matches!(
        inner,
        ProviderSpec::Replay { .. } | ProviderSpec::Record { .. }
    ) {
        return Err(invalid(
            spec,
            "record: must wrap openai:, anthropic: or scripted:, not replay: or record:",
        ));
    }
    Ok(ProviderSpec::Record {
        dir: PathBuf::from(dir),
        inner: Box::new(inner),
    })
}

/// `scripted:<trajectory.yaml>` or `scripted:task`.
fn parse_scripted(spec: &str, rest: &str) -> Result<ProviderSpec, SpecError> {
    match rest {
        "" => Err(invalid(
            spec,
            "expected scripted:<trajectory.yaml> or scripted:task",
        )),
        "task" => Ok(ProviderSpec::Scripted {
            source: ScriptSource::Task,
        }),
        file => Ok(ProviderSpec::Scripted {
            source: ScriptSource::File(PathBuf::from(file)),
        }),
    }
}

/// The API key from `--api-key-env`'s variable, else `default_var`; a missing one is an
/// error naming the variable.
fn required_key(
    spec: &str,
    opts: &ProviderOptions,
    default_var: &str,
) -> Result<String, SpecError> {
    let var = opts.api_key_env.as_deref().unwrap_or(default_var);
    opts.var(var).ok_or_else(|| SpecError::MissingKey {
        spec: spec.to_owned(),
        var: var.to_owned(),
    })
}

fn http_client_error(spec: &str, source: reqwest::Error) -> SpecError {
    SpecError::HttpClient {
        spec: spec.to_owned(),
        source,
    }
}

/// `<model>[@<base_url>]` of an `openai:` or `anthropic:` spec, or what is wrong with it.
/// A model name may contain ':' (Ollama's `qwen2.5:7b`); the base URL starts at the first
/// '@' followed by a scheme.
fn model_at_url<'a>(kind: &str, rest: &'a str) -> Result<(&'a str, Option<String>), String> {
    let (model, base_url) = split_base_url(rest);
    if model.is_empty() {
        return Err(format!(
            "the model name is empty: write {kind}:<model>[@<base_url>]"
        ));
    }
    if model.contains('@') {
        return Err("the base URL after '@' must start with http:// or https://".to_owned());
    }
    Ok((model, base_url))
}

fn split_base_url(rest: &str) -> (&str, Option<String>) {
    match rest.find("@http://").or(rest.find("@https://")) {
        Some(at) => (&rest[..at], Some(rest[at + 1..].to_owned())),
        None => (rest, None),
    }
}

/// What building a provider needs besides the spec.
#[derive(Debug, Clone, Default)]
pub struct ProviderOptions {
    /// The variable holding the API key (default [`DEFAULT_KEY_ENV`]).
    pub api_key_env: Option<String>,
    /// The task's `trajectory.yaml`, for `scripted:task`.
    pub task_trajectory: Option<PathBuf>,
    /// Variables looked up before the process environment (lets tests and callers pass a
    /// key without touching the process's environment).
    pub env_overrides: HashMap<String, String>,
    /// The task's own tool-result normalizers (task.yaml `replay_normalize`), used by
    /// `record:` and `replay:` before the built-in ones ([`crate::normalize`]).
    pub normalize: Vec<crate::normalize::Pattern>,
    /// The largest answer taken from an `openai:` server (default
    /// [`crate::providers::openai::DEFAULT_MAX_ANSWER_BYTES`]); a larger one is an
    /// upstream error (`invalid_provider_response`).
    pub max_answer_bytes: Option<u64>,
}

impl ProviderOptions {
    fn var(&self, name: &str) -> Option<String> {
        self.env_overrides
            .get(name)
            .cloned()
            .or_else(|| std::env::var(name).ok())
            .filter(|v| !v.is_empty())
    }
}

fn normalizer(spec: &str, opts: &ProviderOptions) -> Result<Normalizer, SpecError> {
    Normalizer::with_patterns(&opts.normalize).map_err(|source| SpecError::Normalize {
        spec: spec.to_owned(),
        source,
    })
}

/// Parses `spec` and builds its provider.
pub fn build_provider(spec: &str, opts: &ProviderOptions) -> Result<Arc<dyn Provider>, SpecError> {
    let parsed = ProviderSpec::parse(spec)?;
    build_parsed(spec, &parsed, opts)
}

fn build_parsed(
    spec: &str,
    parsed: &ProviderSpec,
    opts: &ProviderOptions,
) -> Result<Arc<dyn Provider>, SpecError> {
    match parsed {
        ProviderSpec::OpenAi {
            model,
            base_url,
            dialect,
        } => build_openai(spec, model, base_url.as_deref(), *dialect, opts),
        ProviderSpec::Anthropic {
            model,
            base_url,
            options,
        } => {
            let base_url = base_url
                .clone()
                .unwrap_or_else(|| crate::providers::anthropic::DEFAULT_BASE_URL.to_owned());
            let key = required_key(spec, opts, ANTHROPIC_KEY_ENV)?;
            let p = AnthropicProvider::new(model.clone(), base_url, key)
                .map_err(|source| http_client_error(spec, source))?
                .with_options(*options);
            Ok(Arc::new(match opts.max_answer_bytes {
                Some(b) => p.with_max_answer_bytes(b),
                None => p,
            }))
        }
        ProviderSpec::Record { dir, inner } => {
            let inner = build_parsed(spec, inner, opts)?;
            let normalizer = normalizer(spec, opts)?;
            Ok(Arc::new(RecordProvider::new(
                dir.clone(),
                inner,
                normalizer,
            )))
        }
        ProviderSpec::Replay { dir } => {
            let normalizer = normalizer(spec, opts)?;
            let p = ReplayProvider::open(dir.clone(), normalizer).map_err(|e| SpecError::File {
                spec: spec.to_owned(),
                path: dir.clone(),
                message: e.to_string(),
            })?;
            Ok(Arc::new(p))
        }
        ProviderSpec::Scripted { source } => build_scripted(spec, source, opts),
    }
}

/// `openai:`: the base URL from the spec or [`BASE_URL_ENV`], the key from the options'
/// variable.
fn build_openai(
    spec: &str,
    model: &str,
    base_url: Option<&str>,
    dialect: Dialect,
    opts: &ProviderOptions,
) -> Result<Arc<dyn Provider>, SpecError> {
    let base_url = match base_url
        .map(str::to_owned)
        .or_else(|| opts.var(BASE_URL_ENV))
    {
        Some(u) => u,
        None => {
            return Err(SpecError::MissingBaseUrl {
                spec: spec.to_owned(),
                model: model.to_owned(),
                var: BASE_URL_ENV.into(),
            });
        }
    };
    if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
        return Err(invalid(
            spec,
            &format!("base URL {base_url:?} must start with http:// or https://"),
        ));
    }
    let key = required_key(spec, opts, DEFAULT_KEY_ENV)?;
    let p = OpenAiProvider::new(model.to_owned(), base_url, Some(key))
        .map_err(|source| http_client_error(spec, source))?
        .with_dialect(dialect);
    Ok(Arc::new(match opts.max_answer_bytes {
        Some(b) => p.with_max_answer_bytes(b),
        None => p,
    }))
}

/// `scripted:`: the trajectory file (or the task's), which must have turns.
fn build_scripted(
    spec: &str,
    source: &ScriptSource,
    opts: &ProviderOptions,
) -> Result<Arc<dyn Provider>, SpecError> {
    let path = match source {
        ScriptSource::File(p) => p.clone(),
        ScriptSource::Task => opts.task_trajectory.clone().ok_or_else(|| invalid(
            spec,
            "scripted:task needs the task's trajectory.yaml (the caller passes ProviderOptions::task_trajectory)",
        ))?,
    };
    let text = std::fs::read_to_string(&path).map_err(|source| SpecError::Io {
        spec: spec.to_owned(),
        path: path.clone(),
        source,
    })?;
    let trajectory = Trajectory::from_yaml(&text).map_err(|e| SpecError::File {
        spec: spec.to_owned(),
        path: path.clone(),
        message: format!("not a trajectory: {e}"),
    })?;
    if trajectory.turns.is_empty() {
        return Err(SpecError::File {
            spec: spec.to_owned(),
            path,
            message: "the trajectory has no turns".into(),
        });
    }
    Ok(Arc::new(ScriptedProvider::new(
        path.display().to_string(),
        trajectory,
    )))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_kind() {
        assert_eq!(
            ProviderSpec::parse("openai:qwen2.5:7b@http://127.0.0.1:11434/v1").unwrap(),
            ProviderSpec::OpenAi {
                model: "qwen2.5:7b".into(),
                base_url: Some("http://127.0.0.1:11434/v1".into()),
                dialect: Dialect::default(),
            }
        );
        assert_eq!(
            ProviderSpec::parse("openai:m").unwrap(),
            ProviderSpec::OpenAi {
                model: "m".into(),
                base_url: None,
                dialect: Dialect::default(),
            }
        );
        assert_eq!(
            ProviderSpec::parse(
                "openai[stream=off,tool_choice=omit]:smol:135m@http://127.0.0.1:8000/v1"
            )
            .unwrap(),
            ProviderSpec::OpenAi {
                model: "smol:135m".into(),
                base_url: Some("http://127.0.0.1:8000/v1".into()),
                dialect: Dialect {
                    stream: false,
                    tool_choice: false,
                    ..Dialect::default()
                },
            }
        );
        assert!(matches!(
            ProviderSpec::parse("record:cas:openai[stream=off]:m@http://h/v1").unwrap(),
            ProviderSpec::Record { inner, .. } if matches!(*inner, ProviderSpec::OpenAi { dialect, .. } if !dialect.stream)
        ));
        assert_eq!(
            ProviderSpec::parse("record:cas/x:scripted:task").unwrap(),
            ProviderSpec::Record {
                dir: "cas/x".into(),
                inner: Box::new(ProviderSpec::Scripted {
                    source: ScriptSource::Task
                })
            }
        );
        assert_eq!(
            ProviderSpec::parse("replay:cas").unwrap(),
            ProviderSpec::Replay { dir: "cas".into() }
        );
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        for (spec, wanted) in [
            (
                "gemini:x",
                &["unknown provider spec", "openai[<options>]:<model>"][..],
            ),
            ("record:dir", &["record:<cassette-dir>:<inner spec>"]),
            ("openai:m@ftp://x", &["http://"]),
            ("record:d:replay:x", &["must wrap"]),
            ("openai[stream=maybe]:m", &["takes on or off"]),
            ("openai[stream=off:m", &["unclosed `[`"]),
            (
                "replay[stream=off]:dir",
                &["only openai: and anthropic: take [options]"],
            ),
        ] {
            let e = ProviderSpec::parse(spec).unwrap_err().to_string();
            assert!(wanted.iter().all(|w| e.contains(w)), "{spec}: {e}");
        }
    }

    #[test]
    fn openai_needs_a_base_url_and_a_key() {
        let opts = ProviderOptions::default();
        let e = build_provider("openai:m", &opts).err().unwrap().to_string();
        assert!(e.contains("no base URL"), "{e}");
        let opts = ProviderOptions {
            api_key_env: Some("NAB_TEST_SURELY_UNSET_KEY".into()),
            ..Default::default()
        };
        let e = build_provider("openai:m@http://127.0.0.1:1/v1", &opts)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("NAB_TEST_SURELY_UNSET_KEY"), "{e}");
        let mut opts = opts;
        opts.env_overrides
            .insert("NAB_TEST_SURELY_UNSET_KEY".into(), "k".into());
        let p = build_provider("openai:m@http://u:pw@127.0.0.1:1/v1", &opts).unwrap();
        assert_eq!(p.describe(), "openai:m@http://127.0.0.1:1/v1");
    }

    #[test]
    fn anthropic_parses_and_takes_its_key_from_anthropic_api_key_or_api_key_env() {
        assert_eq!(
            ProviderSpec::parse("anthropic:claude-sonnet-4-5").unwrap(),
            ProviderSpec::Anthropic {
                model: "claude-sonnet-4-5".into(),
                base_url: None,
                options: Default::default(),
            }
        );
        // Prompt caching is on unless the spec turns it off.
        match ProviderSpec::parse("anthropic[cache=off]:c").unwrap() {
            ProviderSpec::Anthropic { options, .. } => assert!(!options.cache),
            other => panic!("{other:?}"),
        }
        let e = ProviderSpec::parse("anthropic[cache=maybe]:c")
            .unwrap_err()
            .to_string();
        assert!(e.contains("on or off"), "{e}");
        let e = ProviderSpec::parse("replay[cache=off]:x")
            .unwrap_err()
            .to_string();
        assert!(
            e.contains("only openai: and anthropic: take [options]"),
            "{e}"
        );
        assert_eq!(
            ProviderSpec::parse("record:cas:anthropic:c@http://127.0.0.1:9/").unwrap(),
            ProviderSpec::Record {
                dir: "cas".into(),
                inner: Box::new(ProviderSpec::Anthropic {
                    model: "c".into(),
                    base_url: Some("http://127.0.0.1:9/".into()),
                    options: Default::default(),
                })
            }
        );
        let e = ProviderSpec::parse("anthropic:").unwrap_err().to_string();
        assert!(e.contains("anthropic:<model>[@<base_url>]"), "{e}");
        let e = ProviderSpec::parse("anthropic:c@ftp://x")
            .unwrap_err()
            .to_string();
        assert!(e.contains("http://"), "{e}");
        // Without --api-key-env the key is ANTHROPIC_API_KEY (not NAB_API_KEY).
        let mut opts = ProviderOptions::default();
        opts.env_overrides.insert("NAB_API_KEY".into(), "k".into());
        opts.env_overrides
            .insert(ANTHROPIC_KEY_ENV.into(), String::new());
        if std::env::var(ANTHROPIC_KEY_ENV).is_err() {
            let e = build_provider("anthropic:c", &opts)
                .err()
                .unwrap()
                .to_string();
            assert!(e.contains("ANTHROPIC_API_KEY"), "{e}");
        }
        opts.env_overrides
            .insert(ANTHROPIC_KEY_ENV.into(), "ak".into());
        let p = build_provider("anthropic:c", &opts).unwrap();
        assert_eq!(p.describe(), "anthropic:c@https://api.anthropic.com");
        let p = build_provider("anthropic[cache=off]:c", &opts).unwrap();
        assert_eq!(
            p.describe(),
            "anthropic[cache=off]:c@https://api.anthropic.com"
        );
        opts.api_key_env = Some("NAB_TEST_SURELY_UNSET_KEY".into());
        let e = build_provider("anthropic:c", &opts)
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("NAB_TEST_SURELY_UNSET_KEY"), "{e}");
    }

    #[test]
    fn scripted_task_needs_the_trajectory_path() {
        let e = build_provider("scripted:task", &ProviderOptions::default())
            .err()
            .unwrap()
            .to_string();
        assert!(e.contains("trajectory.yaml"), "{e}");
    }
}
