# Shared helpers for the backup tools. Sourced, never run.

log() { printf '%s backup: %s\n' "$(date '+%H:%M:%S')" "$*" >&2; }
die() { printf 'backup: error: %s\n' "$*" >&2; exit 1; }

# load_config FILE: reads KEY=VALUE lines (no code is executed); environment wins over the file.
load_config() {
    local file=$1 key value
    [ -r "$file" ] || die "cannot read config $file"
    while IFS='=' read -r key value; do
        case $key in
            ''|'#'*) continue ;;
            BACKUP_DIR|KEEP|COMPRESS) ;;
            *) die "$file: unknown setting $key" ;;
        esac
        value=${value%\"}; value=${value#\"}
        if [ -z "${!key:-}" ]; then
            printf -v "$key" '%s' "$value"
        fi
    done < "$file"
    : "${BACKUP_DIR:?BACKUP_DIR is not set in $file}"
    : "${KEEP:=7}"
    case $KEEP in ''|*[!0-9]*) die "KEEP must be a number, got '$KEEP'" ;; esac
}

# valid_set NAME: set names are used in file names, so keep them tame.
valid_set() {
    case $1 in
        ''|*[!A-Za-z0-9._-]*|-*) die "invalid backup set name '$1'" ;;
    esac
}
