//! The providers, one per file (or folder).

pub mod anthropic;
pub mod openai;
pub mod record;
pub mod replay;
pub mod scripted;

pub use anthropic::AnthropicProvider;
pub use openai::OpenAiProvider;
pub use record::RecordProvider;
pub use replay::ReplayProvider;
pub use scripted::ScriptedProvider;
