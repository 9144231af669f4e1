use crate::commands::{Arity, Command, Ctx};
use crate::error::{Error, Result};
use crate::protocol::Reply;
use crate::store::Value;
use std::collections::BTreeMap;

/// `HSET key field value [field value ...]`: how many fields were new.
pub struct HSet;

impl Command for HSet {
    fn name(&self) -> &'static str {
        "HSET"
    }
    fn arity(&self) -> Arity {
        Arity::AtLeast(4)
    }
    fn is_write(&self) -> bool {
        true
    }
    fn run(&self, ctx: &mut Ctx<'_>, args: &[String]) -> Result<Reply> {
        if args.len() % 2 != 0 {
            return Err(Error::WrongArity("hset".into()));
        }
        let key = &args[1];
        if ctx.db.get_mut(key).is_none() {
            ctx.db.insert(key.clone(), Value::Hash(BTreeMap::new()));
        }
        match ctx.db.get_mut(key) {
            Some(Value::Hash(h)) => {
                let mut added = 0;
                for pair in args[2..].chunks(2) {
                    if h.insert(pair[0].clone(), pair[1].clone()).is_none() {
                        added += 1;
                    }
                }
                Ok(Reply::Int(added))
            }
            _ => Err(Error::WrongType),
        }
    }
}
