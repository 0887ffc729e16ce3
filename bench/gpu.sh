#!/usr/bin/env bash
# bench/gpu.sh [BUILD_DIR] - what ptxas makes of coro's device coroutines
# against the same program as a CUDA C++20 coroutine compiled by clang.
#
# coro: test/GPU/generator-kernel.mlir (thread t runs the generator
# range(t) and stores 10 * (sum of its values + final result) + count)
# through `coro-translate --emit=ptx --mcpu=sm_90` at -O0 and -O2. clang:
# bench/gpu_generator.cu, the same kernel as a C++20 coroutine whose
# promise's operator new takes the frame from a __device__ buffer (no
# device malloc), plus sm_kernel, a hand-written state machine, through
# `clang++-22 -x cuda --cuda-gpu-arch=sm_90 --cuda-device-only -S` at -O0
# and -O2. Every PTX goes through `ptxas -arch=sm_90 -v` (ptxas at its own
# default, -O3). Per kernel: registers; the entry's stack frame and spill
# bytes; the cumulative stack (entry and callees, ptxas prints it only
# when the kernel calls functions, else the entry's frame is shown); the
# spill bytes (stores + loads) of the functions it calls; lmem when ptxas
# reports it; and, for the whole PTX module, whether it names malloc or
# free, how many indirect calls (.callprototype) and global bytes (gmem)
# it has.
# Ratios are coro's kernel over clang's coroutine kernel and over the state
# machine ("-": the denominator is 0). The issue's goal: coro/clang <= 1.0
# for registers and stack, and zero malloc. Static only: nothing runs on a
# GPU. A benchmark, not a test: it prints, it does not judge.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../build}"
cuda="${CUDA_PATH:-/usr/local/cuda}"
ptxas="$cuda/bin/ptxas"
[ -x "$ptxas" ] || ptxas="$(command -v ptxas || true)"
cxx=clang++-22
translate="$build/bin/coro-translate"
if [ -z "$ptxas" ]; then
  echo "skipped: no ptxas (looked in $cuda/bin and PATH)"
  exit 0
fi
if ! command -v "$cxx" >/dev/null; then
  echo "skipped: no $cxx"
  exit 0
fi
if [ ! -x "$translate" ]; then
  echo "skipped: no $translate (build first)"
  exit 0
fi
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# stats PTX - ptxas -v on PTX; one line per entry:
# ENTRY REGS STACK CUMSTACK SPILL_ST SPILL_LD CALLEE_SPILL LMEM
# and one "=module GMEM" line.
stats() {
  "$ptxas" -arch=sm_90 -v "$1" -o "$tmp/out.cubin" 2>&1 | awk '
    /bytes gmem/ { for (i = 1; i < NF; i++) if ($(i + 1) == "bytes" && $(i + 2) == "gmem") gmem += $i }
    /Compiling entry function/ {
      cur = $0; sub(/.*function \047/, "", cur); sub(/\047.*/, "", cur)
      order[++n] = cur; cspill[cur] = 0; lmem[cur] = "-"; cum[cur] = ""
    }
    /Function properties for/ { fn = $0; sub(/.*properties for /, "", fn); want = 1; next }
    want && /bytes stack frame/ {
      want = 0
      if (fn == cur) { stack[cur] = $1; st[cur] = $5; ld[cur] = $9 }
      else if (cur != "") cspill[cur] += $5 + $9
    }
    /Used [0-9]+ registers/ {
      for (i = 1; i <= NF; i++) {
        if ($i == "Used") regs[cur] = $(i + 1)
        if ($(i + 1) == "bytes" && $(i + 2) == "cumulative") cum[cur] = $i
        if ($(i + 1) == "bytes" && $(i + 2) ~ /^lmem/) lmem[cur] = $i
      }
    }
    END {
      for (i = 1; i <= n; i++) {
        e = order[i]
        c = (cum[e] == "") ? stack[e] : cum[e]
        print e, regs[e], stack[e], c, st[e], ld[e], cspill[e], lmem[e]
      }
      print "=module", gmem + 0
    }'
}

cufile="$here/gpu_generator.cu"
mlir="$here/../test/GPU/generator-kernel.mlir"
: >"$tmp/rows"
: >"$tmp/mods"
for O in 0 2; do
  "$translate" "$mlir" --emit=ptx -O$O --mcpu=sm_90 -o "$tmp/coro$O.ptx"
  "$translate" "$here/gpu-generator.mlir" --emit=ptx -O$O --mcpu=sm_90 \
    -o "$tmp/corob$O.ptx"
  "$cxx" -x cuda --cuda-gpu-arch=sm_90 --cuda-path="$cuda" \
    -Wno-unknown-cuda-version -std=c++20 -O$O --cuda-device-only -S \
    -o "$tmp/clang$O.ptx" "$cufile"
  for side in coro corob clang; do
    p="$tmp/$side$O.ptx"
    malloc=no
    grep -E '\b(malloc|free)\b' "$p" >/dev/null && malloc=yes
    ind=$(grep -c 'callprototype' "$p" || true)
    stats "$p" >"$tmp/s"
    gmem=$(awk '$1 == "=module" {print $2}' "$tmp/s")
    echo "${side/corob/coro-bench} -O$O $malloc $ind $gmem" >>"$tmp/mods"
    awk -v s="${side%b}" -v o="-O$O" -v m="$malloc" '$1 != "=module" {
      print s, $1, o, $2, $3, $4, $5, $6, $7, $8, m }' "$tmp/s" >>"$tmp/rows"
  done
