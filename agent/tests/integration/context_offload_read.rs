//! Offloaded outputs are read back with read_file from the state directory — and only from
//! there: the workspace guard still holds for everything else.

use nab_agent::ReadFile;
use nab_agent::ToolContext;
use nab_agent::ToolHandler;
use nab_agent::ToolOutput;
use nab_agent::{Offloader, offloaded_path};
use nab_protocol::ToolStatus;
use serde_json::json;

async fn read(ctx: &ToolContext, path: String) -> ToolOutput {
    ReadFile
        .call(ctx, json!({"path": path, "offset": 3000, "limit": 2}))
        .await
}

#[tokio::test]
async fn read_file_reads_offloaded_outputs_and_nothing_else_outside_the_workspace() {
    let dir = tempfile::tempdir().unwrap();
    let (ws, state, elsewhere) = (
        dir.path().join("ws"),
        dir.path().join("state"),
        dir.path().join("elsewhere"),
    );
    for d in [&ws, &state, &elsewhere] {
        std::fs::create_dir_all(d).unwrap();
    }
    let text: String = (0..4000).map(|i| format!("row {i:04}\n")).collect();
    let stub = Offloader::new(&state).offload("call_9", &text).unwrap();
    let path = offloaded_path(&stub).unwrap().to_string();
    assert!(!path.starts_with(&ws.display().to_string()));

    let mut ctx = ToolContext::new(&ws).unwrap();
    // Without a state directory the guard refuses the path.
    assert_eq!(read(&ctx, path.clone()).await.status, ToolStatus::Error);
    ctx.state_dir = Some(state.clone());
    let out = read(&ctx, path.clone()).await;
    assert_eq!(out.status, ToolStatus::Ok, "{}", out.text);
    assert!(
        out.text.contains("3000\trow 2999") && out.text.contains("3001\trow 3000"),
        "{}",
        out.text
    );

    // Other absolute paths outside the workspace stay refused, also through a symlink
    // planted in the state directory.
    std::fs::write(elsewhere.join("secret.txt"), "no\n").unwrap();
    std::os::unix::fs::symlink(elsewhere.join("secret.txt"), state.join("link.txt")).unwrap();
    for p in [elsewhere.join("secret.txt"), state.join("link.txt")] {
        let out = read(&ctx, p.display().to_string()).await;
        assert_eq!(
            out.status,
            ToolStatus::Error,
            "{} was readable: {}",
            p.display(),
            out.text
        );
    }
    // A relative path still means the workspace.
    assert_eq!(
        read(&ctx, "tool-outputs/0001-call_9.txt".into())
            .await
            .status,
        ToolStatus::Error
    );
}
