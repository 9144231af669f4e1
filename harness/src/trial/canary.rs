//! The canaries: tests that must fail, planted by the harness in every trial's hidden tests
//! under names drawn at random on the host for that trial.
//!
//! The test runner runs as the verifier user, out of reach of the code under test, so a
//! canary is not what keeps a report honest (the boundary is; see [`crate::trial::verify`]). It is
//! a tripwire on top of it: a report that lost a canary, or shows one passing, was not
//! written by the runner as the task means it to run.
//!
//! The verifier gets the task's `tests/` with these files added (tasks/README.md, "The
//! canary"):
//! - `test_<token>.py`: a pytest test that asserts two different numbers are equal;
//! - `test_<token2>.py`: a pytest test that calls into the workspace through the broker
//!   (a listing of /workspace run as the sandbox user, the way any test reaches the code
//!   under test) and asserts its output is a random string it cannot be;
//! - `<Token>.java`: a JUnit 4 class (Java runners run every top-level class in /nab/tests);
//! - `<token>.c`: a C unit that registers one test in the runner's `nab_unit_tests` list
//!   (C runners link every `*.c` in /nab/tests and run that list);
//! - `<token>.rs`: a Rust integration test (Rust runners build every top-level `*.rs` in
//!   /nab/tests into one test target of the crate under test and run it).
//!
//! A canary's test id contains one of the two tokens; [`Canary::matches`] finds it in a
//! report. The tokens and the values compared differ in every trial.

use rand::Rng;

/// Characters of the token (lower-case letters and digits; the first is a letter so the
/// token is a valid identifier in every language).
const TOKEN_LEN: usize = 14;

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Canary {
    token: String,
    /// The second canary's name (it reaches the workspace through the broker); `None` for
    /// a task whose tests run beside the code under test, which has no broker.
    through_broker: Option<String>,
    /// Two different numbers the canary claims are equal.
    left: u32,
    right: u32,
}

impl Canary {
    /// A fresh canary from the host's random number generator; `with_broker`: the
    /// verifier runs a broker, so the second canary is planted too.
    pub(crate) fn random(with_broker: bool) -> Canary {
        let mut rng = rand::rng();
        let left = rng.random_range(2..1_000_000);
        let right = left + rng.random_range(1..1_000);
        Canary {
            token: token(&mut rng),
            through_broker: with_broker.then(|| token(&mut rng)),
            left,
            right,
        }
    }

    #[cfg(test)]
    pub(crate) fn token(&self) -> &str {
        &self.token
    }

    /// Whether a report's test case is one of this trial's canaries (its name holds a token).
    pub(crate) fn matches(&self, name: &str) -> bool {
        name.contains(&self.token)
            || self
                .through_broker
                .as_ref()
                .is_some_and(|b| name.contains(b.as_str()))
    }

    /// The canaries a pytest report must list (the others belong to other runners).
    pub(crate) fn pytest_names(&self) -> Vec<String> {
        std::iter::once(&self.token)
            .chain(&self.through_broker)
            .map(|t| format!("test_{t}"))
            .collect()
    }

    /// The Java class name: the token with its first letter upper-cased.
    fn java_class(&self) -> String {
        let mut c = self.token.chars();
        match c.next() {
            Some(f) => f.to_ascii_uppercase().to_string() + c.as_str(),
            None => String::new(),
        }
    }

    /// (file name, contents) of each planted file.
    pub(crate) fn files(&self) -> Vec<(String, String)> {
        let (t, l, r) = (&self.token, self.left, self.right);
        let class = self.java_class();
        // The import is inside the test: a failed import at collection would stop pytest
        // from running any test.
        let broker = self.through_broker.as_ref().map(|b| {
            (
                format!("test_{b}.py"),
                format!(
                    "def test_{b}():\n    import nabverify\n\n    \
                     listing = nabverify.run([\"ls\", \"-a\", \"/workspace\"])\n    \
                     assert listing.stdout == \"{t}{l}\"\n"
                ),
            )
        });
        let mut files = vec![
            (
                format!("test_{t}.py"),
                format!("def test_{t}():\n    assert {l} == {r}\n"),
            ),
            (
                format!("{class}.java"),
                format!(
                    "public class {class} {{\n    @org.junit.Test\n    public void {t}() {{\n        org.junit.Assert.assertEquals({l}L, {r}L);\n    }}\n}}\n"
                ),
            ),
            (
                format!("{t}.c"),
                format!(
                    "struct nab_unit_test {{ const char *name; int (*fn)(void); struct nab_unit_test *next; }};\n\
                     extern struct nab_unit_test *nab_unit_tests;\n\
                     static int {t}(void) {{ volatile long l = {l}, r = {r}; return l != r; }}\n\
                     static struct nab_unit_test {t}_entry = {{\"{t}\", {t}, 0}};\n\
                     __attribute__((constructor)) static void {t}_register(void) {{\n    \
                     {t}_entry.next = nab_unit_tests;\n    nab_unit_tests = &{t}_entry;\n}}\n"
                ),
            ),
            (
                format!("{t}.rs"),
                format!(
                    "#[test]\nfn {t}() {{\n    let (l, r): (u64, u64) = ({l}, {r});\n    assert_eq!(l, r);\n}}\n"
                ),
            ),
        ];
        files.extend(broker);
        files
    }
}

/// A name that is a valid identifier in every runner's language.
fn token(rng: &mut impl Rng) -> String {
    const LETTERS: &[u8] = b"abcdefghijklmnopqrstuvwxyz";
    const ALNUM: &[u8] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    let mut token = String::with_capacity(TOKEN_LEN);
    token.push(LETTERS[rng.random_range(0..LETTERS.len())] as char);
    while token.len() < TOKEN_LEN {
        token.push(ALNUM[rng.random_range(0..ALNUM.len())] as char);
    }
    token
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_trial_gets_another_name_and_the_files_name_it() {
        let (a, b) = (Canary::random(true), Canary::random(true));
        assert_ne!(a.token(), b.token());
        assert_eq!(a.token().len(), TOKEN_LEN);
        assert!(a.token().starts_with(|c: char| c.is_ascii_lowercase()));
        assert_ne!(a.left, a.right);
        for (name, text) in a.files() {
            assert!(a.matches(&name.to_lowercase()), "{name}");
            assert!(text.contains(a.token()), "{text}");
        }
        for name in a.pytest_names() {
            assert!(a.matches(&name));
            assert!(!b.matches(&name));
        }
        assert!(a.matches(&format!("test_{}", a.token())));
        assert!(!a.matches(b.token()));
        assert_ne!(Some(a.token()), a.through_broker.as_deref());
        assert_eq!(a.files().len(), 5);
        let shared = Canary::random(false);
        assert_eq!(shared.pytest_names().len(), 1);
        assert_eq!(shared.files().len(), 4);
    }
}
