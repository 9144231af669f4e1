use crate::commands::{as_str, Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;
use crate::store::Value;

/// `GETSET key value`: sets the key and answers its old value.
pub struct GetSet;

impl Command for GetSet {
    fn name(&self) -> &'static str {
        "GETSET"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let old = match ctx.db.get_mut(&args[1]) {
            None => Reply::Nil,
            Some(v) => Reply::bulk(as_str(v)?.clone()),
        };
        ctx.db.insert(args[1].clone(), Value::Str(args[2].clone()));
        Ok(old)
    }
}
