# Writes calc/ops.h from lib/ops.def.
BEGIN { print "#ifndef CALC_OPS_H"; print "#define CALC_OPS_H"; print "int calc_ops(int x);"; print "int calc_op_count(void);"; print "enum calc_op {" }
/^#/ || NF == 0 { next }
{ printf "    CALC_OP_%s,\n", toupper($1); names = names sprintf("\"%s\", ", $1); n++ }
END { print "};"; printf "#define CALC_OP_COUNT %d\n", n; printf "#define CALC_OP_NAMES { %s}\n", names; print "#endif" }
