#!/usr/bin/env bash
# dev.sh - set up, build, and run coro on Debian 12.
#
#   ./dev.sh demo    install what is missing, build, run the demo
#   ./dev.sh test    install what is missing, build, run the whole test suite
#                    (the normal build, then the ASan+UBSan build)
#   ./dev.sh build   install what is missing and build (build/)
#   ./dev.sh setup   only install what is missing
#
# Installs Debian packages with apt-get (as root, or through sudo) only when
# one is missing; configures CMake once per build directory; builds with -j2.
# A second run does no needless work.
set -euo pipefail
cd "$(dirname "$0")"

LLVM_ROOT=/usr/lib/llvm-22
PACKAGES=(libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools clang-22
          libclang-rt-22-dev cmake make python3 ca-certificates pkgconf
          valgrind strace libjemalloc-dev)
JOBS=2

setup() {
  local missing=() p
  for p in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" ||
      missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "dev.sh: installing ${missing[*]}"
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  $sudo apt-get update -q
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q \
    --no-install-recommends "${missing[@]}"
}

# build DIR [cmake options...]
build() {
  local dir=$1
  shift
  if [ ! -f "$dir/CMakeCache.txt" ]; then
    cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DCMAKE_C_COMPILER="$LLVM_ROOT/bin/clang" \
      -DCMAKE_CXX_COMPILER="$LLVM_ROOT/bin/clang++" "$@"
  fi
  cmake --build "$dir" -j"$JOBS"
}

demo() {
  local opt=build/bin/coro-opt
  echo "== A generator in the coro dialect, parsed, verified and printed:"
  "$opt" examples/generator.mlir
  echo "== The verifier at work on a broken coroutine (an error is expected):"
  if "$opt" examples/broken.mlir >/dev/null; then
    echo "dev.sh: the verifier accepted examples/broken.mlir" >&2
    return 1
  fi
  echo "== The generator lowered to the LLVM dialect (coro-lower-switch), first lines:"
  "$opt" examples/generator.mlir --coro-lower-switch | sed -n 1,20p
  echo "== The generator JIT-compiled and run; main sums what it yields (45):"
  build/bin/coro-run examples/generator.mlir
  local abi
  for abi in retcon async; do
    echo "== The same program with coro.abi = \"$abi\" (45 again):"
    sed "s/coro.abi = \"switch\"/coro.abi = \"$abi\"/" examples/generator.mlir |
      build/bin/coro-run -
  done
}

# check DIR: runs the lit suite of one build; adds to the totals.
passed=0
failed=0
status=0
check() {
  local log
  log=$(mktemp)
  cmake --build "$1" -j"$JOBS" --target check-coro 2>&1 | tee "$log" || status=1
  local p f
  p=$(sed -n 's/^ *Passed *: *\([0-9]*\).*/\1/p' "$log" | tail -1 || true)
  f=$(grep -E '^ *(Failed|Unresolved|Timed Out|Unexpectedly Passed) *:' "$log" |
    sed 's/.*: *\([0-9]*\).*/\1/' | awk '{s += $1} END {print s + 0}' || true)
  passed=$((passed + ${p:-0}))
  failed=$((failed + ${f:-0}))
  [ -n "$p" ] || status=1
  rm -f "$log"
}

run_tests() {
  build build
  check build
  build build-asan -DCORO_ENABLE_SANITIZERS=ON
  check build-asan
  # The whole suite's count (normal and sanitizer builds together).
  echo "$passed passed, $failed failed"
  return "$status"
}

case "${1:-}" in
  setup) setup ;;
  build) setup; build build ;;
  demo) setup; build build; demo ;;
  test) setup; run_tests ;;
  *) echo "usage: ./dev.sh demo|test|build|setup" >&2; exit 2 ;;
esac
