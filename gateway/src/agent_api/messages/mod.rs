//! The Anthropic Messages API (`POST /v1/messages`) for the agent: its requests as chat
//! requests ([`request`]), and chat answers as its messages ([`answer`]) and events
//! ([`stream`]).

pub mod answer;
pub mod request;
pub mod stream;
