use crate::error::{Error, Result};
use crate::model::name::check_metric_name;
use crate::parse::escape::unescape;
use crate::query::matcher::{Matcher, Op};

/// `metric` or `metric{label="v",label!="v",label=~"pat*"}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Selector {
    pub metric: String,
    pub matchers: Vec<Matcher>,
}

impl Selector {
    pub fn parse(s: &str) -> Result<Selector> {
        let bad = |why: &str| Error::InvalidSelector(format!("{}: {}", why, s));
        let s = s.trim();
        let (metric, rest) = match s.find('{') {
            Some(i) => (&s[..i], Some(&s[i..])),
            None => (s, None),
        };
        check_metric_name(metric).map_err(|_| bad("bad metric name"))?;
        let mut matchers = Vec::new();
        if let Some(rest) = rest {
            if !rest.ends_with('}') {
                return Err(bad("missing }"));
            }
            let body = &rest[1..rest.len() - 1];
            for part in split_outside_quotes(body) {
                let part = part.trim();
                if part.is_empty() {
                    continue;
                }
                let (name, op, value) = if let Some(i) = part.find("!=") {
                    (&part[..i], Op::Ne, &part[i + 2..])
                } else if let Some(i) = part.find("=~") {
                    (&part[..i], Op::Glob, &part[i + 2..])
                } else if let Some(i) = part.find('=') {
                    (&part[..i], Op::Eq, &part[i + 1..])
                } else {
                    return Err(bad("expected a matcher"));
                };
                let value = value.trim();
                if value.len() < 2 || !value.starts_with('"') || !value.ends_with('"') {
                    return Err(bad("values are quoted"));
                }
                let value = unescape(&value[1..value.len() - 1]).map_err(|e| bad(&e))?;
                matchers.push(Matcher::new(name.trim(), op, &value));
            }
        }
        Ok(Selector {
            metric: metric.to_string(),
            matchers,
        })
    }

    pub fn matches(&self, labels: &crate::model::Labels) -> bool {
        self.matchers.iter().all(|m| m.matches(labels))
    }
}

fn split_outside_quotes(s: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let (mut start, mut quoted, mut escaped) = (0, false, false);
    for (i, c) in s.char_indices() {
        if escaped {
            escaped = false;
        } else if c == '\\' {
            escaped = true;
        } else if c == '"' {
            quoted = !quoted;
        } else if c == ',' && !quoted {
            out.push(&s[start..i]);
            start = i + 1;
        }
    }
    out.push(&s[start..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses() {
        let s = Selector::parse(r#"mem_bytes{job="api", instance=~"web-*",env!="a,b"}"#).unwrap();
        assert_eq!(s.metric, "mem_bytes");
        assert_eq!(s.matchers.len(), 3);
        assert_eq!(s.matchers[1].op, Op::Glob);
        assert_eq!(s.matchers[2].value, "a,b");
        assert!(Selector::parse("mem_bytes{job=api}").is_err());
    }
}
