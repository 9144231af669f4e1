//! The command policy: a table of rules, each with an id, a reason and patterns.
//!
//! A command is normalized (quotes and backslashes dropped, whitespace collapsed) and, for
//! rules scoped to a segment, split at `;`, `&`, `|`, newlines, parentheses, braces and
//! backticks, so `cd x && rm -rf /` is judged by its `rm -rf /` part. A rule fires when all
//! of its patterns match the same segment (or the whole command, for pipe-shaped rules like
//! `curl | sh`). The first rule that fires blocks the command and is named in the refusal.

use std::sync::OnceLock;

use regex::Regex;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scope {
    /// Each shell segment separately (all patterns must match one segment).
    Segment,
    /// The whole normalized command (for rules about pipes and substitutions).
    Whole,
}

/// One rule as data.
#[derive(Debug, Clone, Copy)]
pub struct RuleSpec {
    pub id: &'static str,
    pub reason: &'static str,
    pub scope: Scope,
    /// Every pattern must match (in the scope) for the rule to fire.
    pub all: &'static [&'static str],
}

/// The rules, most specific first. Extend the table, not the code.
pub const RULES: &[RuleSpec] = &[
    RuleSpec {
        id: "rm-recursive-root-or-home",
        reason: "recursively deletes the root filesystem or the home directory",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)rm\s",
            r"\s(-[a-zA-Z]*[rR][a-zA-Z]*|--recursive)(\s|$)",
            r"\s(/|/\*|~|~/|~/\*|\$HOME|\$\{HOME\}|\$HOME/\*|\$\{HOME\}/\*|/home|/root)(\s|$)",
        ],
    },
    RuleSpec {
        id: "rm-no-preserve-root",
        reason: "asks rm to delete the root filesystem (--no-preserve-root)",
        scope: Scope::Segment,
        all: &[r"(^|\s)rm\s", r"--no-preserve-root"],
    },
    RuleSpec {
        id: "find-delete-root",
        reason: "deletes files across the root filesystem or the home directory with find",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)find\s+(/|~|\$HOME)(\s|$)",
            r"\s(-delete|-exec\s+rm)\b",
        ],
    },
    RuleSpec {
        id: "download-pipe-shell",
        reason: "pipes a downloaded script into an interpreter (curl | sh)",
        scope: Scope::Whole,
        all: &[
            r"\b(curl|wget|fetch)\b[^|]*\|\s*(sudo\s+)?(env\s+)?(\S*/)?(ba|z|da|k|fi)?sh\b|\b(curl|wget)\b[^|]*\|\s*(sudo\s+)?(\S*/)?(python3?|perl|ruby|node)\b",
        ],
    },
    RuleSpec {
        id: "shell-of-download",
        reason: "runs a downloaded script through a process substitution (bash <(curl ...))",
        scope: Scope::Whole,
        all: &[r"\b(ba|z|da|k)?sh\s+(-c\s+)?(<\(|\$\()\s*(curl|wget)\b"],
    },
    RuleSpec {
        id: "system-path-redirect",
        reason: "writes into a system directory",
        scope: Scope::Whole,
        all: &[
            r">>?\|?\s*/(etc|bin|sbin|usr|boot|lib|lib32|lib64|opt|root|sys|proc|var/lib|var/spool|var/log)(/|\s|$)",
        ],
    },
    RuleSpec {
        id: "system-path-tee",
        reason: "writes into a system directory with tee",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)tee\s+(-a\s+|--append\s+)?/(etc|bin|sbin|usr|boot|lib|lib64|root|sys|proc|opt)(/|\s|$)",
        ],
    },
    RuleSpec {
        id: "system-path-copy",
        reason: "copies, moves or links a file into a system directory",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)(cp|mv|install|ln|rsync)\s",
            r"\s/(etc|bin|sbin|usr|boot|lib|lib64|root|sys|opt)(/\S*)?\s*$",
        ],
    },
    RuleSpec {
        id: "system-path-sed-in-place",
        reason: "edits a file in a system directory in place",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)(sed|perl)\s",
            r"\s(-[a-zA-Z]*i|--in-place)",
            r"\s/(etc|bin|sbin|usr|boot|lib|lib64|root)/",
        ],
    },
    RuleSpec {
        id: "fork-bomb",
        reason: "is a fork bomb (a function that spawns itself without end)",
        scope: Scope::Whole,
        all: &[r"(:|\b\w+)\s*\(\s*\)\s*\{[^}]*(:|\w+)\s*\|\s*(:|\w+)\s*&[^}]*\}"],
    },
    RuleSpec {
        id: "chmod-chown-root-recursive",
        reason: "changes permissions or ownership of the whole filesystem",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)(chmod|chown|chgrp)\s",
            r"\s(-[a-zA-Z]*R[a-zA-Z]*|--recursive)(\s|$)",
            r"\s(/|/\*|~|\$HOME)(\s|$)",
        ],
    },
    RuleSpec {
        id: "chmod-777-root",
        reason: "makes the filesystem root world-writable",
        scope: Scope::Segment,
        all: &[r"(^|\s)chmod\s+(-\S+\s+)*(0?777|a\+rwx|ugo\+rwx|o\+w)\s+/(\s|$)"],
    },
    RuleSpec {
        id: "disk-wipe-dd",
        reason: "overwrites a block device",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)dd\s",
            r"\bof=/dev/(sd|hd|vd|xvd|nvme|mmcblk|disk|mapper|md|loop|dm-)",
        ],
    },
    RuleSpec {
        id: "disk-wipe-tools",
        reason: "formats, partitions or wipes a disk",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)(\S*/)?(mkfs(\.\w+)?|mke2fs|mkswap|wipefs|fdisk|sfdisk|parted|sgdisk|blkdiscard)(\s|$)",
        ],
    },
    RuleSpec {
        id: "disk-wipe-shred-or-redirect",
        reason: "destroys a block device's contents",
        scope: Scope::Whole,
        all: &[r"(\bshred\b[^;&|]*\s/dev/|>\s*/dev/(sd|hd|vd|xvd|nvme|mmcblk))"],
    },
    RuleSpec {
        id: "credential-read",
        reason: "reads credential files (keys, tokens, password databases)",
        scope: Scope::Whole,
        all: &[
            r"((~|\$HOME|\$\{HOME\}|/root|/home/[^/\s]+)/\.(ssh|aws|gnupg|kube|docker|netrc|git-credentials|npmrc|pypirc|pgpass|config/gcloud|config/gh)\b|/etc/(shadow|gshadow|sudoers)\b|\bid_(rsa|dsa|ecdsa|ed25519)\b|/proc/(self|\d+|\*)/environ\b|/(var/)?run/secrets\b)",
        ],
    },
    RuleSpec {
        id: "git-force-push",
        reason: "force-pushes, rewriting the remote's history",
        scope: Scope::Segment,
        all: &[
            r"(^|\s)git\s",
            r"\spush(\s|$)",
            r"(\s--force(-with-lease)?(=\S*)?(\s|$)|\s-[a-zA-Z]*f[a-zA-Z]*(\s|$)|\s\+\S+)",
        ],
    },
    RuleSpec {
        id: "network-exfiltration",
        reason: "uploads local files or opens a raw network channel",
        scope: Scope::Whole,
        all: &[
            r"(/dev/(tcp|udp)/|\b(curl|wget)\b[^;&|]*(\s-d\s*@|\s--data(-binary|-raw)?[=\s]*@|\s-T\s|\s--upload-file\b|\s-F\s*\S*=@|--post-file))",
        ],
    },
    RuleSpec {
        id: "system-power",
        reason: "shuts down or reboots the machine",
        scope: Scope::Segment,
        all: &[r"^(sudo\s+)?(shutdown|reboot|halt|poweroff|init\s+[06])(\s|$)"],
    },
    RuleSpec {
        id: "kill-everything",
        reason: "signals every process (kill -1)",
        scope: Scope::Segment,
        all: &[r"(^|\s)kill\s+(-\S+\s+)*-1(\s|$)"],
    },
];

