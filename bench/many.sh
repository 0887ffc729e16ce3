#!/usr/bin/env bash
# bench/many.sh [--quick] [--no-obj] [BUILD_DIR] [M...] - how coro's passes scale with
# the number of coroutines in one module, against LLVM's coroutine passes
# on the same lowered module.
#
# bench/many-gen.c writes M small coroutines (a loop of three yields, a few
# values live across them; retcon.once: one yield), a driver for each and a
# @main that calls them all. For each M (default 1000 10000; --quick: 200
# 2000) and each ABI, switch and mix (coroutine i of ABI i % 4: switch,
# retcon, retcon.once, async), one row per measurement, whole-process wall
# seconds and peak resident MB from /usr/bin/time (coro pipeline and LLVM
# coro, with their passes' own seconds, run REPS times each (default 3),
# taking turns, and give their fastest run, the least disturbed by the
# machine's other load; the other rows one run):
#   coro pipeline   coro-opt --coro-lower --coro-split -o /dev/null
#   coro lower      coro-opt --coro-lower (its output is LLVM's input, via
#                   mlir-translate --mlir-to-llvmir, untimed)
#   split share     the difference: --coro-split's own cost
#   LLVM coro       opt -passes='coro-early,cgscc(coro-split),coro-cleanup'
#   LLVM parse      opt -passes=verify (reads and verifies the .ll)
#   LLVM coro share the difference: LLVM's coroutine passes' own cost
#   pipeline/LLVM   coro pipeline / LLVM coro (whole processes; coro's side
#                   also parses the .mlir and lowers it)
#   share/share     split share / LLVM coro share
#   coro passes     the passes' own seconds by their own timer, with
#                   parsing, printing and MLIR's verifier between passes
#                   left out (--mlir-timing --verify-each=false: Total less
#                   Parser and Output)
#   LLVM passes     the same for opt's coroutine passes (-time-passes:
#                   the pass execution report's wall Total less
#                   VerifierPass;
#                   opt runs with -disable-output, here and for LLVM parse)
#   passes/passes   coro passes / LLVM passes (the goal's ratio)
#   obj A, obj B    coro-translate --emit=obj, --route=llvm (A) and
#                   --route=mlir-split (B), at -O0 and -O2, and B/A: the
#                   fastest of REPS runs each (default 3), A and B
#                   alternating, so that a burst of load on a shared
#                   machine does not decide the ratio (--no-obj leaves
#                   them out: at M=10,000 the -O2 ones take most of an
#                   hour)
# With more than one M, "linear" rows give time(M_last)/time(M_first)
# divided by M_last/M_first, for the coro pipeline and for LLVM coro:
# 1.0 is linear, M_last/M_first is quadratic. A benchmark, not a test: it
# prints, it does not judge; the goals are printed after the table. Large M
# take long: the -O2 whole compiles inline every driver into @main, one
# function of M coroutines, which LLVM's -O2 analyses take superlinear
# time on (M=1000 about 30 s; M=10000 much longer).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build=""
ms=()
quick=0
obj=1
for arg in "$@"; do
  case "$arg" in
  --quick) quick=1 ;;
  --no-obj) obj=0 ;;
  -*)
    echo "usage: bench/many.sh [--quick] [--no-obj] [BUILD_DIR] [M...]" >&2
    exit 2
    ;;
  *[!0-9]* | "") build="$arg" ;;
  *) ms+=("$arg") ;;
  esac
done
build="${build:-$here/../build}"
reps="${REPS:-3}"
[ -d "$build" ] && build="$(cd "$build" && pwd)"
if [ "${#ms[@]}" = 0 ]; then
  if [ "$quick" = 1 ]; then ms=(200 2000); else ms=(1000 10000); fi
fi
cc=clang-22; command -v "$cc" >/dev/null || cc=cc
opt=opt-22; command -v "$opt" >/dev/null || opt=opt
translate=mlir-translate-22
command -v "$translate" >/dev/null || translate=mlir-translate
coro_opt="$build/bin/coro-opt"
coro_translate="$build/bin/coro-translate"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

