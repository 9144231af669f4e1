//! The built-in tools, called directly.

use nab_agent::child_env;
use nab_agent::{ToolContext, ToolRegistry};
use nab_protocol::ToolStatus;
use serde_json::{Value, json};

struct Ws {
    dir: tempfile::TempDir,
    ctx: ToolContext,
    reg: ToolRegistry,
}

fn ws(files: &[(&str, &str)]) -> Ws {
    let dir = tempfile::tempdir().unwrap();
    for (p, c) in files {
        let path = dir.path().join(p);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, c).unwrap();
    }
    let ctx = ToolContext::new(dir.path()).unwrap();
    Ws {
        dir,
        ctx,
        reg: ToolRegistry::with_builtins(),
    }
}

impl Ws {
    async fn call(&self, name: &str, args: Value) -> nab_agent::ToolOutput {
        self.reg.get(name).unwrap().call(&self.ctx, args).await
    }
}

#[tokio::test]
async fn read_file_pages_with_offset_and_limit() {
    let text: String = (1..=450).map(|i| format!("line {i}\n")).collect();
    let w = ws(&[("big.txt", &text)]);
    let first = w.call("read_file", json!({"path": "big.txt"})).await;
    assert!(
        first.text.starts_with("     1\tline 1\n"),
        "{}",
        &first.text[..40]
    );
    assert!(first.text.contains("   200\tline 200\n") && !first.text.contains("line 201"));
    assert!(
        first.text.ends_with("continue with offset=201)"),
        "{}",
        first.text.lines().last().unwrap()
    );
    let last = w
        .call(
            "read_file",
            json!({"path": "big.txt", "offset": 401, "limit": 100}),
        )
        .await;
    assert!(last.text.starts_with("   401\tline 401") && last.text.contains("line 450"));
    assert!(!last.text.contains("continue with"));
    let capped = w
        .call("read_file", json!({"path": "big.txt", "limit": 5000}))
        .await;
    assert!(
        capped.text.contains("line 450"),
        "limit above 2000 is capped, not refused"
    );
    let past = w
        .call("read_file", json!({"path": "big.txt", "offset": 999}))
        .await;
    assert_eq!(past.status, ToolStatus::Error);
    assert!(
        past.text.contains("past the end") && past.text.contains("450 lines"),
        "{}",
        past.text
    );
    let bad = w
        .call("read_file", json!({"path": "big.txt", "limit": "ten"}))
        .await;
    assert!(bad.text.contains("field `limit`"), "{}", bad.text);
    let unknown = w
        .call("read_file", json!({"path": "big.txt", "lines": 3}))
        .await;
    assert!(
        unknown.text.contains("unknown field `lines`"),
        "{}",
        unknown.text
    );
    let missing = w.call("read_file", json!({})).await;
    assert!(
        missing.text.contains("missing field `path`"),
        "{}",
        missing.text
    );
}

#[tokio::test]
async fn edit_file_requires_exactly_one_match() {
    let w = ws(&[("a.py", "x = 1\nx = 1\ny = 2\n")]);
    let twice = w
        .call(
            "edit_file",
            json!({"path": "a.py", "old": "x = 1", "new": "x = 3"}),
        )
        .await;
    assert_eq!(twice.status, ToolStatus::Error);
    assert!(twice.text.contains("matched 2 times"), "{}", twice.text);
    let none = w
        .call(
            "edit_file",
            json!({"path": "a.py", "old": "z = 9", "new": "z"}),
        )
        .await;
    assert!(none.text.contains("0 matches"), "{}", none.text);
    let once = w
        .call(
            "edit_file",
            json!({"path": "a.py", "old": "y = 2", "new": "y = 20"}),
        )
        .await;
    assert_eq!(once.status, ToolStatus::Ok, "{}", once.text);
    assert_eq!(
        std::fs::read_to_string(w.dir.path().join("a.py")).unwrap(),
        "x = 1\nx = 1\ny = 20\n"
    );
    let broken = w
        .call(
            "edit_file",
            json!({"path": "a.py", "old": "y = 20", "new": "y = (20"}),
        )
        .await;
    assert!(
        broken.text.contains("Syntax check (python)"),
        "{}",
        broken.text
    );
}

#[tokio::test]
async fn write_file_refuses_escapes_and_creates_folders() {
    let w = ws(&[]);
    let out = w
        .call("write_file", json!({"path": "../evil.txt", "content": "x"}))
        .await;
    assert_eq!(out.status, ToolStatus::Error);
    assert!(out.text.contains("outside the workspace"));
    let ok = w
        .call(
            "write_file",
            json!({"path": "a/b/c.txt", "content": "hi\n"}),
        )
        .await;
    assert_eq!(ok.status, ToolStatus::Ok);
    assert_eq!(
        std::fs::read_to_string(w.dir.path().join("a/b/c.txt")).unwrap(),
        "hi\n"
    );
}

