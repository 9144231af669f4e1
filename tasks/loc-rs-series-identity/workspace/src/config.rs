/// How a [`crate::Db`] is laid out.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// How many shards the series are spread over (at least 1).
    pub shards: usize,
    /// How many samples a series' head holds before it is sealed into a chunk.
    pub chunk_samples: usize,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            shards: 4,
            chunk_samples: 120,
        }
    }
}

impl Config {
    pub fn with_shards(shards: usize) -> Config {
        Config {
            shards: shards.max(1),
            ..Config::default()
        }
    }
}
