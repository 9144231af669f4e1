#!/bin/bash
# render.sh ENVFILE SECRETS_DIR: prints the env file with ${secret:NAME@VERSION} references
# replaced by the contents of SECRETS_DIR/NAME/VERSION (the vault's export on the deploy host).
# Used at rollout time.
set -euo pipefail
envfile=${1:?usage: render.sh ENVFILE SECRETS_DIR}; secrets=${2:?usage: render.sh ENVFILE SECRETS_DIR}
while IFS= read -r line; do
  case $line in
    '#'*|'') continue ;;
  esac
  key=${line%%=*}; value=${line#*=}
  if [[ $value =~ ^\$\{secret:([a-z0-9/-]+)@([0-9]+)\}$ ]]; then
    value=$(< "$secrets/${BASH_REMATCH[1]}/${BASH_REMATCH[2]}")
  fi
  printf '%s=%s\n' "$key" "$value"
done < "$envfile"
