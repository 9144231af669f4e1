use crate::commands::{Arity, Command, Ctx};
use crate::error::Result;
use crate::protocol::Reply;

/// `INFO`: counters, one `name:value` per line.
pub struct Info;

impl Command for Info {
    fn name(&self) -> &'static str {
        "INFO"
    }
    fn arity(&self) -> Arity {
        Arity::Exactly(1)
    }
    fn is_write(&self) -> bool {
        false
    }
    fn run(&self, ctx: &mut Ctx<'_>, _args: &[String]) -> Result<Reply> {
        let stats = ctx.db.stats().clone();
        let with_deadline = ctx.db.deadlines().count();
        Ok(Reply::bulk(format!(
            "keys:{}\nexpires:{}\nexpired_keys:{}\nkeyspace_hits:{}\nkeyspace_misses:{}\ncommands:{}\n",
            ctx.db.len(),
            with_deadline,
            stats.expired_keys,
            stats.hits,
            stats.misses,
            stats.commands
        )))
    }
}
