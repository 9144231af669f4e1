use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `TYPE key`: `string`, `list`, `hash`, `set`, or `none`.
pub struct Type;

impl Command for Type {
    fn name(&self) -> &'static str {
        "TYPE"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let name = ctx
            .db
            .get(&args[1], ctx.now)
            .map_or("none", |v| v.type_name());
        Ok(Reply::Status(name.to_string()))
    }
}
