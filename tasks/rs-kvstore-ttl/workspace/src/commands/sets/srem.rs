use crate::commands::{drop_if_empty, Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `SREM key member [member ...]`: how many members were removed.
pub struct SRem;

impl Command for SRem {
    fn name(&self) -> &'static str {
        "SREM"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let key = &args[1];
        let removed = match ctx.db.get_mut(key) {
            None => 0,
            Some(Value::Set(s)) => args[2..].iter().filter(|m| s.remove(*m)).count(),
            Some(_) => return Err(Error::WrongType),
        };
        drop_if_empty(ctx.db, key);
        Ok(Reply::Int(removed as i64))
    }
}