done

row() { printf '%-6s %-17s %-4s %5s %6s %6s %9s %9s %12s %5s %7s\n' "$@"; }
row side kernel opt regs stack cumstk spill_st spill_ld callee_spill lmem malloc
sort -k3,3 -k1,1r -k2,2 "$tmp/rows" | while read -r s k o r st c sp sl cs lm m; do
  row "$s" "$k" "$o" "$r" "$st" "$c" "$sp" "$sl" "$cs" "$lm" "$m"
done
echo
printf '%-10s %-4s %-13s %-15s %s\n' module opt malloc/free indirect_calls gmem_bytes
while read -r s o m ind g; do
  printf '%-10s %-4s %-13s %-15s %s\n' "$s" "$o" "$m" "$ind" "$g"
done <"$tmp/mods"
echo
# ratio A B - A/B with two decimals, "-" when B is 0.
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b == 0) print "-"; else printf "%.2f", a / b }'; }
printf '%-4s %-44s %6s %6s %7s\n' opt ratio regs stack cumstk
for O in 0 2; do
  # each coro kernel against the same program in clang: generator-kernel.mlir
  # against gpu_generator.cu's kernel and sm_kernel, gpu-generator.mlir's
  # bench_kernel against bench_coro_kernel and bench_sm_kernel
  for pair in "kernel kernel" "kernel sm_kernel" "bench_kernel bench_coro_kernel" \
    "bench_kernel bench_sm_kernel"; do
    set -- $pair
    read -r _ _ _ cr cs cc _ < <(awk -v o="-O$O" -v k="$1" '$1 == "coro" && $2 == k && $3 == o' "$tmp/rows")
    read -r _ _ _ pr ps pc _ < <(awk -v o="-O$O" -v k="$2" '$1 == "clang" && $2 == k && $3 == o' "$tmp/rows")
    printf '%-4s %-44s %6s %6s %7s\n' "-O$O" "coro $1/clang $2" \
      "$(ratio "$cr" "$pr")" "$(ratio "$cs" "$ps")" "$(ratio "$cc" "$pc")"
  done
done

# Run time, where a GPU is at hand: every thread of 1,024 blocks of 256
# folds the 4,096 values of a generator (a count read from memory) (bench/gpu-generator.mlir against
# bench_coro_kernel and bench_sm_kernel of gpu_generator.cu, all -O2), the
# best of 5 launches, as resumed values per second. With PTX_OUT=DIR set,
# the three PTX files are also copied there (to run elsewhere with
# coro-gpu-run --time=5).
"$translate" "$here/gpu-generator.mlir" --emit=ptx -O2 --mcpu=sm_90 \
  -o "$tmp/bench-coro.ptx"
if [ -n "${PTX_OUT:-}" ]; then
  mkdir -p "$PTX_OUT"
  cp "$tmp/bench-coro.ptx" "$tmp/clang2.ptx" "$PTX_OUT/"
fi
echo
if ! "$build/bin/coro-gpu-run" --probe 2>/dev/null; then
  echo "run time: skipped (no GPU or CUDA driver here)"
  exit 0
fi
values=$((1024 * 256 * 4096))
best_ms() { # PTX KERNEL -> ms
  "$build/bin/coro-gpu-run" "$1" --kernel="$2" --grid=1024 --block=256 \
    --time=5 2>&1 >/dev/null | sed -n "s/.*: \([0-9.]*\) ms per launch.*/\1/p"
}
coro=$(best_ms "$tmp/bench-coro.ptx" bench_kernel)
cxx_ms=$(best_ms "$tmp/clang2.ptx" bench_coro_kernel)
sm=$(best_ms "$tmp/clang2.ptx" bench_sm_kernel)
printf '%-22s %10s %14s\n' kernel ms "values/s"
for row in "coro $coro" "clang-coroutine $cxx_ms" "clang-state-machine $sm"; do
  set -- $row
  printf '%-22s %10s %14s\n' "$1" "$2" \
    "$(awk -v v="$values" -v t="$2" 'BEGIN { printf "%.3g", v / (t / 1e3) }')"
done
printf 'coro/state machine %s, coro/clang coroutine %s (time)\n' \
  "$(ratio "$coro" "$sm")" "$(ratio "$coro" "$cxx_ms")"
