use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `EXISTS key [key ...]`: how many of the keys exist (a key named twice counts twice).
pub struct Exists;

impl Command for Exists {
    fn name(&self) -> &'static str {
        "EXISTS"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let n = args[1..].iter().filter(|k| ctx.db.contains(k)).count();
        Ok(Reply::Int(n as i64))
    }
}