/// A rule, compiled on the first command it judges: a run that executes no command does
/// not pay for some twenty regexes before its first model request (issue 18, cold start).
#[derive(Debug)]
pub struct Rule {
    pub spec: RuleSpec,
    patterns: OnceLock<Vec<Regex>>,
}

impl Rule {
    /// The table is code, so a bad pattern is a bug caught by the unit tests, not a runtime
    /// condition.
    fn patterns(&self) -> &[Regex] {
        self.patterns.get_or_init(|| {
            self.spec
                .all
                .iter()
                .map(|p| {
                    Regex::new(p).unwrap_or_else(|e| {
                        panic!("policy rule {} has a bad pattern: {e}", self.spec.id)
                    })
                })
                .collect()
        })
    }
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PolicyVerdict {
    Allow,
    Block {
        rule: &'static str,
        reason: &'static str,
    },
}

#[derive(Debug)]
pub struct CommandPolicy {
    rules: Vec<Rule>,
}

impl Default for CommandPolicy {
    fn default() -> Self {
        CommandPolicy::new(RULES)
    }
}

impl CommandPolicy {
    /// A rule table; each rule's patterns are compiled when it first judges a command.
    pub fn new(specs: &[RuleSpec]) -> CommandPolicy {
        let rules = specs
            .iter()
            .map(|spec| Rule {
                spec: *spec,
                patterns: OnceLock::new(),
            })
            .collect();
        CommandPolicy { rules }
    }