"$cc" -std=c11 -O2 "$here/many-gen.c" -o "$tmp/many-gen"

# timed TAG CMD...: bench/timed.sh
. "$here/timed.sh"

# Every measurement TAG of (M, ABI) keeps its seconds in secs[M/ABI/TAG]
# ("-" when it failed).
declare -A secs
fmt='%6s %-6s | %-18s | %8s %7s | %7s\n'
row() { printf "$fmt" "$@" | sed 's/ *$//'; }
ratio() {
  awk -v a="$1" -v b="$2" \
    'BEGIN {if (a != "-" && b != "-" && a + 0 > 0) printf "%.3f", b / a;
            else print "-"}'
}
diff_secs() {
  awk -v a="$1" -v b="$2" \
    'BEGIN {if (a != "-" && b != "-") printf "%.2f", a - b; else print "-"}'
}
# record M ABI TAG LABEL SECONDS PEAK_KB [ERROR]: keeps the seconds in
# secs[M/ABI/TAG] and prints the row; after an error ("-" seconds) the
# error instead.
record() {
  local m=$1 abi=$2 tag=$3 label=$4 s=$5 kb=$6 err=${7:-}
  secs[$m/$abi/$tag]=$s
  if [ -n "$err" ]; then
    printf '%6s %-6s | %-18s | failed: %s\n' "$m" "$abi" "$label" "$err"
  else
    row "$m" "$abi" "$label" "$s" \
      "$(awk -v k="$kb" 'BEGIN {if (k == "-") print "-"; else printf "%.0f", k / 1024}')" ""
  fi
}
# first_error TAG: the first error line of TAG's stderr, else its last line.
first_error() { grep -m1 -i error "$tmp/$1.err" || tail -n 1 "$tmp/$1.err"; }

# measure M ABI TAG LABEL CMD... - runs CMD under timed and records it.
measure() {
  local m=$1 abi=$2 tag=$3 label=$4 s kb
  shift 4
  if timed "$tag" "$@"; then
    read -r s kb <"$tmp/$tag.time"
    record "$m" "$abi" "$tag" "$label" "$s" "$kb"
  else
    record "$m" "$abi" "$tag" "$label" - - "$(first_error "$tag")"
  fi
}

# best M ABI TAG_A LABEL_A TAG_B LABEL_B CMD...: CMD --route=llvm (A) and
# CMD --route=mlir-split (B), $reps times each, alternating; each is
# recorded with its fastest run (peak MB: the largest), or its error.
best() {
  local m=$1 abi=$2 ta=$3 la=$4 tb=$5 lb=$6 i t s kb route
  shift 6
  local -A min=() peak=() bad=()
  for ((i = 0; i < reps; ++i)); do
    for t in "$ta" "$tb"; do
      [ -z "${bad[$t]:-}" ] || continue
      route=llvm
      [ "$t" = "$tb" ] && route=mlir-split
      if timed "$t" "$@" --route=$route; then
        read -r s kb <"$tmp/$t.time"
        min[$t]=$(awk -v a="${min[$t]:-}" -v b="$s" \
          'BEGIN {print (a == "" || b + 0 < a + 0) ? b : a}')
        peak[$t]=$(awk -v a="${peak[$t]:--}" -v b="$kb" \
          'BEGIN {print (b == "-" || (a != "-" && b + 0 < a + 0)) ? a : b}')
      else
        bad[$t]="$(first_error "$t")"
      fi
    done
  done
  record "$m" "$abi" "$ta" "$la" "${min[$ta]:--}" "${peak[$ta]:--}" "${bad[$ta]:-}"
  record "$m" "$abi" "$tb" "$lb" "${min[$tb]:--}" "${peak[$tb]:--}" "${bad[$tb]:-}"
}

