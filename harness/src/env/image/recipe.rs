//! The image recipe: package list and user set-up, embedded in the binary so the tag
//! does not depend on the working directory.

use sha2::{Digest, Sha256};

pub(super) const IMAGE_REPO: &str = "nab-base";

/// Bump when the build procedure itself changes in a way the files below do not show.
const BUILD_PROCEDURE: &str = "mmdebstrap minbase v1";

#[derive(Debug, Clone)]
pub struct Recipe {
    pub suite: &'static str,
    pub packages_txt: &'static str,
    pub setup_sh: &'static str,
}

impl Default for Recipe {
    fn default() -> Self {
        Recipe {
            suite: "bookworm",
            packages_txt: include_str!("../../../image/packages.txt"),
            setup_sh: include_str!("../../../image/setup.sh"),
        }
    }
}

impl Recipe {
    /// Package names, comments and blank lines removed.
    pub fn packages(&self) -> Vec<&'static str> {
        self.packages_txt
            .lines()
            .map(|l| l.split('#').next().unwrap_or("").trim())
            .filter(|l| !l.is_empty())
            .collect()
    }

    /// First 12 hex digits of SHA-256 over everything that shapes the image.
    pub fn hash(&self) -> String {
        let mut h = Sha256::new();
        for part in [
            BUILD_PROCEDURE,
            self.suite,
            self.packages_txt,
            self.setup_sh,
        ] {
            h.update((part.len() as u64).to_le_bytes());
            h.update(part.as_bytes());
        }
        hex::encode(h.finalize())[..12].to_owned()
    }

    pub fn tag(&self) -> String {
        format!("{IMAGE_REPO}:{}", self.hash())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packages_include_what_the_tasks_need_and_the_hash_tracks_the_recipe() {
        let r = Recipe::default();
        for p in [
            "bash",
            "python3-pytest",
            "default-jdk-headless",
            "junit4",
            "git",
            "gcc",
        ] {
            assert!(r.packages().contains(&p), "{p} missing");
        }
        let mut changed = r.clone();
        changed.packages_txt = "bash\n";
        assert_ne!(r.hash(), changed.hash());
        assert_eq!(r.hash(), Recipe::default().hash());
        assert!(r.tag().starts_with("nab-base:"));
    }
}
