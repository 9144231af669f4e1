# Shared helpers for the csv-* tools. Sourced, never run.
PROG=${0##*/}

die() { printf '%s: %s\n' "$PROG" "$*" >&2; exit 1; }
usage() { printf 'usage: %s\n' "$USAGE" >&2; exit 2; }

# read_header FILE_DESCRIPTION: reads the header record into CSV_HEADER.
read_header() {
    csv_read_record || die "$1: empty input"
    CSV_HEADER=("${CSV_FIELDS[@]}")
}
