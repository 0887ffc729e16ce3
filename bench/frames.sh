#!/usr/bin/env bash
# bench/frames.sh [BUILD_DIR] - frame bytes of route B (coro's --coro-split)
# against route A (LLVM's CoroSplit) on every switch, retcon, retcon.once
# and async program of the repo (lowered by --coro-lower).
#
# For each coroutine: LLVM's frame_size as its own remark reports it, once
# with CoroSplit alone on the module coro-opt lowered (A0, the same input
# --coro-split gets) and once inside `opt -O2` (A2, after LLVM's
# optimisations ran first); coro's from its `coro-split` remark (B). The
# ratio is B/A0 and B/A2; the goal is <= 1.0 everywhere. A benchmark, not a
# test: it prints, it does not judge.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../build}"
opt=opt-22; command -v "$opt" >/dev/null || opt=opt
translate=mlir-translate-22
command -v "$translate" >/dev/null || translate=mlir-translate
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# NAME SIZE pairs from remarks "Split 'NAME' (frame_size=SIZE, ...".
sizes() { sed -n "s/.*Split '\([^']*\)' (frame_size=\([0-9]*\).*/\1 \2/p"; }

printf '%-44s %-18s %6s %6s %6s %6s %6s\n' program coroutine A0 A2 B B/A0 B/A2
worst=0
for f in "$here"/../test/Integration/Switch/*.mlir \
         "$here"/../test/Integration/Retcon/*.mlir "$here"/generator-retcon.mlir \
         "$here"/../test/Integration/Async/*.mlir "$here"/generator-async.mlir \
         "$here"/../test/Transforms/CoroSplit/llvm-shapes.mlir \
         "$here"/../test/Transforms/CoroSplit/await-intrinsics.mlir \
         "$here"/../test/Transforms/CoroSplit/remarks.mlir \
         "$here"/generator.mlir "$here"/../examples/generator.mlir; do
  [ -f "$f" ] || continue
  name="$(basename "$(dirname "$f")")/$(basename "$f")"
  if ! "$build/bin/coro-opt" --coro-lower "$f" -o "$tmp/l.mlir" 2>/dev/null; then
    continue
  fi
  "$translate" --mlir-to-llvmir "$tmp/l.mlir" -o "$tmp/l.ll"
  "$opt" -passes='coro-early,coro-split' -pass-remarks=coro-split \
    -disable-output "$tmp/l.ll" 2>&1 | sizes | sort > "$tmp/a0"
  "$opt" -O2 -pass-remarks=coro-split -disable-output "$tmp/l.ll" 2>&1 |
    sizes | sort > "$tmp/a2"
  "$build/bin/coro-opt" --coro-split --remarks-filter=coro-split \
    "$tmp/l.mlir" -o /dev/null 2>&1 | sizes | sort > "$tmp/b"
  join "$tmp/a0" "$tmp/b" > "$tmp/ab" || true
  while read -r coro a0 b; do
    a2="$(awk -v c="$coro" '$1 == c {print $2}' "$tmp/a2")"
    r0="$(awk -v a="$a0" -v b="$b" 'BEGIN {printf "%.2f", b / a}')"
    r2="-"
    [ -n "$a2" ] && r2="$(awk -v a="$a2" -v b="$b" 'BEGIN {printf "%.2f", b / a}')"
    printf '%-44s %-18s %6s %6s %6s %6s %6s\n' "$name" "$coro" "$a0" "${a2:--}" "$b" "$r0" "$r2"
    worst="$(awk -v w="$worst" -v r="$r0" 'BEGIN {print (r > w) ? r : w}')"
  done < "$tmp/ab"
done
echo "worst B/A0: $worst"
