# CSV helpers for the csv-* tools (RFC 4180 style: comma separated, fields optionally in
# double quotes). Sourced, never run.

# csv_read_record: reads the next record from stdin into the array CSV_FIELDS.
# Returns 1 at end of input.
csv_read_record() {
    local line f i
    IFS= read -r line || [ -n "$line" ] || return 1
    line=${line%$'\r'}
    IFS=, read -r -a CSV_FIELDS <<< "$line"
    for i in "${!CSV_FIELDS[@]}"; do
        f=${CSV_FIELDS[i]}
        if [[ $f == \"*\" ]]; then
            f=${f:1:${#f}-2}
        fi
        CSV_FIELDS[i]=$f
    done
    return 0
}

# csv_quote FIELD: prints FIELD as a CSV field (no newline).
csv_quote() {
    case $1 in
        *,*) printf '"%s"' "$1" ;;
        *) printf '%s' "$1" ;;
    esac
}

# csv_write_record FIELD...: prints one CSV record terminated by \n.
csv_write_record() {
    local sep=""
    for f in "$@"; do
        printf '%s' "$sep"
        csv_quote "$f"
        sep=,
    done
    printf '\n'
}

# csv_column_index NAME: the index of NAME in CSV_HEADER, or fails.
csv_column_index() {
    local i
    for i in "${!CSV_HEADER[@]}"; do
        if [ "${CSV_HEADER[i]}" = "$1" ]; then
            printf '%s\n' "$i"
            return 0
        fi
    done
    return 1
}
