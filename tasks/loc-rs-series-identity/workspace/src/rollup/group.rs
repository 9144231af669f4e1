use crate::model::Labels;
use std::collections::HashMap;

/// Values collected per group (the labels named in `by`), in the order groups first
/// appeared.
#[derive(Debug, Default)]
pub struct Groups {
    by: Vec<String>,
    index: HashMap<Labels, usize>,
    groups: Vec<(Labels, Vec<f64>)>,
}

impl Groups {
    pub fn new(by: &[String]) -> Groups {
        Groups {
            by: by.to_vec(),
            ..Groups::default()
        }
    }

    pub fn add(&mut self, series_labels: &Labels, value: f64) {
        let key = series_labels.project(&self.by);
        match self.index.get(&key) {
            Some(&i) => self.groups[i].1.push(value),
            None => {
                self.index.insert(key.clone(), self.groups.len());
                self.groups.push((key, vec![value]));
            }
        }
    }

    pub fn into_groups(self) -> Vec<(Labels, Vec<f64>)> {
        self.groups
    }
}
