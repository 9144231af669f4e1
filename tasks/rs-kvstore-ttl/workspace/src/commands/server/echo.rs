use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `ECHO message`
pub struct Echo;

impl Command for Echo {
    fn name(&self) -> &'static str {
        "ECHO"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, _ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        Ok(Reply::bulk(args[1].clone()))
    }
}
