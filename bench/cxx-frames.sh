#!/usr/bin/env bash
# bench/cxx-frames.sh [--noexcept] [-j N] [BUILD_DIR] - frame bytes of
# route B (coro's own split) against LLVM's CoroSplit on every C++20
# coroutine of the C++ suite (test/CXX/programs/*.cpp), at -O0 and -O2.
#
# LLVM: `clang++-22 -std=c++20 -O<n> -c -Rpass=coro-split`, clang's own
# build of the source, whose CoroSplit remark says "Split 'NAME'
# (frame_size=N, align=M)". Route B: the same source unsplit, as
# test/CXX/run.sh builds it (`clang++-22 -std=c++20 -O<n> -Xclang
# -disable-llvm-passes -emit-llvm -c`), then `coro-translate --route=mlir-split
# -O<n> --emit=obj --remarks-filter=coro-split` (at -O2 LLVM's pre-split
# simplification runs before coro's split), whose remark has the same form.
# Coroutines are matched by mangled name within a program and printed
# demangled; one seen on one side only (say, dropped by LLVM at -O2) prints
# "-" and is left out of the geometric mean, with a count. The goal is
# B/LLVM <= 1.0 on every coroutine. A benchmark, not a test: it prints, it
# does not judge.
#   --noexcept  build both sides with -fno-exceptions and skip the eh_*
#               programs (they throw; run.sh skips them the same way)
#   -j N        programs built at once (default: the number of CPUs)
# Environment: CXX (default clang++-22, else clang++).
set -euo pipefail
export LC_ALL=C
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
progdir="$here/../test/CXX/programs"

# NAME SIZE pairs from remarks "Split 'NAME' (frame_size=SIZE, ...".
sizes() { sed -n "s/.*Split '\([^']*\)' (frame_size=\([0-9]*\).*/\1 \2/p"; }

# A worker (run by xargs below): --one PROGRAM LEVEL writes
# $tmp/PROGRAM.LEVEL/{llvm,b} (NAME SIZE, sorted) and `fail` (one line a
# failed step; the remarks printed before the failure are kept).
if [[ ${1:-} == --one ]]; then
  prog=$2 lvl=$3
  d="$tmp/$prog.$lvl"
  mkdir -p "$d"
  src="$progdir/$prog.cpp"
  flags=(-std=c++20 "-$lvl")
  [[ $NOEXCEPT == 1 ]] && flags+=(-fno-exceptions)
  firsterr() { grep -m1 -v -E '^[[:space:]]|^$|(warning|note|remark): ' "$1" |
    sed -E 's/^[^ :]+:[0-9]+:([0-9]+:)? //; s/^error: //' | cut -c1-120; }
  if ! timeout -k 5 300 "$CXX" "${flags[@]}" -c -Rpass=coro-split "$src" \
    -o "$d/llvm.o" 2>"$d/llvm.err"; then
    echo "clang++ -$lvl: $(firsterr "$d/llvm.err")" >>"$d/fail"
  fi
  sizes <"$d/llvm.err" | sort >"$d/llvm"
  if ! timeout -k 5 300 "$CXX" "${flags[@]}" -Xclang -disable-llvm-passes \
    -emit-llvm -c "$src" -o "$d/x.bc" 2>"$d/bc.err"; then
    echo "emit-bc -$lvl: $(firsterr "$d/bc.err")" >>"$d/fail"
    : >"$d/b"
    exit 0
  fi
  rc=0
  timeout -k 5 300 "$BIN/coro-translate" "$d/x.bc" --route=mlir-split \
    "-$lvl" --emit=obj --remarks-filter=coro-split -o "$d/x.o" \
    2>"$d/b.err" || rc=$?
  if ((rc != 0)); then
    msg="exit status $rc"
    ((rc == 124)) && msg="timed out"
    e="$(firsterr "$d/b.err")"
    [[ -n $e ]] && msg+=": $e"
    echo "coro-translate -$lvl: $msg" >>"$d/fail"
  fi
  sizes <"$d/b.err" | sort >"$d/b"
  exit 0
fi

NOEXCEPT=0
JOBS="$(nproc 2>/dev/null || echo 2)"
while (($#)); do
  case $1 in
  --noexcept) NOEXCEPT=1 ;;
  -j) JOBS=$2; shift ;;
  -j*) JOBS=${1#-j} ;;
  -h | --help) sed -n '2,21p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//'; exit 0 ;;
  -*) echo "cxx-frames.sh: unknown option $1" >&2; exit 2 ;;
  *) break ;;
  esac
  shift
