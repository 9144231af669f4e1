/// One observation: milliseconds since the Unix epoch, and a value.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Sample {
    pub ts: i64,
    pub value: f64,
}

impl Sample {
    pub fn new(ts: i64, value: f64) -> Sample {
        Sample { ts, value }
    }
}
