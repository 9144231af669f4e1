//! A set of labels (`name="value"` pairs).

use crate::error::{Error, Result};
use crate::hash::Fnv;
use crate::model::name::check_label_name;
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};

/// Labels, sorted by name, each name at most once, kept as they were given. A label whose
/// value is empty stands for no label at all: it takes no part in comparisons, look-ups or
/// printing (see README.md, "Series identity").
#[derive(Debug, Clone, Default)]
pub struct Labels {
    pairs: Vec<(String, String)>,
}

impl Labels {
    pub fn new() -> Labels {
        Labels::default()
    }

    /// Labels from `(name, value)` pairs in any order; names are checked and may not repeat.
    pub fn from_pairs<I, K, V>(pairs: I) -> Result<Labels>
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<String>,
    {
        let mut out: Vec<(String, String)> = Vec::new();
        for (k, v) in pairs {
            let k = k.into();
            check_label_name(&k)?;
            out.push((k, v.into()));
        }
        out.sort_by(|a, b| a.0.cmp(&b.0));
        for w in out.windows(2) {
            if w[0].0 == w[1].0 {
                return Err(Error::DuplicateLabel(w[0].0.clone()));
            }
        }
        Ok(Labels { pairs: out })
    }

    /// How many pairs, as given (empty values included).
    pub fn len(&self) -> usize {
        self.pairs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.pairs.is_empty()
    }

    /// The labels that have a value, by name.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> + '_ {
        self.pairs
            .iter()
            .filter(|(_, v)| !v.is_empty())
            .map(|(k, v)| (k.as_str(), v.as_str()))
    }

    /// The value of `name`; `None` when it is absent or empty.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().find(|(k, _)| *k == name).map(|(_, v)| v)
    }

    /// Only the labels named in `names`.
    pub fn project(&self, names: &[String]) -> Labels {
        Labels {
            pairs: self
                .pairs
                .iter()
                .filter(|(k, _)| names.iter().any(|n| n == k))
                .cloned()
                .collect(),
        }
    }

    /// Every label but those named in `names`.
    pub fn without(&self, names: &[String]) -> Labels {
        Labels {
            pairs: self
                .pairs
                .iter()
                .filter(|(k, _)| !names.iter().any(|n| n == k))
                .cloned()
                .collect(),
        }
    }

    /// A 64-bit fingerprint of the set, equal for equal sets, stable across runs: series
    /// are spread over shards by it.
    pub fn fingerprint(&self) -> u64 {
        let mut h = Fnv::new();
        h.write_u64(self.len() as u64);
        for (k, v) in self.iter() {
            h.write(k.as_bytes());
            h.write(&[0xff]);
            h.write(v.as_bytes());
            h.write(&[0xfe]);
        }
        h.finish()
    }
}

impl PartialEq for Labels {
    fn eq(&self, other: &Labels) -> bool {
        let mut a = self.iter();
        let mut b = other.iter();
        loop {
            match (a.next(), b.next()) {
                (None, None) => return true,
                (Some(x), Some(y)) if x == y => continue,
                _ => return false,
            }
        }
    }
}

impl Eq for Labels {}

impl Hash for Labels {
    fn hash<H: Hasher>(&self, state: &mut H) {
        for (k, v) in self.iter() {
            k.hash(state);
            v.hash(state);
        }
    }
}

impl PartialOrd for Labels {
    fn partial_cmp(&self, other: &Labels) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Labels {
    fn cmp(&self, other: &Labels) -> Ordering {
        self.iter().cmp(other.iter())
    }
}

/// `{a="1",b="x\"y"}`; `{}` when no label has a value.
impl fmt::Display for Labels {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("{")?;
        for (i, (k, v)) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}=\"{}\"", k, crate::parse::escape::escape(v))?;
        }
        f.write_str("}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sorted_and_unique() {
        let l = Labels::from_pairs(vec![("b", "2"), ("a", "1")]).unwrap();
        assert_eq!(l.to_string(), "{a=\"1\",b=\"2\"}");
        assert!(Labels::from_pairs(vec![("a", "1"), ("a", "2")]).is_err());
    }

    #[test]
    fn project_and_without() {
        let l = Labels::from_pairs(vec![("job", "api"), ("instance", "web-1")]).unwrap();
        assert_eq!(l.project(&["job".to_string()]).to_string(), "{job=\"api\"}");
        assert_eq!(l.without(&["job".to_string()]).to_string(), "{instance=\"web-1\"}");
    }

    #[test]
    fn fingerprints_differ_for_different_sets() {
        let a = Labels::from_pairs(vec![("job", "api")]).unwrap();
        let b = Labels::from_pairs(vec![("job", "web")]).unwrap();
        let c = Labels::from_pairs(vec![("jo", "bapi")]).unwrap();
        assert_ne!(a.fingerprint(), b.fingerprint());
        assert_ne!(a.fingerprint(), c.fingerprint());
    }
}
