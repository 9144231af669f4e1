use crate::model::Sample;

/// The open end of a series: the newest samples, not yet sealed.
#[derive(Debug, Clone, Default)]
pub struct Head {
    samples: Vec<Sample>,
}

impl Head {
    pub fn new() -> Head {
        Head::default()
    }

    pub fn push(&mut self, s: Sample) {
        self.samples.push(s);
    }

    /// Replaces the value of the newest sample.
    pub fn overwrite_last(&mut self, value: f64) -> bool {
        match self.samples.last_mut() {
            Some(s) => {
                s.value = value;
                true
            }
            None => false,
        }
    }

    pub fn last(&self) -> Option<&Sample> {
        self.samples.last()
    }

    pub fn len(&self) -> usize {
        self.samples.len()
    }

    pub fn is_empty(&self) -> bool {
        self.samples.is_empty()
    }

    pub fn samples(&self) -> &[Sample] {
        &self.samples
    }

    /// Empties the head, handing its samples over.
    pub fn take(&mut self) -> Vec<Sample> {
        std::mem::take(&mut self.samples)
    }
}
