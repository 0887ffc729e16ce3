#!/usr/bin/env bash
# bench/split.sh [--big] [BUILD_DIR] - frame bytes and split time of route B
# (coro's --coro-split) against route A (LLVM's CoroSplit) on long chains.
#
# bench/chain-gen.c writes a switch coroutine with N suspensions and K+1
# i64 values live across each (none live across two). For each (N,K):
#   A: coro-opt --coro-lower-switch, mlir-translate --mlir-to-llvmir, then
#      `opt -passes=coro-early,coro-split` alone (no other LLVM pass);
#   B: coro-opt --coro-lower-switch --coro-split on the same source.
# Frame bytes come from each route's remark "Split 'chain' (frame_size=..)".
# Split seconds come from each tool's own pass timer (opt -time-passes:
# CoroSplitPass; coro-opt --mlir-timing: CoroSplit), so parsing, lowering
# and printing are left out on both sides. B runs with --verify-each=false:
# MLIR verifies the whole module after each pass and --mlir-timing counts
# that in the pass's row (a third of it at N=5000 K=100), where opt
# verifies once, after its pipeline, in a row of its own (VerifierPass)
# that CoroSplitPass does not include. Whole-process wall seconds and
# peak resident MB come from /usr/bin/time: A is opt alone, B is coro-opt
# lowering and splitting, B0 is coro-opt lowering alone, A0 is opt parsing
# and verifying the same module with no pass. "own MB" is each split's own
# memory: A - A0 for LLVM's, B - B0 for route B's, and their ratio (the
# goal: <= 0.25). "ideal" is a frame that keeps only one step's values:
# resume and destroy pointers (16), coro's promise {ptr, i64} (16), K+1
# values, the i1 the lowering keeps and the suspend index, rounded up to
# the frame's 16-byte alignment. The default rows take about a minute on
# two cores; --big adds N=10000 (minutes, GBs). A benchmark, not a test: it
# prints, it does not judge.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
big=0
build=""
for arg in "$@"; do
  case "$arg" in
  --big) big=1 ;;
  *) build="$arg" ;;
  esac
done
build="${build:-$here/../build}"
cc=clang-22; command -v "$cc" >/dev/null || cc=cc
opt=opt-22; command -v "$opt" >/dev/null || opt=opt
translate=mlir-translate-22
command -v "$translate" >/dev/null || translate=mlir-translate
coro_opt="$build/bin/coro-opt"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$cc" -std=c11 -O2 "$here/chain-gen.c" -o "$tmp/chain-gen"
rows=("100 10" "1000 10" "1000 100")
[ "$big" = 1 ] && rows+=("10000 10" "10000 100")
have_b=1 # (grep without -q: an early exit would fail the pipe)
"$coro_opt" --help 2>/dev/null | grep -- '--coro-split ' >/dev/null || have_b=0

# timed TAG CMD...: bench/timed.sh
. "$here/timed.sh"

# frame TAG - the frame_size of @chain from the remark in $tmp/TAG.err.
frame() {
  sed -n "s/.*Split 'chain' (frame_size=\([0-9]*\).*/\1/p" "$tmp/$1.err" |
    head -n 1
}
# pass_secs TAG NAME - wall seconds of pass NAME in a timing report (the
# last figure before the name once the "(percent)" groups are dropped).
pass_secs() {
  sed 's/([^)]*)//g' "$tmp/$1.err" |
    awk -v n="$2" '$NF == n {s += $(NF - 1); f = 1}
                   END {if (f) printf "%.3f", s; else printf "-"}'
}
wall() { cut -d' ' -f1 "$tmp/$1.time"; }
mb() {
  awk '{if ($2 == "-") print "-"; else printf "%.0f", $2 / 1024}' \
    "$tmp/$1.time"
}
ratio() {
  awk -v a="$1" -v b="$2" \
    'BEGIN {if (a + 0 > 0 && b != "-") printf "%.3f", b / a; else print "-"}'
}
# ideal N K - bytes of a frame that keeps one step's values (see above).
ideal() {
  awk -v n="$1" -v k="$2" 'BEGIN {
    bits = 1; while (2 ^ bits < n + 1) bits++   # N yields + final suspend
    b = 16 + 16 + 8 * (k + 1) + 1 + int((bits + 7) / 8)
    print int((b + 15) / 16) * 16 }'
}

# own A A0 B B0 - each split's own MB (A - A0, B - B0) and B's over A's.
own() {
  awk -v a="$(mb "$1")" -v a0="$(mb "$2")" -v b="$(mb "$3")" \
    -v b0="$(mb "$4")" 'BEGIN {
      if (a == "-" || a0 == "-" || b == "-" || b0 == "-") { print "- - -"; exit }
      oa = a - a0; ob = b - b0
      r = oa > 0 ? sprintf("%.3f", ob / oa) : "-"
      printf "%d %d %s\n", oa, ob, r }'
}

fmt='%6s %4s | %8s %6s %7s %6s | %8s %8s %7s | %7s %7s %7s | %5s %5s %5s %5s | %6s %6s %6s\n'
printf "$fmt" N K "frame A" B B/A ideal "split A" B B/A \
  "wall A" B B0 "MB A" A0 B B0 "own A" B B/A
for row in "${rows[@]}"; do
  read -r n k <<<"$row"
  "$tmp/chain-gen" "$n" "$k" >"$tmp/chain.mlir"
  # B0, whose output is also route A's input.
  timed b0 "$coro_opt" --coro-lower-switch "$tmp/chain.mlir" -o "$tmp/low.mlir"
  "$translate" --mlir-to-llvmir "$tmp/low.mlir" -o "$tmp/low.ll"
  timed a "$opt" -passes='coro-early,coro-split' -pass-remarks=coro-split \
    -time-passes -disable-output "$tmp/low.ll"
  timed a0 "$opt" -passes=verify -disable-output "$tmp/low.ll"
  fa="$(frame a)"
  ta="$(pass_secs a CoroSplitPass)"
  if [ "$have_b" = 0 ]; then
    printf '%6s %4s | %8s route B: --coro-split not available\n' \
      "$n" "$k" "${fa:--}"
    continue
  fi
  if ! timed b "$coro_opt" --coro-lower-switch --coro-split --verify-each=false \
    --remarks-filter=coro-split --mlir-timing "$tmp/chain.mlir" -o /dev/null; then
    printf '%6s %4s | %8s route B failed: %s\n' "$n" "$k" "${fa:--}" \
      "$(grep -m1 error "$tmp/b.err" || tail -n 1 "$tmp/b.err")"
    continue
  fi
  fb="$(frame b)"
  tb="$(pass_secs b CoroSplit)"
  read -r own_a own_b own_r <<<"$(own a a0 b b0)"
  printf "$fmt" "$n" "$k" "${fa:--}" "${fb:--}" "$(ratio "${fa:-0}" "${fb:--}")" \
    "$(ideal "$n" "$k")" "$ta" "$tb" "$(ratio "$ta" "$tb")" \
    "$(wall a)" "$(wall b)" "$(wall b0)" "$(mb a)" "$(mb a0)" "$(mb b)" \
    "$(mb b0)" "$own_a" "$own_b" "$own_r"
done
echo "goals: split B/A <= 0.1 and own MB B/A <= 0.25 at N=10000 K=100 (--big)"
