#!/usr/bin/env bash
# bench/elision.sh [BUILD_DIR] - how many calls of switch coroutines in the
# integration programs get their frame in their caller, before --coro-elide
# (only coroutines marked coro.alloc = "elide": what route B elided before)
# and with it (its coro-elide remarks), and why the others stay on the
# heap. Static call sites, not run-time counts (a call site in a loop is
# one frame reused). A benchmark, not a test: it prints, it does not judge.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../build}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
: >"$tmp/remarks"
for f in "$here"/../test/Integration/*/*.mlir "$here"/generator.mlir \
         "$here"/../examples/*.mlir; do
  [ -f "$f" ] || continue
  "$build/bin/coro-opt" --convert-scf-to-cf --coro-elide \
    --remarks-filter=coro-elide "$f" -o /dev/null 2>&1 |
    grep ': remark: ' >>"$tmp/remarks" || true
done
# the switch-ABI decisions (other ABIs are not placed by coro-elide)
grep -v "only switch-ABI frames" "$tmp/remarks" >"$tmp/switch" || true
total=$(wc -l <"$tmp/switch")
after=$(grep -c "' elided in '" "$tmp/switch" || true)
# before: the calls of coroutines with coro.alloc = "elide"
before=0
for f in "$here"/../test/Integration/*/*.mlir "$here"/generator.mlir \
         "$here"/../examples/*.mlir; do
  [ -f "$f" ] || continue
  for c in $(sed -n 's/^func.func @\([A-Za-z0-9_]*\)(.*coro.alloc = "elide".*/\1/p' "$f"); do
    n=$(grep -c "call @$c(" "$f" || true)
    before=$((before + n))
  done
done
printf 'calls of switch coroutines in the integration programs: %d\n' "$total"
printf 'frames in the caller before --coro-elide (coro.alloc = "elide"): %d\n' "$before"
printf 'frames in the caller with --coro-elide:                         %d\n' "$after"
printf 'heap frames: %d before, %d after\n' "$((total - before))" "$((total - after))"
echo "why the others stay on the heap:"
sed -n "s/.*' not elided in '[^']*': //p" "$tmp/switch" |
  sed 's/'"'"'[^'"'"']*'"'"'/X/g' | sort | uniq -c | sort -rn
