//! What a Harbor task's scripts ask of the sandbox. `tests/test.sh` is never run: only its
//! pytest run is carried over (as a verify step writing JUnit), and packages it installs
//! for the tests move to build time; tool downloads (uv, pytest plugins, curl) are dropped.
//! The oracle `solution/solve.sh` and the tests must work without a network, and no
//! verdict may come from a reward file.

use crate::task::pinned_requirement;

#[derive(Debug, Default, Clone, PartialEq)]
pub(super) struct ScriptPlan {
    pub apt: Vec<String>,
    pub pip: Vec<String>,
    pub notes: Vec<String>,
    pub refusals: Vec<String>,
}

/// Packages that exist only to run or report pytest the Harbor way: nab has its own.
fn is_runner_tool(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    n == "pytest" || n.starts_with("pytest-") || n == "uv" || n == "pip"
}

/// Packages installed only to download tools, which nab never does.
const FETCH_TOOLS: &[&str] = &["curl", "wget", "ca-certificates", "gnupg"];

const NETWORK_IN_CODE: &[&str] = &[
    "requests.get(",
    "requests.post(",
    "urlopen(",
    "urllib.request",
    "http.client",
    "httpx.",
    "curl ",
    "wget ",
    "git clone http",
    "pip install",
    "apt-get install",
    "npm install",
];

const SERVICE_IN_CODE: &[&str] = &[
    "localhost:",
    "127.0.0.1",
    "0.0.0.0",
    "psycopg",
    "pymysql",
    "redis.Redis",
    "docker ",
    "systemctl",
    "service ",
];

pub(super) fn test_script(text: &str) -> ScriptPlan {
    let mut plan = ScriptPlan::default();
    let mut runs_pytest = false;
    for (n, line) in logical_lines(text).iter().enumerate() {
        let line = line.trim();
        if line.starts_with('#') || line.is_empty() {
            continue;
        }
        if reads_reward(line) {
            plan.refusals.push(format!(
                "tests/test.sh line {}: the verdict comes from a reward file written elsewhere (`{line}`); nab never reads reward files",
                n + 1
            ));
        }
        let words = shlex::split(line).unwrap_or_default();
        if words
            .iter()
            .any(|w| w == "pytest" || w.ends_with("/pytest"))
        {
            runs_pytest = true;
            // uvx's `-w pkg==ver` / `--with pkg==ver` bring test dependencies along.
            let mut it = words.iter();
            while let Some(w) = it.next() {
                if (w == "-w" || w == "--with")
                    && let Some(req) = it.next()
                {
                    take_pip(req, &mut plan);
                }
            }
        }
        let w: Vec<&str> = words.iter().map(String::as_str).collect();
        match w.as_slice() {
            ["apt-get" | "apt", "install", rest @ ..] => {
                for p in rest.iter().filter(|p| !p.starts_with('-')) {
                    let p = p.split('=').next().unwrap_or(p);
                    if FETCH_TOOLS.contains(&p) {
                        plan.notes
                            .push(format!("test.sh installs {p} to fetch tools: dropped"));
                    } else {
                        plan.apt.push(p.to_owned());
                    }
                }
            }
            ["pip" | "pip3", "install", rest @ ..]
            | ["uv", "pip", "install", rest @ ..]
            | ["python" | "python3", "-m", "pip", "install", rest @ ..] => {
                for r in rest.iter().filter(|r| !r.starts_with('-')) {
                    take_pip(r, &mut plan);
                }
            }
            _ => {}
        }
    }
    if !runs_pytest {
        plan.refusals.push(
            "tests/test.sh runs no pytest, so there is no test report to judge by (nab never reads a reward file)"
                .to_owned(),
        );
    }
    plan.apt.sort();
    plan.apt.dedup();
    plan.pip.sort();
    plan.pip.dedup();
    plan
}

fn take_pip(req: &str, plan: &mut ScriptPlan) {
    let name = req
        .split(['=', '<', '>', '[', '~', '!'])
        .next()
        .unwrap_or(req);
    if is_runner_tool(name) {
        return;
    }
    match pinned_requirement(req) {
        Ok(()) => plan.pip.push(req.to_owned()),
        Err(why) => plan
            .refusals
            .push(format!("tests/test.sh: pip package `{req}` {why}")),
    }
}

