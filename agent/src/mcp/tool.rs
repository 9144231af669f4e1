//! MCP tools in the agent's tool registry, kept in step with the servers.

use super::{McpManager, McpTool, TOOL_PREFIX};
use crate::tools::{ToolContext, ToolError, ToolHandler, ToolOutput, ToolRegistry};
use serde_json::Value;
use std::sync::Arc;

/// One MCP tool as a [`ToolHandler`]: calls go through the manager (timeout, supervision).
pub struct McpToolHandler {
    tool: McpTool,
    manager: Arc<McpManager>,
}

#[async_trait::async_trait]
impl ToolHandler for McpToolHandler {
    fn name(&self) -> &str {
        &self.tool.name
    }
    fn description(&self) -> &str {
        &self.tool.description
    }
    fn parameters(&self) -> Value {
        self.tool.input_schema.clone()
    }
    /// External tools may change anything; they run one at a time, in call order.
    fn is_mutating(&self) -> bool {
        true
    }
    async fn handle(&self, _ctx: &ToolContext, args: Value) -> Result<ToolOutput, ToolError> {
        let out = self.manager.call(&self.tool.name, args).await;
        if out.timed_out {
            Ok(ToolOutput::timeout(out.text))
        } else if out.is_error {
            Err(ToolError::External(out.text))
        } else {
            Ok(ToolOutput::ok(out.text))
        }
    }
}

/// Makes the registry's `mcp__*` tools match the manager's current list: new ones are
/// registered, vanished ones (a dead server, a `list_changed`) unregistered. Called before
/// each model call, so a change takes effect on the next one. Returns (added, removed).
pub fn sync_registry(manager: &Arc<McpManager>, registry: &ToolRegistry) -> (usize, usize) {
    let wanted = manager.tools();
    let mut removed = 0;
    for name in registry
        .names()
        .into_iter()
        .filter(|n| n.starts_with(TOOL_PREFIX))
    {
        let keep = wanted.iter().any(|t| {
            t.name == name
                && registry.get(&name).is_some_and(|h| {
                    h.parameters() == t.input_schema && h.description() == t.description
                })
        });
        if !keep {
            registry.unregister(&name);
            removed += 1;
        }
    }
    let mut added = 0;
    for t in wanted {
        if registry.get(&t.name).is_none() {
            registry.register(Arc::new(McpToolHandler {
                tool: t,
                manager: manager.clone(),
            }));
            added += 1;
        }
    }
    (added, removed)
}
