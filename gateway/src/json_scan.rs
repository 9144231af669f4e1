//! A cheap pass over a request body before it is parsed: how many JSON values it would
//! become and how deep it nests, so that a body that would blow up in memory is refused
//! before `serde_json` allocates anything.
//!
//! A parsed `Value` costs far more than its text: `[0,0,0,…]` is two bytes per element in
//! the body and a 32-byte `Value` (plus vector slack) in memory; `[{},{},…]` or
//! `[{"a":0},…]` allocate a map per element. The scan counts both, without allocating.

/// What [`scan`] found. Counts are upper bounds (a comma or colon is counted as the start of
/// a value), which is what a memory estimate needs.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Shape {
    /// Values of any kind, object keys included.
    pub values: u64,
    /// Objects and arrays (each one allocates).
    pub containers: u64,
    /// The deepest nesting of objects and arrays.
    pub depth: u32,
}

/// Estimated bytes of the request once parsed into a `serde_json::Value`, measured with a
/// counting allocator that adds up every allocation and reallocation (an over-count of the
/// peak), with and without serde_json's `preserve_order` (which the workspace enables, making
/// `Value` 72 bytes and every object an index map): `[0,0,…]` costs up to 236 bytes per
/// element, `[{"a":0},…]` up to 740. See
/// `json_scan::tests::the_estimate_covers_what_parsing_allocates`.
impl Shape {
    pub const BYTES_PER_VALUE: u64 = 240;
    pub const BYTES_PER_CONTAINER: u64 = 400;

    pub fn estimated_memory(&self, text_bytes: u64) -> u64 {
        text_bytes
            .saturating_add(self.values.saturating_mul(Self::BYTES_PER_VALUE))
            .saturating_add(self.containers.saturating_mul(Self::BYTES_PER_CONTAINER))
    }
}

/// Scans `body` once. It does not validate the JSON (the parser does that afterwards); it
/// only needs to be right about bytes inside and outside strings.
pub fn scan(body: &[u8]) -> Shape {
    let mut shape = Shape::default();
    let mut depth: u32 = 0;
    let mut in_string = false;
    let mut escaped = false;
    let mut started = false;
    for &b in body {
        if in_string {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b'"' {
                in_string = false;
            }
            continue;
        }
        match b {
            b'"' => {
                in_string = true;
            }
            b'{' | b'[' => {
                shape.containers += 1;
                depth = depth.saturating_add(1);
                shape.depth = shape.depth.max(depth);
            }
            b'}' | b']' => depth = depth.saturating_sub(1),
            // Each separator starts another value (a member of an object is a key and a value).
            b',' | b':' => shape.values += 1,
            _ => {}
        }
        if !started && !b.is_ascii_whitespace() {
            started = true;
            shape.values += 1;
        }
    }
    // An opening bracket starts a container whose first element has no separator before it.
    shape.values += shape.containers;
    shape
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::cell::Cell;

    #[test]
    fn counts_values_containers_and_depth_outside_strings() {
        let s = scan(br#"{"a": [1, 2, {"b": "x,y:[{"}], "c": "\"]"}"#);
        assert_eq!(s.containers, 3);
        assert_eq!(s.depth, 3);
        // separators outside strings: a: , , b: , c:  -> 6, + 1 top + 3 containers.
        assert_eq!(s.values, 10);
        assert_eq!(scan(b"  ").values, 0);
        assert_eq!(scan(b"[[[[]]]]").depth, 4);
    }

    struct Counting;
    thread_local! {
        // Per thread: other tests allocate concurrently.
        static ALLOCATED: Cell<u64> = const { Cell::new(0) };
    }
    fn count(n: usize) {
        let _ = ALLOCATED.try_with(|c| c.set(c.get() + n as u64));
    }
    fn allocated() -> u64 {
        ALLOCATED.with(Cell::get)
    }
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            count(layout.size());
            unsafe { System.alloc(layout) }
        }
        unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
            unsafe { System.dealloc(ptr, layout) }
        }
        unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new: usize) -> *mut u8 {
            count(new);
            unsafe { System.realloc(ptr, layout, new) }
        }
    }
    #[global_allocator]
    static GLOBAL: Counting = Counting;

    /// The shapes an attacker would pick to amplify a body, and a realistic chat request:
    /// what parsing allocates (counting every reallocation in full, an over-count) must
    /// stay within the estimate.
    #[test]
    fn the_estimate_covers_what_parsing_allocates() {
        let n = 20_000;
        let chat = serde_json::json!({"model": "m", "messages": (0..200).map(|i| serde_json::json!({
            "role": "user", "content": format!("message {i} with some text in it")})).collect::<Vec<_>>()})
        .to_string();
        let bodies: Vec<(&str, String)> = vec![
            ("numbers", format!("[{}0]", "0,".repeat(n))),
            ("empty objects", format!("[{}{{}}]", "{},".repeat(n))),
            (
                "one-key objects",
                format!("[{}{{}}]", r#"{"a":0},"#.repeat(n)),
            ),
            ("empty arrays", format!("[{}[]]", "[],".repeat(n))),
            ("wide object", {
                let members: Vec<String> = (0..n).map(|i| format!("\"k{i}\":0")).collect();
                format!("{{{}}}", members.join(","))
            }),
            ("chat", chat),
        ];
        for (name, body) in bodies {
            let shape = scan(body.as_bytes());
            let before = allocated();
            let v: serde_json::Value = serde_json::from_str(&body).unwrap();
            let used = allocated() - before;
            drop(v);
            let estimate = shape.estimated_memory(body.len() as u64);
            assert!(
                used <= estimate,
                "{name}: parsing allocated {used} bytes, the estimate was {estimate} ({shape:?})"
            );
        }
    }
}
