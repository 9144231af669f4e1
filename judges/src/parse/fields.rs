//! Field types that accept exactly one JSON shape and say precisely what they got.

use serde::de::{self, Deserializer, Visitor};
use std::fmt;

/// An integer score from 1 to 5. `4.0`, `"4"`, `"four"`, `6`, `0`, `null` are rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Score(pub u8);

impl<'de> serde::Deserialize<'de> for Score {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = Score;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON integer from 1 to 5")
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<Score, E> {
                match v {
                    1..=5 => Ok(Score(v as u8)),
                    _ => Err(E::custom(format!(
                        "score {v} is out of range; scores are integers from 1 to 5"
                    ))),
                }
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<Score, E> {
                match u64::try_from(v) {
                    Ok(u) => self.visit_u64(u),
                    Err(_) => Err(E::custom(format!(
                        "score {v} is out of range; scores are integers from 1 to 5"
                    ))),
                }
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<Score, E> {
                Err(E::custom(format!(
                    "score {v:?} has a decimal point or exponent; write a bare integer from 1 to 5"
                )))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<Score, E> {
                Err(E::custom(format!(
                    "score {v:?} is a string; write a bare JSON integer from 1 to 5, not text"
                )))
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<Score, E> {
                Err(E::custom(format!(
                    "score {v} is a boolean; write a JSON integer from 1 to 5"
                )))
            }
            fn visit_unit<E: de::Error>(self) -> Result<Score, E> {
                Err(E::custom("score is null; write a JSON integer from 1 to 5"))
            }
        }
        d.deserialize_any(V)
    }
}

/// A veto verdict: only `true` or `false`. `"false"`, `0`, `null` are rejected.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct StrictBool(pub bool);

impl<'de> serde::Deserialize<'de> for StrictBool {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl<'de> Visitor<'de> for V {
            type Value = StrictBool;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("a JSON boolean (true or false)")
            }
            fn visit_bool<E: de::Error>(self, v: bool) -> Result<StrictBool, E> {
                Ok(StrictBool(v))
            }
            fn visit_str<E: de::Error>(self, v: &str) -> Result<StrictBool, E> {
                Err(E::custom(format!(
                    "`violated` is the string {v:?}; write the JSON boolean true or false without quotes"
                )))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<StrictBool, E> {
                Err(E::custom(format!(
                    "`violated` is the number {v}; write the JSON boolean true or false"
                )))
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<StrictBool, E> {
                Err(E::custom(format!(
                    "`violated` is the number {v}; write the JSON boolean true or false"
                )))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<StrictBool, E> {
                Err(E::custom(format!(
                    "`violated` is the number {v}; write the JSON boolean true or false"
                )))
            }
            fn visit_unit<E: de::Error>(self) -> Result<StrictBool, E> {
                Err(E::custom(
                    "`violated` is null; write the JSON boolean true or false",
                ))
            }
        }
        d.deserialize_any(V)
    }
}
