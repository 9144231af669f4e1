//! Commands on set values.

mod sadd;
mod scard;
mod sismember;
mod smembers;
mod srem;

use super::registry::Registry;

pub fn register(r: &mut Registry) {
    r.add(Box::new(sadd::SAdd));
    r.add(Box::new(srem::SRem));
    r.add(Box::new(smembers::SMembers));
    r.add(Box::new(scard::SCard));
    r.add(Box::new(sismember::SIsMember));
}
