//! Fitting a judge prompt into the judge's context window.
//!
//! A hosted judge reads 128k tokens; a local one may read 4k or 8k, and a prompt over its
//! window is a 400 (or a silently cut prompt) on every large diff. When the judge's window
//! is known ([`crate::JudgeModel::window`]), the untrusted parts of a prompt (each side's diff
//! and trajectory) are cut until the whole conversation — prompt, answer, and the retries'
//! answers and follow-ups — fits. Diffs are cut by [`crate::diff_budget`] (every file keeps
//! its header while room allows, the cut is marked), trajectories keep their start and end.
//! The trusted parts (rubric, instruction, answer format) are never cut.
//!
//! Sizes are in bytes, converted at [`crate::window::BYTES_PER_TOKEN`]: no tokenizer of the judge is at
//! hand, and a conservative ratio wastes a little room where a generous one overflows.

use crate::diff_budget::budget_diff;
use crate::error::JudgeError;
use crate::prompt::{Candidate, Prompt, pairwise_prompt, single_prompt};
use crate::rubric::Rubric;
use crate::window::ContextWindow;

/// How often the untrusted parts are cut again (each time by a fifth more) when a rendered
/// prompt still does not fit: cut diffs carry markers and kept headers, so a first cut may
/// end a little over its share.
const MAX_FIT_ROUNDS: usize = 8;

fn prompt_len(p: &Prompt) -> usize {
    p.messages.iter().map(|m| m.content.len()).sum()
}

/// `text` within `max` bytes: its start and end, the middle replaced by a marker.
pub fn keep_ends(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    const MARKER_ROOM: usize = 80;
    let room = max.saturating_sub(MARKER_ROOM);
    let head = floor_boundary(text, room * 2 / 3);
    let tail = ceil_boundary(text, text.len() - (room - head));
    format!(
        "{}\n[nab: {} bytes of the trajectory not shown]\n{}",
        &text[..head],
        tail - head,
        &text[tail..]
    )
}

fn floor_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

fn ceil_boundary(s: &str, mut i: usize) -> usize {
    i = i.min(s.len());
    while !s.is_char_boundary(i) {
        i += 1;
    }
    i
}

/// `c` cut to `share` bytes of diff and trajectory together: the trajectory gets up to a
/// third, the diff the rest.
fn cut_candidate(c: &Candidate, share: usize) -> Candidate {
    let trajectory = keep_ends(&c.trajectory, share / 3);
    let diff_room = share.saturating_sub(trajectory.len());
    let mut cut = c.clone();
    cut.diff = if c.source_diff().trim().is_empty() {
        c.diff.clone()
    } else {
        budget_diff(c.source_diff(), diff_room)
    };
    cut.trajectory = trajectory;
    cut
}

fn emptied(c: &Candidate) -> Candidate {
    let mut e = c.clone();
    e.diff.clear();
    e.trajectory.clear();
    e
}

/// Renders with `render` and, if `window` is set and the prompt is over it, renders again
/// with the candidates cut to an equal share of the room the trusted parts leave.
fn fitted(
    window: Option<ContextWindow>,
    candidates: &[&Candidate],
    render: impl Fn(&[Candidate]) -> Result<Prompt, JudgeError>,
) -> Result<Prompt, JudgeError> {
    let whole: Vec<Candidate> = candidates.iter().map(|c| (*c).clone()).collect();
    let prompt = render(&whole)?;
    let Some(window) = window else {
        return Ok(prompt);
    };
    let budget = window.prompt_bytes();
    if prompt_len(&prompt) <= budget {
        return Ok(prompt);
    }
    let bare: Vec<Candidate> = candidates.iter().map(|c| emptied(c)).collect();
    let trusted = prompt_len(&render(&bare)?);
    if trusted >= budget {
        return Err(JudgeError::Invalid(format!(
            "the judge prompt's trusted parts (rubric, instruction, answer format) take {trusted} \
             bytes, over the {budget} bytes a context of {} tokens leaves; raise \
             --judge-context-tokens",
            window.context_tokens
        )));
    }
    let mut share = (budget - trusted) / candidates.len();
    for _ in 0..MAX_FIT_ROUNDS {
        let cut: Vec<Candidate> = candidates.iter().map(|c| cut_candidate(c, share)).collect();
        let prompt = render(&cut)?;
        if prompt_len(&prompt) <= budget {
            return Ok(prompt);
        }
        share = share * 4 / 5;
    }
    Err(JudgeError::Invalid(format!(
        "cannot fit the judge prompt into {budget} bytes ({} tokens of context): the diffs' \
         file headers alone are over it; raise --judge-context-tokens",
        window.context_tokens
    )))
}

/// The single-trial prompt ([`single_prompt`]) fitted into `window`.
pub fn fitted_single_prompt(
    rubric: &Rubric,
    instruction: &str,
    candidate: &Candidate,
    window: Option<ContextWindow>,
) -> Result<Prompt, JudgeError> {
    fitted(window, &[candidate], |c| {
        single_prompt(rubric, instruction, &c[0], None)
    })
}