# coro_passes ERR: the seconds of coro's passes by their own timer in the
# --mlir-timing report ERR: Total less Parser and Output.
coro_passes() {
  awk '/Total Execution Time/ {t = $4}
       /^ *[0-9.]+ \( *[0-9.]+%\) +(Parser|Output)$/ {t -= $1}
       END {if (t == "") print "-"; else printf "%.2f", t}' "$1"
}
# llvm_passes ERR: the same for opt's -time-passes report ERR: the pass
# execution report's wall Total less VerifierPass.
llvm_passes() {
  awk '/Pass execution timing report/ {p = 1}
    p && /Total Execution Time/ {t = substr($6, 2)}
    p && / VerifierPass$/ {gsub(/\([^)]*\)/, ""); t -= $4}
    p && / Total$/ {printf "%.2f", t; exit}' "$1"
}
# smaller A B: the smaller of two second counts ("" or "-" for none).
smaller() {
  awk -v a="$1" -v b="$2" 'BEGIN {
    if (a == "" || a == "-") print b; else if (b == "" || b == "-") print a;
    else print (b + 0 < a + 0) ? b : a}'
}
# pair M ABI HAVE_LL: coro's pipeline on $f (tag pipe, its passes cpass)
# and, when HAVE_LL is 1, LLVM's coroutine passes on $tmp/low.ll (tag
# llvm, its passes lpass), $reps times each, alternating; each is recorded
# with its fastest run (peak MB: the largest), so that a burst of load on
# a shared machine does not decide the ratio, or its error.
# keep TAG PASS_TAG PASSES: folds the run just timed as TAG into pair's
# min and peak, and its passes' seconds (PASSES reads them off its stderr)
# into min[PASS_TAG].
keep() {
  local s kb
  read -r s kb <"$tmp/$1.time"
  min[$1]=$(smaller "${min[$1]:-}" "$s")
  peak[$1]=$(awk -v a="${peak[$1]:-0}" -v b="$kb" \
    'BEGIN {print (b == "-" || b + 0 < a + 0) ? a : b}')
  min[$2]=$(smaller "${min[$2]:-}" "$("$3" "$tmp/$1.err")")
}
pair() {
  local m=$1 abi=$2 have_ll=$3 i
  local -A min=() peak=() bad=()
  for ((i = 0; i < reps; ++i)); do
    if [ -z "${bad[pipe]:-}" ]; then
      if timed pipe "$coro_opt" "$f" --coro-lower --coro-split -o /dev/null \
        --mlir-timing --verify-each=false; then
        keep pipe cpass coro_passes
      else
        bad[pipe]="$(first_error pipe)"
      fi
    fi
    if [ "$have_ll" = 1 ] && [ -z "${bad[llvm]:-}" ]; then
      if timed llvm "$opt" -passes='coro-early,cgscc(coro-split),coro-cleanup' \
        "$tmp/low.ll" -disable-output -time-passes; then
        keep llvm lpass llvm_passes
      else
        bad[llvm]="$(first_error llvm)"
      fi
    fi
  done
  record "$m" "$abi" pipe "coro pipeline" "${min[pipe]:--}" \
    "${peak[pipe]:--}" "${bad[pipe]:-}"
  secs[$m/$abi/cpass]=${min[cpass]:--}
  if [ "$have_ll" = 1 ]; then
    record "$m" "$abi" llvm "LLVM coro" "${min[llvm]:--}" \
      "${peak[llvm]:--}" "${bad[llvm]:-}"
    secs[$m/$abi/lpass]=${min[lpass]:--}
  else
    secs[$m/$abi/llvm]=-
    secs[$m/$abi/lpass]=-
  fi
}

