use crate::commands::{drop_if_empty, Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `HDEL key field [field ...]`: how many fields were removed.
pub struct HDel;

impl Command for HDel {
    fn name(&self) -> &'static str {
        "HDEL"
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
            Some(Value::Hash(h)) => args[2..].iter().filter(|f| h.remove(*f).is_some()).count(),
            Some(_) => return Err(Error::WrongType),
        };
        drop_if_empty(ctx.db, key);
        Ok(Reply::Int(removed as i64))
    }
}
