#!/usr/bin/env bash
# Prints the path of a Python that holds Harbor's published ATIF validator
# (harbor.utils.trajectory_validator, whose Pydantic models are the format's schema; Harbor
# publishes no separate JSON Schema file). The tests validate every trajectory that
# `nab export --format atif` writes with it: python -m harbor.utils.trajectory_validator FILE.
#
# Installed once into a virtual environment under target/ (or $1), pinned, from the Python
# package registry: the `harbor` package (Apache-2.0) without its dependencies (the
# validator needs only pydantic; the rest is Harbor's runner), and pydantic. Harbor declares
# Python >= 3.12, but its trajectory models run on Debian 12's 3.11, hence
# --ignore-requires-python. Needs python3 with venv (ci/deps.sh installs python3-venv).
set -euo pipefail
HARBOR_VERSION=0.26.0
PYDANTIC_VERSION=2.14.4
dir="${1:-$(cd "$(dirname "$0")/.." && pwd)/target/atif-validator}"
stamp="$dir/.installed-harbor-$HARBOR_VERSION-pydantic-$PYDANTIC_VERSION"
mkdir -p "$(dirname "$dir")"
# Several tests may ask at once: one installs, the others wait for it.
exec 9>"$dir.lock"
flock 9
if [ ! -f "$stamp" ]; then
  rm -rf "$dir"
  python3 -m venv "$dir" >&2
  pip=("$dir/bin/python" -m pip install --quiet --disable-pip-version-check)
  "${pip[@]}" --no-deps --ignore-requires-python "harbor==$HARBOR_VERSION" >&2
  "${pip[@]}" "pydantic==$PYDANTIC_VERSION" >&2
  "$dir/bin/python" -c "import harbor.utils.trajectory_validator" >&2
  touch "$stamp"
fi
echo "$dir/bin/python"
