use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `APPEND key value`: the length of the string afterwards.
pub struct Append;

impl Command for Append {
    fn name(&self) -> &'static str {
        "APPEND"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(3)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        match ctx.db.get_mut(&args[1]) {
            Some(Value::Str(s)) => {
                s.push_str(&args[2]);
                Ok(Reply::Int(s.len() as i64))
            }
            Some(_) => Err(Error::WrongType),
            None => {
                ctx.db.insert(args[1].clone(), Value::Str(args[2].clone()));
                Ok(Reply::Int(args[2].len() as i64))
            }
        }
    }
}
