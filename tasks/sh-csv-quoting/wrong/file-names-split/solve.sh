#!/bin/bash
# Wrong: fixes parsing and quoting in lib/csv.sh but keeps splitting the file list on spaces.
set -euo pipefail
cd /workspace
python3 - <<'PY'
p = "lib/csv.sh"
s = open(p).read()
start = s.index("# csv_read_record:")
end = s.index("# csv_write_record FIELD...")
new = r'''# csv_read_record: reads the next record from stdin into the array CSV_FIELDS.
# Returns 1 at end of input. A quoted field may contain commas, doubled quotes ("") and line
# breaks, so one record can span several lines. A CR before a line break is dropped.
csv_read_record() {
    local line field="" c next i n inq=0
    CSV_FIELDS=()
    IFS= read -r line || [ -n "$line" ] || return 1
    while :; do
        line=${line%$'\r'}
        n=${#line}
        i=0
        while [ "$i" -lt "$n" ]; do
            c=${line:i:1}
            if [ "$inq" = 1 ]; then
                if [ "$c" = '"' ]; then
                    next=${line:i+1:1}
                    if [ "$next" = '"' ]; then
                        field+='"'
                        i=$((i + 1))
                    else
                        inq=0
                    fi
                else
                    field+=$c
                fi
            else
                case $c in
                    '"') inq=1 ;;
                    ',') CSV_FIELDS+=("$field"); field="" ;;
                    *) field+=$c ;;
                esac
            fi
            i=$((i + 1))
        done
        [ "$inq" = 1 ] || break
        # Inside quotes at the end of a line: the line break belongs to the field.
        field+=$'\n'
        IFS= read -r line || [ -n "$line" ] || break
    done
    CSV_FIELDS+=("$field")
    return 0
}

# csv_quote FIELD: prints FIELD as a CSV field (no newline): quoted, with inner quotes
# doubled, only when it contains a comma, a double quote or a line break.
csv_quote() {
    local f=$1
    case $f in
        *[,\"$'\n'$'\r']*)
            f=${f//\"/\"\"}
            printf '"%s"' "$f"
            ;;
        *) printf '%s' "$f" ;;
    esac
}

'''
s = s[:start] + new + s[end:]
open(p, "w").write(s)

PY
