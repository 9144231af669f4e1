//! Engine settings.

/// How an engine behaves. `Config::default()` suits tests and embedding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Config {
    /// The longest key accepted, in bytes.
    pub max_key_len: usize,
    /// How many keys one call of [`crate::Engine::tick`] may examine for expiry.
    pub sweep_budget: usize,
    /// Whether command names are matched without regard to case.
    pub case_insensitive_commands: bool,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            max_key_len: 512,
            sweep_budget: 20,
            case_insensitive_commands: true,
        }
    }
}

impl Config {
    pub fn with_max_key_len(mut self, n: usize) -> Config {
        self.max_key_len = n;
        self
    }

    pub fn with_sweep_budget(mut self, n: usize) -> Config {
        self.sweep_budget = n;
        self
    }
}
