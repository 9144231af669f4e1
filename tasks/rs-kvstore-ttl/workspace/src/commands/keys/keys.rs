use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;
use crate::store::glob;

/// `KEYS pattern`: the matching keys, sorted.
pub struct Keys;

impl Command for Keys {
    fn name(&self) -> &'static str {
        "KEYS"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let mut found: Vec<String> = ctx
            .db
            .keys()
            .into_iter()
            .filter(|k| glob::matches(&args[1], k))
            .cloned()
            .collect();
        found.sort();
        Ok(Reply::strings(found))
    }
}
