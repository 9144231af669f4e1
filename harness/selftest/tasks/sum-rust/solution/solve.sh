sed -i 's/values\[..values.len().saturating_sub(1)\].iter().sum()/values.iter().sum()/' /workspace/src/lib.rs
