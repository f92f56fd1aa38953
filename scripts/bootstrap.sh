#!/usr/bin/env bash
# Installs what perfmodel needs from Debian's packages (only what is missing), then configures
# and builds Release into build/. Idempotent; quiet when everything is already there.
# Environment: BUILD_DIR (default build), CMAKE_ARGS (extra configure arguments), JOBS.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(build-essential cmake pkg-config libeigen3-dev libyaml-cpp-dev libceres-dev doctest-dev
  libonnx-dev libprotobuf-dev protobuf-compiler libcli11-dev nlohmann-json3-dev libfmt-dev
  zlib1g-dev libbenchmark-dev gnuplot-nox python3 python3-dev pybind11-dev python3-pytest python3-yaml)
# The HTML report's browser test (test/cli/report_browser.py) renders pages in Chromium; a build
# configured with -DPERFMODEL_BROWSER_TEST=OFF in CMAKE_ARGS does without it.
case " ${CMAKE_ARGS:-} " in
  *" -DPERFMODEL_BROWSER_TEST=OFF "*) ;;
  *) packages+=(chromium) ;;
esac

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "bootstrap: installing ${missing[*]}" >&2
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

build_dir=${BUILD_DIR:-build}
jobs=${JOBS:-$(nproc)}
if [ ! -f "$build_dir/CMakeCache.txt" ]; then
  # shellcheck disable=SC2086
  cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=Release ${CMAKE_ARGS:-} >"$build_dir.configure.log" 2>&1 \
    || { cat "$build_dir.configure.log" >&2; exit 1; }
fi
cmake --build "$build_dir" -j "$jobs" >"$build_dir.build.log" 2>&1 \
  || { tail -n 60 "$build_dir.build.log" >&2; exit 1; }