/// A line that takes a reward from a file rather than writing one from the test result.
fn reads_reward(line: &str) -> bool {
    if !line.contains("reward") {
        return false;
    }
    let writes_only = line.contains("echo") && line.contains('>') && !line.contains('<');
    !writes_only
}

/// The oracle must run like an agent: no network; and nothing on the agent's side may
/// write a reward.
pub(super) fn solve_script(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in logical_lines(text).iter().enumerate() {
        let l = line.trim();
        if l.starts_with('#') {
            continue;
        }
        if let Some(hit) = NETWORK_IN_CODE.iter().find(|p| l.contains(*p)) {
            out.push(format!(
                "needs the network at run time: solution/solve.sh line {} uses `{}`",
                n + 1,
                hit.trim()
            ));
        }
        if l.contains("reward") {
            out.push(format!(
                "the agent's side writes a reward file (solution/solve.sh line {}: `{l}`); nab never reads reward files",
                n + 1
            ));
        }
    }
    out
}

/// A hidden test file: the network and live services are refused.
pub(super) fn test_file(name: &str, text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let l = line.trim();
        if l.starts_with('#') {
            continue;
        }
        if let Some(hit) = NETWORK_IN_CODE.iter().find(|p| l.contains(*p)) {
            out.push(format!(
                "needs the network at run time: tests/{name} line {} uses `{}`",
                n + 1,
                hit.trim()
            ));
        }
        if let Some(hit) = SERVICE_IN_CODE.iter().find(|p| l.contains(*p)) {
            out.push(format!(
                "a service's state is the verdict: tests/{name} line {} uses `{}`",
                n + 1,
                hit.trim()
            ));
        }
        if l.contains("reward.txt") || l.contains("reward.json") {
            out.push(format!(
                "tests/{name} line {} reads a reward file; nab never reads reward files",
                n + 1
            ));
        }
    }
    out
}

/// Lines with `\` continuations joined.
fn logical_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    for line in text.lines() {
        match line.strip_suffix('\\') {
            Some(head) => {
                cur.push_str(head);
                cur.push(' ');
            }
            None => {
                cur.push_str(line);
                out.push(std::mem::take(&mut cur));
            }
        }
    }
    if !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_harbor_test_script_keeps_only_its_pytest_and_test_dependencies() {
        let p = test_script(
            "#!/bin/bash\napt-get update\napt-get install -y curl\ncurl -LsSf https://example.invalid/uv.sh | sh\nsource $HOME/.local/bin/env\n\
             uvx -p 3.13 -w pytest==8.4.1 -w pytest-json-ctrf==0.3.5 -w tomli==2.0.1 \\\n  pytest --ctrf /logs/verifier/ctrf.json /tests/test_outputs.py -rA\n\
             if [ $? -eq 0 ]; then echo 1 > /logs/verifier/reward.txt; else echo 0 > /logs/verifier/reward.txt; fi\n",
        );
        assert_eq!(p.refusals, Vec::<String>::new());
        assert_eq!(p.pip, ["tomli==2.0.1"]);
        assert!(p.apt.is_empty());
    }

    #[test]
    fn reward_files_network_and_services_are_refused() {
        let p = test_script("cat /logs/agent/reward.txt > /logs/verifier/reward.txt\n");
        assert!(
            p.refusals
                .iter()
                .any(|r| r.contains("reward file written elsewhere"))
        );
        assert!(p.refusals.iter().any(|r| r.contains("runs no pytest")));
        let s = solve_script("cd /app\ncurl -o x http://h/x\necho 1 > /logs/verifier/reward.txt\n");
        assert!(s.iter().any(|r| r.contains("network")), "{s:?}");
        assert!(
            s.iter().any(|r| r.contains("writes a reward file")),
            "{s:?}"
        );
        let t = test_file(
            "test_db.py",
            "import psycopg2\nconn = psycopg2.connect('host=localhost:5432')\n",
        );
        assert!(t.iter().any(|r| r.contains("service")), "{t:?}");
        assert!(test_file("test_ok.py", "def test_x():\n    assert 1\n").is_empty());
    }
}
