use super::push::End;
use crate::commands::{drop_if_empty, Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;

/// `LPOP key` and `RPOP key`: the element taken, nil for a missing key. A list whose last
/// element is taken is removed.
pub struct Pop(pub End);

impl Command for Pop {
    fn name(&self) -> &'static str {
        match self.0 {
            End::Left => "LPOP",
            End::Right => "RPOP",
        }
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(2)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        let key = &args[1];
        let item = match ctx.db.get_mut(key) {
            None => return Ok(Reply::Nil),
            Some(Value::List(list)) => match self.0 {
                End::Left => list.pop_front(),
                End::Right => list.pop_back(),
            },
            Some(_) => return Err(Error::WrongType),
        };
        drop_if_empty(ctx.db, key);
        Ok(item.map_or(Reply::Nil, Reply::Bulk))
    }
}
