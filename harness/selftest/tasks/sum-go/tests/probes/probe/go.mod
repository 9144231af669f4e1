module probe

go 1.19

require sumlib v0.0.0

replace sumlib => /workspace
