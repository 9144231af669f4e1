use crate::codec::varint::{get_uvarint, get_varint, put_uvarint, put_varint};
use crate::error::{Error, Result};
use crate::model::Sample;

/// Sealed samples of one series, in time order: a count, the first time, then each later
/// time as the difference from the one before, then every value's bits.
#[derive(Debug, Clone, PartialEq)]
pub struct Chunk {
    bytes: Vec<u8>,
    min_ts: i64,
    max_ts: i64,
    count: usize,
}

impl Chunk {
    pub fn encode(samples: &[Sample]) -> Chunk {
        let mut bytes = Vec::with_capacity(samples.len() * 10 + 8);
        put_uvarint(&mut bytes, samples.len() as u64);
        let mut prev = 0i64;
        for (i, s) in samples.iter().enumerate() {
            if i == 0 {
                put_varint(&mut bytes, s.ts);
            } else {
                put_varint(&mut bytes, s.ts - prev);
            }
            prev = s.ts;
        }
        for s in samples {
            bytes.extend_from_slice(&s.value.to_bits().to_le_bytes());
        }
        Chunk {
            bytes,
            min_ts: samples.first().map_or(0, |s| s.ts),
            max_ts: samples.last().map_or(0, |s| s.ts),
            count: samples.len(),
        }
    }

    pub fn decode(&self) -> Result<Vec<Sample>> {
        let corrupt = |what: &str| Error::Corrupt(what.to_string());
        let mut pos = 0;
        let n = get_uvarint(&self.bytes, &mut pos).ok_or_else(|| corrupt("count"))? as usize;
        let mut times = Vec::with_capacity(n);
        let mut prev = 0i64;
        for i in 0..n {
            let d = get_varint(&self.bytes, &mut pos).ok_or_else(|| corrupt("time"))?;
            prev = if i == 0 { d } else { prev + d };
            times.push(prev);
        }
        let mut out = Vec::with_capacity(n);
        for ts in times {
            let raw = self
                .bytes
                .get(pos..pos + 8)
                .ok_or_else(|| corrupt("value"))?;
            let mut b = [0u8; 8];
            b.copy_from_slice(raw);
            out.push(Sample::new(ts, f64::from_bits(u64::from_le_bytes(b))));
            pos += 8;
        }
        Ok(out)
    }

    pub fn min_ts(&self) -> i64 {
        self.min_ts
    }

    pub fn max_ts(&self) -> i64 {
        self.max_ts
    }

    pub fn len(&self) -> usize {
        self.count
    }

    pub fn is_empty(&self) -> bool {
        self.count == 0
    }

    pub fn size_bytes(&self) -> usize {
        self.bytes.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let s: Vec<Sample> = (0..50)
            .map(|i| Sample::new(1_000 + i * 15_000 + (i % 3) * 7, i as f64 * 0.5))
            .collect();
        let c = Chunk::encode(&s);
        assert_eq!(c.decode().unwrap(), s);
        assert_eq!(c.min_ts(), 1_000);
        assert_eq!(c.len(), 50);
    }
}
