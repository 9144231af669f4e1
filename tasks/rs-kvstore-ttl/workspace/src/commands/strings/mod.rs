//! Commands on string values.

mod append;
mod get;
mod getset;
mod incr;
mod mget;
mod mset;
mod set;
mod setnx;
mod strlen;

use super::registry::Registry;

pub fn register(r: &mut Registry) {
    r.add(Box::new(get::Get));
    r.add(Box::new(set::Set));
    r.add(Box::new(setnx::SetNx));
    r.add(Box::new(getset::GetSet));
    r.add(Box::new(append::Append));
    r.add(Box::new(strlen::Strlen));
    r.add(Box::new(mget::MGet));
    r.add(Box::new(mset::MSet));
    for step in incr::Step::ALL {
        r.add(Box::new(incr::Incr(step)));
    }
}