/// The pairwise prompt ([`pairwise_prompt`]) fitted into `window`; both sides get the same
/// share, so neither is shown more fully because of the order.
pub fn fitted_pairwise_prompt(
    rubric: &Rubric,
    instruction: &str,
    a: &Candidate,
    b: &Candidate,
    window: Option<ContextWindow>,
) -> Result<Prompt, JudgeError> {
    fitted(window, &[a, b], |c| {
        pairwise_prompt(rubric, instruction, &c[0], &c[1], None)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn big_diff(files: usize, lines: usize) -> String {
        (0..files)
            .map(|i| {
                format!(
                    "diff --git a/src/f{i}.py b/src/f{i}.py\n# before: 10 bytes; after: 99 bytes, sha256 {}\n{}",
                    "ab".repeat(32),
                    format!("+    value_{i} = compute({i}) + 1\n").repeat(lines)
                )
            })
            .collect()
    }

    fn window(ctx: u32) -> ContextWindow {
        ContextWindow::new(ctx, 160).unwrap()
    }

    #[test]
    fn a_prompt_that_fits_is_left_whole() {
        let rubric = Rubric::default_code_quality();
        let c = Candidate::new("+x = 1\n", "tool calls: 0\n");
        let p = fitted_pairwise_prompt(&rubric, "fix it", &c, &c, Some(window(8192))).unwrap();
        assert!(p.messages[1].content.contains("+x = 1\n"));
        assert!(!p.messages[1].content.contains("[nab:"));
    }

    #[test]
    fn huge_diffs_are_cut_into_the_window_on_both_sides_equally() {
        let rubric = Rubric::default_code_quality();
        let a = Candidate::new(
            &big_diff(3, 2000),
            &"- step 1: bash(ls) -> ok\n".repeat(500),
        );
        let b = Candidate::new(&big_diff(2, 3000), "tool calls: 1\n");
        for ctx in [4096, 8192, 32768] {
            let w = window(ctx);
            for (x, y) in [(&a, &b), (&b, &a)] {
                let p = fitted_pairwise_prompt(&rubric, "fix it", x, y, Some(w)).unwrap();
                let len = prompt_len(&p);
                assert!(
                    len <= w.prompt_bytes(),
                    "ctx {ctx}: {len} > {}",
                    w.prompt_bytes()
                );
                let user = &p.messages[1].content;
                // Every file of both sides is still named, with its size and hash line.
                for i in 0..3 {
                    assert!(
                        user.contains(&format!("diff --git a/src/f{i}.py")),
                        "ctx {ctx} f{i}"
                    );
                }
                assert!(user.contains("this file's diff is cut here"), "ctx {ctx}");
                assert!(user.contains("of the trajectory not shown"), "ctx {ctx}");
            }
        }
        // The unfitted prompt is far over: the cut is real.
        assert!(prompt_len(&pairwise_prompt(&rubric, "fix it", &a, &b, None).unwrap()) > 100_000);
    }

    #[test]
    fn a_diff_of_hundreds_of_files_fits_by_leaving_files_out() {
        let rubric = Rubric::default_code_quality();
        let a = Candidate::new(&big_diff(250, 3), "t");
        let w = window(4096);
        let p = fitted_pairwise_prompt(&rubric, "rename", &a, &a, Some(w)).unwrap();
        assert!(prompt_len(&p) <= w.prompt_bytes());
        assert!(
            p.messages[1].content.contains("not shown at all"),
            "the left-out files are counted"
        );
    }

    #[test]
    fn the_single_prompt_is_fitted_too() {
        let rubric = Rubric::default_code_quality();
        let c = Candidate::new(&big_diff(4, 1000), "t");
        let w = window(4096);
        let p = fitted_single_prompt(&rubric, "fix it", &c, Some(w)).unwrap();
        assert!(prompt_len(&p) <= w.prompt_bytes());
        assert!(p.messages[1].content.contains("diff --git a/src/f3.py"));
    }

    #[test]
    fn a_window_too_small_for_the_answers_is_refused_with_the_minimum() {
        let err = ContextWindow::new(1500, 160).unwrap_err().to_string();
        assert!(err.contains("at least 2168"), "{err}");
        assert!(ContextWindow::new(2168, 160).is_ok());
        assert!(ContextWindow::new(2167, 160).is_err());
    }

    #[test]
    fn keep_ends_keeps_start_and_end_on_char_boundaries() {
        let t = format!("START{}END", "é".repeat(5000));
        let k = keep_ends(&t, 500);
        assert!(k.len() <= 500 + 10, "{}", k.len());
        assert!(k.starts_with("START") && k.ends_with("END"));
        assert!(k.contains("bytes of the trajectory not shown"));
        assert_eq!(keep_ends("short", 500), "short");
    }
}