#[tokio::test]
async fn glob_and_grep_respect_gitignore() {
    let w = ws(&[
        (".gitignore", "build/\n*.log\n"),
        ("src/app.py", "def main():\n    return helper()\n"),
        ("src/util/helper.py", "def helper():\n    return 1\n"),
        ("build/gen.py", "def helper(): pass\n"),
        ("debug.log", "helper\n"),
        ("README.md", "helper docs\n"),
    ]);
    let g = w.call("glob_files", json!({"pattern": "*.py"})).await;
    assert_eq!(g.text, "src/app.py\nsrc/util/helper.py");
    let g = w
        .call("glob_files", json!({"pattern": "src/**/*.py"}))
        .await;
    assert_eq!(g.text, "src/app.py\nsrc/util/helper.py");
    let r = w
        .call(
            "grep_code",
            json!({"pattern": "def \\w+\\(", "glob": "*.py"}),
        )
        .await;
    assert_eq!(
        r.text,
        "src/app.py:1: def main():\nsrc/util/helper.py:1: def helper():"
    );
    let capped = w
        .call("grep_code", json!({"pattern": "helper", "max_results": 2}))
        .await;
    assert!(
        capped.text.contains("stopped at 2 results"),
        "{}",
        capped.text
    );
    let bad = w.call("grep_code", json!({"pattern": "("})).await;
    assert!(bad.text.contains("field `pattern`"), "{}", bad.text);
    let l = w.call("list_dir", json!({"path": "src"})).await;
    assert_eq!(l.text, "app.py\nutil/");
}

#[tokio::test]
async fn execute_command_reports_exit_codes_timeouts_and_argument_errors() {
    let w = ws(&[("f.txt", "hello\n")]);
    let out = w
        .call("execute_command", json!({"argv": ["cat", "f.txt"]}))
        .await;
    assert_eq!(out.text, "exit code: 0\n--- stdout ---\nhello");
    let out = w
        .call(
            "execute_command",
            json!({"command": "echo oops >&2; exit 3"}),
        )
        .await;
    assert_eq!(out.text, "exit code: 3\n--- stderr ---\noops");
    let out = w
        .call(
            "execute_command",
            json!({"command": "sleep 30 & sleep 30", "timeout_s": 1}),
        )
        .await;
    assert_eq!(out.status, ToolStatus::Timeout);
    assert!(
        out.text
            .starts_with("TIMEOUT: command did not finish within 1 s"),
        "{}",
        out.text
    );
    let out = w
        .call("execute_command", json!({"argv": ["no-such-program-xyz"]}))
        .await;
    assert_eq!(out.status, ToolStatus::Error);
    assert!(
        out.text.starts_with("ERROR: could not start"),
        "{}",
        out.text
    );
    let out = w
        .call("execute_command", json!({"argv": ["ls"], "command": "ls"}))
        .await;
    assert!(
        out.text.contains("exactly one of `argv` or `command`"),
        "{}",
        out.text
    );
    let out = w
        .call(
            "execute_command",
            json!({"command": "yes | head -c 100000"}),
        )
        .await;
    assert!(out.text.contains("bytes omitted"), "output must be capped");
    assert!(out.text.len() < 30_000);
}

#[tokio::test]
async fn the_child_environment_has_no_secrets() {
    let w = ws(&[]);
    let parent = vec![
        ("PATH", std::env::var("PATH").unwrap_or_default()),
        ("HOME", "/tmp".to_string()),
        ("OPENAI_API_KEY", "sk-test-secret-1".to_string()),
        ("NAB_API_KEY", "sk-test-secret-2".to_string()),
        ("GH_TOKEN", "ghp-secret-3".to_string()),
        ("PGPASSWORD", "secret-4".to_string()),
        ("CLIENT_SECRET", "secret-5".to_string()),
    ];
    let ctx = ToolContext {
        child_env: child_env(parent),
        ..ToolContext::new(w.dir.path()).unwrap()
    };
    let out = w
        .reg
        .get("execute_command")
        .unwrap()
        .call(&ctx, json!({"argv": ["env"]}))
        .await;
    assert!(out.text.starts_with("exit code: 0"), "{}", out.text);
    assert!(
        out.text.contains("HOME=/tmp") && out.text.contains("PATH="),
        "{}",
        out.text
    );
    for secret in [
        "sk-test-secret-1",
        "sk-test-secret-2",
        "ghp-secret-3",
        "secret-4",
        "secret-5",
        "_KEY=",
        "_TOKEN=",
    ] {
        assert!(!out.text.contains(secret), "{secret} leaked: {}", out.text);
    }
}
