module sumlib

go 1.19