echo "many.sh: M small coroutines in one module (bench/many-gen.c), ABI"
echo "switch and mix (i % 4: switch, retcon, retcon.once, async); wall"
echo "seconds and peak MB of whole processes (/usr/bin/time):"
echo "  coro pipeline = coro-opt --coro-lower --coro-split; coro lower ="
echo "  --coro-lower alone; split share = the difference; LLVM coro = opt"
echo "  coro-early,cgscc(coro-split),coro-cleanup on the same lowering;"
echo "  LLVM parse = opt -passes=verify; LLVM coro share = the difference;"
echo "  pipeline/LLVM = coro pipeline / LLVM coro; share/share = split share"
echo "  / LLVM coro share; obj A, B = coro-translate --emit=obj,"
echo "  --route=llvm (A), --route=mlir-split (B); coro pipeline, LLVM coro"
echo "  (and their passes), obj A and obj B: the fastest of $reps runs each"
echo "  (REPS), taking turns"
echo "tools: $coro_opt, $coro_translate, $opt, $translate"
row M ABI measurement seconds "peak MB" ratio
for m in "${ms[@]}"; do
  for abi in switch mix; do
    f="$tmp/many.mlir"
    "$tmp/many-gen" "$m" "$abi" >"$f"
    measure "$m" "$abi" lower "coro lower" \
      "$coro_opt" "$f" --coro-lower -o "$tmp/low.mlir"
    l=${secs[$m/$abi/lower]}
    have_ll=0
    if [ "$l" != - ] &&
      "$translate" --mlir-to-llvmir "$tmp/low.mlir" -o "$tmp/low.ll" \
        2>"$tmp/translate.err"; then
      have_ll=1
    elif [ "$l" != - ]; then
      printf '%6s %-6s | mlir-translate failed: %s\n' "$m" "$abi" \
        "$(head -n 1 "$tmp/translate.err")"
    fi
    pair "$m" "$abi" "$have_ll"
    p=${secs[$m/$abi/pipe]}
    a=${secs[$m/$abi/llvm]}
    cp=${secs[$m/$abi/cpass]}
    lp=${secs[$m/$abi/lpass]}
    row "$m" "$abi" "split share" "$(diff_secs "$p" "$l")" "" ""
    if [ "$have_ll" = 1 ]; then
      measure "$m" "$abi" parse "LLVM parse" \
        "$opt" -passes=verify "$tmp/low.ll" -disable-output
    else
      secs[$m/$abi/parse]=-
    fi
    row "$m" "$abi" "coro passes" "$cp" "" ""
    row "$m" "$abi" "LLVM passes" "$lp" "" ""
    row "$m" "$abi" "passes/passes" "" "" "$(ratio "$lp" "$cp")"
    row "$m" "$abi" "LLVM coro share" \
      "$(diff_secs "$a" "${secs[$m/$abi/parse]}")" "" ""
    row "$m" "$abi" "pipeline/LLVM" "" "" "$(ratio "$a" "$p")"
    row "$m" "$abi" "share/share" "" "" \
      "$(ratio "$(diff_secs "$a" "${secs[$m/$abi/parse]}")" \
        "$(diff_secs "$p" "$l")")"
    for o in 0 2; do
      [ "$obj" = 1 ] || break
      # REPS runs of each route, alternating A and B; the fastest of each
      # (the least disturbed by the machine's other load) is compared
      best "$m" "$abi" "objA$o" "obj A -O$o" "objB$o" "obj B -O$o" \
        "$coro_translate" "$f" --emit=obj "-O$o" -o "$tmp/x.o"
      row "$m" "$abi" "obj B/A -O$o" "" "" \
        "$(ratio "${secs[$m/$abi/objA$o]}" "${secs[$m/$abi/objB$o]}")"
    done
  done
done
if [ "${#ms[@]}" -gt 1 ]; then
  first=${ms[0]}
  last=${ms[${#ms[@]} - 1]}
  for abi in switch mix; do
    for tag in pipe cpass llvm; do
      label="linear coro pipe"
      [ "$tag" = cpass ] && label="linear coro passes"
      [ "$tag" = llvm ] && label="linear LLVM coro"
      row "$last" "$abi" "$label" "" "" "$(awk \
        -v a="${secs[$first/$abi/$tag]}" -v b="${secs[$last/$abi/$tag]}" \
        -v m0="$first" -v m1="$last" \
        'BEGIN {if (a != "-" && b != "-" && a + 0 > 0 && m1 != m0)
                  printf "%.3f", (b / a) / (m1 / m0); else print "-"}')"
    done
  done
  echo "linear: time(M=$last)/time(M=$first) / ($last/$first)"
fi
echo "goals: passes/passes <= 0.5 at M=10000; 10x the coroutines in at"
echo "most 12x the time (linear coro pipe <= 1.2 from M to 10M); obj B/A"
echo "<= 1.0 at -O0 and -O2"
