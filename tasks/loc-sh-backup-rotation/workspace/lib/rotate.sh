# Retention: keep the KEEP newest archives of a set, delete the rest.

# rotate_set DIR SET KEEP DRY_RUN(0|1)
rotate_set() {
    local dir=$1 set=$2 keep=$3 dry=$4
    local -a archives
    mapfile -t archives < <(list_backups "$dir" "$set")
    local total=${#archives[@]}
    if [ "$total" -le "$keep" ]; then
        log "$set: $total archive(s), keeping all (limit $keep)"
        return 0
    fi
    local excess=$((total - keep)) i
    for ((i = 0; i < excess; i++)); do
        if [ "$dry" = 1 ]; then
            printf 'would delete %s\n' "${archives[i]}"
        else
            rm -f -- "$dir/${archives[i]}"
            printf 'deleted %s\n' "${archives[i]}"
        fi
    done
    log "$set: kept $keep of $total"
}
