#!/usr/bin/env bash
# bench/frames.sh [BUILD_DIR] - frame bytes of route B (coro's --coro-split)
# against route A (LLVM's CoroSplit) on every switch, retcon, retcon.once
# and async program of the repo (lowered by --coro-lower).
#
# For each coroutine: LLVM's frame_size as its own remark reports it, once
# with CoroSplit alone on the module coro-opt lowered (A0, the same input
# --coro-split gets) and once inside `opt -O2` (A2, after LLVM's
# optimisations ran first); coro's from its `coro-split` remark (B, on the
# module coro-opt lowered; B2, route B at -O2 in coro-translate, where
# LLVM's pre-split simplification runs before the split). EL is
# LLVM's frame size of the calls --coro-elide put inside this coroutine's
# frame (route B holds them there; route A leaves them on the heap), so the
# ratios are B/(A0+EL), B/(A2+EL) and B2/(A2+EL); the goal is <= 1.0
# everywhere. A
# benchmark, not a test: it prints, it does not judge.
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

printf '%-44s %-18s %6s %6s %6s %6s %6s %6s %6s %6s\n' program coroutine A0 A2 EL B B/A0 B/A2 B2 B2/A2
worst=0
worst2=0
for f in "$here"/../test/Integration/Switch/*.mlir \
         "$here"/../test/Integration/Retcon/*.mlir "$here"/generator-retcon.mlir \
         "$here"/../test/Integration/Async/*.mlir "$here"/generator-async.mlir \
         "$here"/../test/Transforms/CoroSplit/llvm-shapes.mlir \
         "$here"/../test/Transforms/CoroSplit/await-intrinsics.mlir \
         "$here"/../test/Transforms/CoroSplit/remarks.mlir \
         "$here"/generator.mlir "$here"/../examples/generator.mlir; do
  [ -f "$f" ] || continue
  name="$(basename "$(dirname "$f")")/$(basename "$f")"
  if ! "$build/bin/coro-opt" --coro-lower --remarks-filter=coro-elide "$f" \
    -o "$tmp/l.mlir" 2>"$tmp/elide"; then
    continue
  fi
  # CALLER CALLEE per call whose frame --coro-elide put in its caller
  sed -n "s/.*remark: '\([^']*\)' elided in '\([^']*\)'.*/\2 \1/p" \
    "$tmp/elide" > "$tmp/pairs"
  "$translate" --mlir-to-llvmir "$tmp/l.mlir" -o "$tmp/l.ll"
  "$opt" -passes='coro-early,coro-split' -pass-remarks=coro-split \
    -disable-output "$tmp/l.ll" 2>&1 | sizes | sort > "$tmp/a0"
  "$opt" -O2 -pass-remarks=coro-split -disable-output "$tmp/l.ll" 2>&1 |
    sizes | sort > "$tmp/a2"
  "$build/bin/coro-opt" --coro-split --remarks-filter=coro-split \
    "$tmp/l.mlir" -o /dev/null 2>&1 | sizes | sort > "$tmp/b"
  "$build/bin/coro-translate" "$f" --route=mlir-split -O2 --emit=llvm \
    --remarks-filter=coro-split -o /dev/null 2>&1 | sizes | sort > "$tmp/b2" ||
    true
  join "$tmp/a0" "$tmp/b" > "$tmp/ab" || true
  while read -r coro a0 b; do
    a2="$(awk -v c="$coro" '$1 == c {print $2}' "$tmp/a2")"
    # the frames of the calls elided into this one (route B holds them;
    # route A leaves them on the heap): LLVM's sizes of those callees
    el="$(awk -v c="$coro" 'NR == FNR { a[$1] = $2; next }
      $1 == c || $1 ".coro.async" == c { s += a[$2] } END { print s + 0 }' \
      "$tmp/a0" "$tmp/pairs")"
    r0="$(awk -v a="$a0" -v e="$el" -v b="$b" 'BEGIN {printf "%.2f", b / (a + e)}')"
    r2="-"
    [ -n "$a2" ] && r2="$(awk -v a="$a2" -v e="$el" -v b="$b" 'BEGIN {printf "%.2f", b / (a + e)}')"
    b2="$(awk -v c="$coro" '$1 == c {print $2}' "$tmp/b2")"
    q2="-"
    [ -n "$a2" ] && [ -n "$b2" ] && q2="$(awk -v a="$a2" -v e="$el" -v b="$b2" 'BEGIN {printf "%.2f", b / (a + e)}')"
    printf '%-44s %-18s %6s %6s %6s %6s %6s %6s %6s %6s\n' "$name" "$coro" "$a0" "${a2:--}" "$el" "$b" "$r0" "$r2" "${b2:--}" "$q2"
    worst="$(awk -v w="$worst" -v r="$r0" 'BEGIN {print (r > w) ? r : w}')"
    [ "$q2" = "-" ] || worst2="$(awk -v w="$worst2" -v r="$q2" 'BEGIN {print (r > w) ? r : w}')"
  done < "$tmp/ab"
done
echo "worst B/A0: $worst"
echo "worst B2/A2: $worst2"
