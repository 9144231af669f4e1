//! Commands on list values.

mod lindex;
mod llen;
mod lrange;
mod pop;
mod push;

use super::registry::Registry;

pub fn register(r: &mut Registry) {
    r.add(Box::new(push::Push(push::End::Left)));
    r.add(Box::new(push::Push(push::End::Right)));
    r.add(Box::new(pop::Pop(push::End::Left)));
    r.add(Box::new(pop::Pop(push::End::Right)));
    r.add(Box::new(llen::LLen));
    r.add(Box::new(lrange::LRange));
    r.add(Box::new(lindex::LIndex));
}

/// A list index as Redis counts them (negative from the end) turned into a position, or
/// `None` when it is out of range.
pub(crate) fn position(index: i64, len: usize) -> Option<usize> {
    let len = len as i64;
    let i = if index < 0 { len + index } else { index };
    if i < 0 || i >= len {
        None
    } else {
        Some(i as usize)
    }
}
