//! What a person at a terminal sees: the answer streamed on stdout, reasoning dimmed and
//! set apart on stderr, and one line per tool call. Silent when not a terminal (the event
//! stream and logs carry everything then).

use std::io::{IsTerminal, Write};

use nab_protocol::{ExitReason, ToolStatus};

use crate::client::StreamObserver;

const DIM: &str = "\x1b[2m";
const BOLD: &str = "\x1b[1m";
const RED: &str = "\x1b[31m";
const GREEN: &str = "\x1b[32m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Section {
    None,
    Reasoning,
    Answer,
}

#[derive(Debug)]
pub struct Display {
    enabled: bool,
    section: Section,
}

impl Display {
    /// Enabled when stdout is a terminal.
    pub fn auto() -> Display {
        Display {
            enabled: std::io::stdout().is_terminal(),
            section: Section::None,
        }
    }

    pub fn disabled() -> Display {
        Display {
            enabled: false,
            section: Section::None,
        }
    }

    fn end_section(&mut self) {
        if self.enabled && self.section != Section::None {
            let _ = writeln!(std::io::stderr(), "{RESET}");
            self.section = Section::None;
        }
    }

    pub fn step(&mut self, step: u32) {
        self.end_section();
        if self.enabled {
            let _ = writeln!(std::io::stderr(), "{DIM}── step {step} ──{RESET}");
        }
    }

    pub fn tool_start(&mut self, name: &str, args_summary: &str) {
        self.end_section();
        if self.enabled {
            let _ = writeln!(
                std::io::stderr(),
                "{BOLD}▸ {name}{RESET} {DIM}{args_summary}{RESET}"
            );
        }
    }

    pub fn tool_done(&mut self, name: &str, status: ToolStatus, millis: u128, first_line: &str) {
        if !self.enabled {
            return;
        }
        let (color, mark) = match status {
            ToolStatus::Ok => (GREEN, "✓"),
            ToolStatus::Error => (RED, "✗"),
            ToolStatus::Timeout => (YELLOW, "⏱"),
            ToolStatus::Blocked => (RED, "⛔"),
        };
        let line: String = first_line.chars().take(120).collect();
        let _ = writeln!(
            std::io::stderr(),
            "  {color}{mark} {name}{RESET} {DIM}{millis} ms · {line}{RESET}"
        );
    }

    pub fn finish(&mut self, reason: ExitReason, steps: u32, message: Option<&str>) {
        self.end_section();
        if self.enabled {
            let extra = message.map(|m| format!(": {m}")).unwrap_or_default();
            let _ = writeln!(
                std::io::stderr(),
                "{BOLD}■ finished ({reason}) after {steps} step(s){RESET}{extra}"
            );
        }
    }
}

impl StreamObserver for Display {
    fn on_reasoning(&mut self, delta: &str) {
        if !self.enabled {
            return;
        }
        let mut err = std::io::stderr();
        if self.section != Section::Reasoning {
            self.end_section();
            let _ = write!(err, "{DIM}thinking: ");
            self.section = Section::Reasoning;
        }
        let _ = write!(err, "{delta}");
        let _ = err.flush();
    }

    fn on_content(&mut self, delta: &str) {
        if !self.enabled {
            return;
        }
        if self.section != Section::Answer {
            self.end_section();
            self.section = Section::Answer;
        }
        let mut out = std::io::stdout();
        let _ = write!(out, "{delta}");
        let _ = out.flush();
    }
}
