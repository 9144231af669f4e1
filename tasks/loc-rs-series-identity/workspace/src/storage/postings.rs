use std::collections::BTreeMap;

/// Which series of a shard carry each metric name, by their index in the shard.
#[derive(Debug, Clone, Default)]
pub struct Postings {
    by_name: BTreeMap<String, Vec<usize>>,
}

impl Postings {
    pub fn add(&mut self, name: &str, idx: usize) {
        let list = self.by_name.entry(name.to_string()).or_default();
        if let Err(at) = list.binary_search(&idx) {
            list.insert(at, idx);
        }
    }

    pub fn for_name(&self, name: &str) -> &[usize] {
        self.by_name.get(name).map_or(&[], |v| v.as_slice())
    }

    pub fn names(&self) -> impl Iterator<Item = &String> {
        self.by_name.keys()
    }
}
