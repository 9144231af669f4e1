# How archives are named: <set>-<YYYYmmdd>-<HHMMSS>.tar.gz, e.g. db-20240611-031500.tar.gz.
# Stamps sort lexically in time order, so the names of one set sort oldest first.

# archive_name SET [STAMP]
archive_name() {
    local set=$1 stamp=${2:-$(date -u '+%Y%m%d-%H%M%S')}
    printf '%s-%s.tar.gz\n' "$set" "$stamp"
}

# archive_stamp FILE: the YYYYmmdd-HHMMSS part of an archive name.
archive_stamp() {
    local name=${1##*/}
    name=${name%.tar.gz}
    printf '%s\n' "${name: -15}"
}

# list_backups DIR SET: the archive names of SET in DIR, oldest first, one per line.
list_backups() {
    local dir=$1 set=$2 f
    for f in "$dir/$set"-*.tar.gz; do
        [ -f "$f" ] || continue
        printf '%s\n' "${f##*/}"
    done | LC_ALL=C sort
}
