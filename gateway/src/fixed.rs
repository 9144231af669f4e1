//! A provider for tests and benchmarks of the gateway itself (feature `test-support`).

use crate::error::ProviderError;
use crate::provider::{Provider, ProviderResponse};
use serde_json::Value;

/// Answers every request at once with its body (status 200, JSON), without I/O: what is
/// measured or checked is then the gateway's own work.
pub struct FixedAnswer(pub Value);

#[async_trait::async_trait]
impl Provider for FixedAnswer {
    fn describe(&self) -> String {
        "in-process".into()
    }

    async fn send(&self, _request: &Value) -> Result<ProviderResponse, ProviderError> {
        Ok(ProviderResponse::Json {
            status: 200,
            body: self.0.clone(),
        })
    }
}
