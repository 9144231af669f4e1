use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;
use crate::store::Value;

/// `MGET key [key ...]`: nil for a missing key or one that is not a string.
pub struct MGet;

impl Command for MGet {
    fn name(&self) -> &'static str {
        "MGET"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(2)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let mut out = Vec::with_capacity(args.len() - 1);
        for key in &args[1..] {
            out.push(match ctx.db.get(key, ctx.now) {
                Some(Value::Str(s)) => Reply::bulk(s.clone()),
                _ => Reply::Nil,
            });
        }
        Ok(Reply::Array(out))
    }
}
