use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `DEL key [key ...]`: how many of the keys existed.
pub struct Del;

impl Command for Del {
    fn name(&self) -> &'static str {
        "DEL"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(2)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let mut n = 0;
        for key in &args[1..] {
            if ctx.db.remove(key).is_some() {
                n += 1;
            }
        }
        Ok(Reply::Int(n))
    }
}
