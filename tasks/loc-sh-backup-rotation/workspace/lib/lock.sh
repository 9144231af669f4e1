# One backup run per set at a time: a lock directory next to the archives.

acquire_lock() {
    local dir=$1 set=$2
    LOCK_DIR="$dir/.lock-$set"
    if ! mkdir "$LOCK_DIR" 2>/dev/null; then
        die "set $set is locked by another run ($LOCK_DIR); remove it if that run is dead"
    fi
    trap 'rmdir "$LOCK_DIR" 2>/dev/null' EXIT
}
