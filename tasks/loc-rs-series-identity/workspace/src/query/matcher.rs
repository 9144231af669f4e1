use crate::model::Labels;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Op {
    /// `=`
    Eq,
    /// `!=`
    Ne,
    /// `=~`, a pattern in which `*` stands for any run of characters.
    Glob,
}

/// One condition on a label. An absent label counts as the empty value, so `env=""`
/// matches series without `env`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Matcher {
    pub name: String,
    pub op: Op,
    pub value: String,
}

impl Matcher {
    pub fn new(name: &str, op: Op, value: &str) -> Matcher {
        Matcher {
            name: name.to_string(),
            op,
            value: value.to_string(),
        }
    }

    pub fn matches(&self, labels: &Labels) -> bool {
        let v = labels.get(&self.name).unwrap_or("");
        match self.op {
            Op::Eq => v == self.value,
            Op::Ne => v != self.value,
            Op::Glob => glob(&self.value, v),
        }
    }
}

/// Whether `text` matches `pattern` whole (`*` matches any run, even an empty one).
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let (mut pi, mut ti) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if pi < p.len() && p[pi] == t[ti] {
            pi += 1;
            ti += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    while pi < p.len() && p[pi] == '*' {
        pi += 1;
    }
    pi == p.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn globs() {
        assert!(glob("web-*", "web-12"));
        assert!(glob("*", ""));
        assert!(glob("a*b*c", "aXbYc"));
        assert!(!glob("web-*", "db-1"));
        assert!(!glob("a*b", "a"));
    }

    #[test]
    fn absent_is_empty() {
        let l = Labels::from_pairs(vec![("job", "api")]).unwrap();
        assert!(Matcher::new("env", Op::Eq, "").matches(&l));
        assert!(!Matcher::new("env", Op::Ne, "").matches(&l));
        assert!(Matcher::new("job", Op::Eq, "api").matches(&l));
    }
}
