//! LEB128 unsigned varints and zig-zag signed ones.

pub fn put_uvarint(out: &mut Vec<u8>, mut n: u64) {
    while n >= 0x80 {
        out.push((n as u8) | 0x80);
        n >>= 7;
    }
    out.push(n as u8);
}

/// The varint at `buf[*pos..]`; `*pos` moves past it.
pub fn get_uvarint(buf: &[u8], pos: &mut usize) -> Option<u64> {
    let mut n: u64 = 0;
    let mut shift = 0u32;
    loop {
        let b = *buf.get(*pos)?;
        *pos += 1;
        if shift == 63 && b > 1 {
            return None;
        }
        n |= ((b & 0x7f) as u64) << shift;
        if b < 0x80 {
            return Some(n);
        }
        shift += 7;
        if shift > 63 {
            return None;
        }
    }
}

pub fn zigzag(n: i64) -> u64 {
    ((n << 1) ^ (n >> 63)) as u64
}

pub fn unzigzag(n: u64) -> i64 {
    ((n >> 1) as i64) ^ -((n & 1) as i64)
}

pub fn put_varint(out: &mut Vec<u8>, n: i64) {
    put_uvarint(out, zigzag(n));
}

pub fn get_varint(buf: &[u8], pos: &mut usize) -> Option<i64> {
    get_uvarint(buf, pos).map(unzigzag)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        for n in [0i64, 1, -1, 63, -64, 300, -300, i64::MAX, i64::MIN] {
            let mut b = Vec::new();
            put_varint(&mut b, n);
            let mut p = 0;
            assert_eq!(get_varint(&b, &mut p), Some(n));
            assert_eq!(p, b.len());
        }
        assert_eq!(zigzag(-1), 1);
        assert_eq!(zigzag(1), 2);
    }
}
