use crate::report::number::format_value;
use crate::rollup::Row;
use crate::time::format_time;

/// One line per row: the window's start, the group and the value, in aligned columns.
pub fn render(rows: &[Row]) -> String {
    let cells: Vec<[String; 3]> = rows
        .iter()
        .map(|r| [format_time(r.start), r.group.to_string(), format_value(r.value)])
        .collect();
    let mut width = [0usize; 3];
    for c in &cells {
        for i in 0..3 {
            width[i] = width[i].max(c[i].len());
        }
    }
    let mut out = String::new();
    for c in &cells {
        out.push_str(&format!(
            "{:<w0$}  {:<w1$}  {:>w2$}\n",
            c[0],
            c[1],
            c[2],
            w0 = width[0],
            w1 = width[1],
            w2 = width[2]
        ));
    }
    out
}
