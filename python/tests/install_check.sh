#!/usr/bin/env bash
# `cmake --install` puts the Python package where the interpreter finds it: installed into a
# temporary prefix, it imports from there and finds the shipped specs in that prefix's share
# dir; and the default prefix's package folder is on the interpreter's own sys.path.
# Usage: install_check.sh BUILD_DIR PYTHON DEFAULT_PREFIX PACKAGE_DIR (relative to the prefix)
set -euo pipefail
build=$1 python=$2 default_prefix=$3 pkgdir=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp" >/dev/null
cd "$tmp"
PYTHONPATH="$tmp/$pkgdir" PYTHONDONTWRITEBYTECODE=1 "$python" - "$tmp" <<'PY'
import sys
import perfmodel
prefix = sys.argv[1]
assert perfmodel.__file__.startswith(prefix), perfmodel.__file__
folder = perfmodel.list_hw().items[0].folder
assert folder == prefix + "/share/perfmodel/hw_specs", folder
assert perfmodel.predict("resnet50", "a100").totals.params == 25557032
print("installed package imports from", perfmodel.__file__)
PY
"$python" -c "import sys; d = sys.argv[1]; assert d in sys.path, (d, sys.path); print(d, 'is on sys.path')" \
  "$default_prefix/$pkgdir"
