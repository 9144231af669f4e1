use crate::report::number::format_value;
use crate::rollup::Row;

/// `start_ms,group,value,series` with a header; the group is quoted (it holds commas).
pub fn render(rows: &[Row]) -> String {
    let mut out = String::from("start_ms,group,value,series\n");
    for r in rows {
        out.push_str(&format!(
            "{},\"{}\",{},{}\n",
            r.start,
            r.group.to_string().replace('"', "\"\""),
            format_value(r.value),
            r.series
        ));
    }
    out
}
