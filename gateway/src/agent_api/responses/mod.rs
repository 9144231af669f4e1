//! The OpenAI Responses API (`POST /v1/responses`) for the agent: its requests as chat
//! requests ([`request`]), and chat answers as its responses ([`answer`]) and events
//! ([`stream`]). The gateway keeps no state: `previous_response_id` and stored responses
//! are refused; the agent sends its whole history as `input` items.

pub mod answer;
pub mod request;
pub mod stream;
