//! Commands on hash values.

mod hdel;
mod hexists;
mod hget;
mod hgetall;
mod hlen;
mod hset;

use super::registry::Registry;

pub fn register(r: &mut Registry) {
    r.add(Box::new(hset::HSet));
    r.add(Box::new(hget::HGet));
    r.add(Box::new(hdel::HDel));
    r.add(Box::new(hgetall::HGetAll));
    r.add(Box::new(hlen::HLen));
    r.add(Box::new(hexists::HExists));
}