done
build="${1:-$here/../build}"
BIN="$(cd "$build" && pwd)/bin"
CXX="${CXX:-clang++-22}"
command -v "$CXX" >/dev/null || CXX=clang++
filt=llvm-cxxfilt-22
command -v "$filt" >/dev/null || filt=llvm-cxxfilt
command -v "$filt" >/dev/null || filt=c++filt
command -v "$filt" >/dev/null || filt="cat"
for t in "$CXX" "$BIN/coro-translate"; do
  command -v "$t" >/dev/null || { echo "cxx-frames.sh: $t not found" >&2; exit 2; }
done
tmp="$(mktemp -d "${TMPDIR:-/tmp}/cxx-frames.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT
export tmp BIN CXX NOEXCEPT progdir

progs=()
for f in "$progdir"/*.cpp; do
  p="$(basename "$f" .cpp)"
  [[ $NOEXCEPT == 1 && $p == eh_* ]] && continue
  progs+=("$p")
done
for p in "${progs[@]}"; do printf '%s O0\n%s O2\n' "$p" "$p"; done |
  xargs -P "$JOBS" -n 2 bash "${BASH_SOURCE[0]}" --one

mode="exceptions on"
[[ $NOEXCEPT == 1 ]] && mode="-fno-exceptions, eh_* skipped"
echo "frame bytes of the C++ suite's coroutines ($mode, ${#progs[@]} programs):"
echo "LLVM = $CXX -std=c++20 -O<n> -Rpass=coro-split; B = coro-translate --route=mlir-split -O<n>"
echo "on $CXX -O<n> -Xclang -disable-llvm-passes; goal: B/LLVM <= 1.0 on every coroutine"
echo
printf '%-22s %-40s %5s %5s %6s  %5s %5s %6s\n' program coroutine L0 B0 B0/L0 L2 B2 B2/L2
# rows: PROGRAM NAME L0 B0 R0 L2 B2 R2 ("-" where missing)
: >"$tmp/rows"
for p in "${progs[@]}"; do
  for l in O0 O2; do
    join -a1 -a2 -e - -o 0,1.2,2.2 "$tmp/$p.$l/llvm" "$tmp/$p.$l/b" \
      >"$tmp/$p.$l.j" || true
  done
  join -a1 -a2 -e - -o 0,1.2,1.3,2.2,2.3 "$tmp/$p.O0.j" "$tmp/$p.O2.j" |
    awk -v p="$p" 'function r(a, b) { return (a == "-" || b == "-" || a == 0) ? "-" : sprintf("%.2f", b / a) }
      { print p, $1, $2, $3, r($2, $3), $4, $5, r($4, $5) }' >>"$tmp/rows"
done
while read -r p name l0 b0 r0 l2 b2 r2; do
  dn="$(printf '%s\n' "$name" | "$filt")"
  ((${#dn} > 40)) && dn="${dn:0:37}..."
  printf '%-22s %-40s %5s %5s %6s  %5s %5s %6s\n' "$p" "$dn" "$l0" "$b0" "$r0" "$l2" "$b2" "$r2"
done <"$tmp/rows"
echo
for l in 0 2; do
  awk -v l="$l" -v filt="$filt" '
    { L = (l == 0) ? $3 : $6; B = (l == 0) ? $4 : $7; R = (l == 0) ? $5 : $8 }
    L == "-" && B == "-" { next }
    L == "-" { onlyb++; next }
    B == "-" { onlyl++; next }
    { n++; s += log(R); if (R + 0 > w + 0 || n == 1) { w = R; wn = $1 " " $2 }
      if (R + 0 > 1) over++; if (R + 0 < 1) under++ }
    END {
      printf "-O%s: %d matched, geomean B/LLVM %s, worst %s", l, n,
        n ? sprintf("%.3f", exp(s / n)) : "-", n ? w : "-"
      if (n) { split(wn, a, " "); cmd = "echo " a[2] " | " filt; cmd | getline dn; close(cmd)
        if (length(dn) > 40) dn = substr(dn, 1, 37) "..."
        printf " (%s %s)", a[1], dn }
      printf "; %d above 1.0, %d below; LLVM only %d, B only %d\n",
        over, under, onlyl, onlyb }' "$tmp/rows"
done
fails=0
for p in "${progs[@]}"; do
  for l in O0 O2; do
    [[ -s $tmp/$p.$l/fail ]] || continue
    ((fails == 0)) && echo "failed steps (remarks printed before the failure are kept):"
    fails=$((fails + 1))
    sed "s/^/  $p: /" "$tmp/$p.$l/fail"
  done
done
((fails == 0)) && echo "no step failed"
exit 0
