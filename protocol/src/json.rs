//! JSON with object keys sorted: the one canonical text of a value, whatever order its maps
//! keep. The gateway hashes it (a cassette key must not depend on the agent's field order)
//! and nab-agent compares tool calls with it (stagnation: the same call twice).

use serde_json::Value;

/// Compact JSON with every object's keys sorted (byte order), arrays in their order.
pub fn to_sorted_string(value: &Value) -> String {
    let mut out = String::new();
    write_sorted(value, &mut out);
    out
}

fn write_sorted(value: &Value, out: &mut String) {
    match value {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String((*k).clone()).to_string());
                out.push(':');
                write_sorted(&map[k.as_str()], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, v) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_sorted(v, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn keys_are_sorted_at_every_depth_and_strings_stay_escaped() {
        let a = json!({"b": [{"z": 1, "a": "x\"y"}], "a": null});
        assert_eq!(
            to_sorted_string(&a),
            r#"{"a":null,"b":[{"a":"x\"y","z":1}]}"#
        );
        let b: Value = serde_json::from_str(r#"{"a":null,"b":[{"z":1,"a":"x\"y"}]}"#).unwrap();
        assert_eq!(to_sorted_string(&a), to_sorted_string(&b));
    }
}
