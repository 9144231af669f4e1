use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;
use std::collections::BTreeSet;

/// `SADD key member [member ...]`: how many members were new.
pub struct SAdd;

impl Command for SAdd {
    fn name(&self) -> &'static str {
        "SADD"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let key = &args[1];
        if ctx.db.get_mut(key).is_none() {
            ctx.db.insert(key.clone(), Value::Set(BTreeSet::new()));
        }
        match ctx.db.get_mut(key) {
            Some(Value::Set(s)) => {
                let added = args[2..].iter().filter(|m| s.insert((*m).clone())).count();
                Ok(Reply::Int(added as i64))
            }
            _ => Err(Error::WrongType),
        }
    }
}
