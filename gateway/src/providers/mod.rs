//! The providers, one per file.

pub mod openai;
pub mod record;
pub mod replay;
pub mod scripted;

pub use openai::OpenAiProvider;
pub use record::RecordProvider;
pub use replay::ReplayProvider;
pub use scripted::ScriptedProvider;
