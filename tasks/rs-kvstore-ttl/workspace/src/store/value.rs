//! The value a key holds.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Value {
    Str(String),
    List(VecDeque<String>),
    Hash(BTreeMap<String, String>),
    Set(BTreeSet<String>),
}

impl Value {
    /// The name `TYPE` prints.
    pub fn type_name(&self) -> &'static str {
        match self {
            Value::Str(_) => "string",
            Value::List(_) => "list",
            Value::Hash(_) => "hash",
            Value::Set(_) => "set",
        }
    }

    /// Whether a collection has no elements left (such a key is removed).
    pub fn is_empty_collection(&self) -> bool {
        match self {
            Value::Str(_) => false,
            Value::List(l) => l.is_empty(),
            Value::Hash(h) => h.is_empty(),
            Value::Set(s) => s.is_empty(),
        }
    }
}
