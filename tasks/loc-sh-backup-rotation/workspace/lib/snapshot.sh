# make_snapshot SOURCE_DIR DEST_DIR SET: archive SOURCE_DIR into DEST_DIR, print the name.
make_snapshot() {
    local src=$1 dest=$2 set=$3
    [ -d "$src" ] || die "source $src is not a directory"
    mkdir -p "$dest" || die "cannot create $dest"
    local name tmp
    name=$(archive_name "$set" "${BACKUP_STAMP:-}")
    [ -e "$dest/$name" ] && die "$dest/$name already exists"
    tmp="$dest/.$name.partial"
    if ! tar -C "$src" -czf "$tmp" .; then
        rm -f -- "$tmp"
        die "tar failed for $src"
    fi
    mv -- "$tmp" "$dest/$name"
    printf '%s\n' "$name"
}