    pub fn rules(&self) -> impl Iterator<Item = &RuleSpec> {
        self.rules.iter().map(|r| &r.spec)
    }

    /// Judges a shell command string.
    pub fn check(&self, command: &str) -> PolicyVerdict {
        let whole = normalize(command);
        let segments = segments(&whole);
        for rule in &self.rules {
            let fires = match rule.spec.scope {
                Scope::Whole => rule.patterns().iter().all(|p| p.is_match(&whole)),
                Scope::Segment => segments
                    .iter()
                    .any(|seg| rule.patterns().iter().all(|p| p.is_match(seg))),
            };
            if fires {
                return PolicyVerdict::Block {
                    rule: rule.spec.id,
                    reason: rule.spec.reason,
                };
            }
        }
        PolicyVerdict::Allow
    }

    /// Judges an argv command (joined with spaces; `bash -c SCRIPT` is judged by its script
    /// as well since the script is one of the words).
    pub fn check_argv(&self, argv: &[String]) -> PolicyVerdict {
        self.check(&argv.join(" "))
    }
}

/// Drops quoting characters and collapses whitespace, so `rm -rf "/"` reads as `rm -rf /`.
pub fn normalize(command: &str) -> String {
    let stripped: String = command
        .chars()
        .filter(|c| !matches!(c, '\'' | '"' | '\\'))
        .collect();
    stripped.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn segments(normalized: &str) -> Vec<String> {
    normalized
        .split([';', '&', '|', '\n', '(', ')', '{', '}', '`'])
        .map(|s| s.trim().trim_start_matches('$').trim().to_string())
        .filter(|s| !s.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rules compile lazily, so a bad pattern shows here rather than at construction.
    #[test]
    fn every_pattern_compiles_and_none_before_use() {
        let policy = CommandPolicy::default();
        assert!(policy.rules.iter().all(|r| r.patterns.get().is_none()));
        assert_eq!(policy.check("ls -la"), PolicyVerdict::Allow);
        for rule in &policy.rules {
            assert_eq!(
                rule.patterns().len(),
                rule.spec.all.len(),
                "{}",
                rule.spec.id
            );
        }
    }
}
