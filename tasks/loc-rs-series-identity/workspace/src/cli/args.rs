use crate::error::{Error, Result};
use std::collections::BTreeMap;

/// Positional arguments, `--name value` options and `--switch`es.
#[derive(Debug, Default)]
pub struct Args {
    pub files: Vec<String>,
    options: BTreeMap<String, String>,
    switches: Vec<String>,
}

const SWITCHES: &[&str] = &["csv"];

impl Args {
    pub fn parse(argv: &[String]) -> Result<Args> {
        let mut a = Args::default();
        let mut it = argv.iter();
        while let Some(arg) = it.next() {
            if let Some(name) = arg.strip_prefix("--") {
                if SWITCHES.contains(&name) {
                    a.switches.push(name.to_string());
                    continue;
                }
                let value = it
                    .next()
                    .ok_or_else(|| Error::Usage(format!("--{} needs a value", name)))?;
                a.options.insert(name.to_string(), value.clone());
            } else {
                a.files.push(arg.clone());
            }
        }
        Ok(a)
    }

    pub fn get(&self, name: &str) -> Option<&str> {
        self.options.get(name).map(|s| s.as_str())
    }

    pub fn switch(&self, name: &str) -> bool {
        self.switches.iter().any(|s| s == name)
    }
}
