#!/usr/bin/env bash
# bench/async.sh [BUILD_DIR] [N [FIB_N]] - coro's async tasks against MLIR's
# async dialect and its runtime, libmlir_async_runtime, on the same two
# programs, compiled ahead of time at -O2 (compile time is not measured):
#   fan-out   N independent tasks (default 1,000,000), task i stores i % 7
#             in slot i of a buffer; the slots are summed once all tasks
#             have ended (a group says when)
#   fib       fib(FIB_N) (default 27), every call a task; a call with
#             n >= 2 spawns two child tasks and awaits both, a leaf gives n
# bench/async/: coro.mlir and coro-pool-fib.mlir (coro's side, through
# BUILD_DIR's coro-translate, driven by coro-main.c), mlir.mlir (MLIR's
# side, through mlir-opt's async passes, driven by mlir-main.c), driver.h
# (the timing both drivers share). Each process runs its work three times
# and prints the best run's ns per task (the clock around the work alone;
# tasks: N for fan-out, the tree's calls for fib) and its peak resident
# set (getrusage), and "growth", that peak less the peak before the work
# (MLIR's side maps libLLVM, which the runtime links). coro's rows run
# REPS processes each (default 5), in rounds (in place, pool on 1 worker,
# pool on 2), and keep the best ns and the largest peak: on a shared
# machine a row's time moves by half between processes, and a speedup of
# two single processes says more about the machine than the pool. The
# speedup of every round is printed too. MLIR's rows, far from the goals
# and seconds each, run once.
# Rows at 1 and 2 workers; MLIR's runtime has no worker setting (its
# thread pool takes every CPU the process may use), so every row, coro's
# too, runs under taskset -c 0 (1 worker) or taskset -c 0,1 (2 workers).
# coro's rows: "in place", the calling thread resumes each task (fan-out:
# it ends, and is destroyed) or the root, whose awaits drive the tree
# (fib); "pool", coro_rt_pool with that many workers (fan-out: each task
# grouped, submitted and detached, so the runtime releases it as it ends,
# as MLIR's runtime frees a task's frame). The results of every row must
# agree; the script fails when they do not. A benchmark, not a test:
# the goals are printed with the ratios, not judged.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="${1:-$here/../build}"
[ -d "$build" ] && build="$(cd "$build" && pwd)"
n="${2:-1000000}"
fib_n="${3:-27}"
reps="${REPS:-5}"
cc=clang-22; command -v "$cc" >/dev/null || cc=clang
mlir_opt=mlir-opt-22; command -v "$mlir_opt" >/dev/null || mlir_opt=mlir-opt
translate=mlir-translate-22
command -v "$translate" >/dev/null || translate=mlir-translate
mlir_lib="${MLIR_LIB:-/usr/lib/llvm-22/lib}"
rt="$build/runtime"
for tool in taskset "$cc" "$mlir_opt" "$translate"; do
  command -v "$tool" >/dev/null || {
    echo "async.sh: needs $tool" >&2
    exit 1
  }
done
[ "$(nproc)" -ge 2 ] || {
  echo "async.sh: needs 2 CPUs (taskset -c 0,1), has $(nproc)" >&2
  exit 1
}
# The headers of the sources BUILD_DIR was configured from.
src="$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' \
  "$build/CMakeCache.txt" 2>/dev/null || true)"
[ -d "$src/runtime/include" ] || src="$here/.."
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

# coro's side.
ct="$build/bin/coro-translate"
"$ct" "$here/async/coro.mlir" --emit=obj -O2 -o "$tmp/coro.o"
"$ct" "$here/async/coro-pool-fib.mlir" --emit=obj -O2 -o "$tmp/pool-fib.o"
"$cc" -std=c11 -O2 "$here/async/coro-main.c" "$tmp/coro.o" "$tmp/pool-fib.o" \
  -I"$src/runtime/include" -L"$rt" -lCoroRuntime -Wl,-rpath,"$rt" \
  -pthread -o "$tmp/coro-main"
# MLIR's side: the async passes in the order MLIR's async integration tests
# run them, then the rest of the way to the LLVM dialect.
"$mlir_opt" "$here/async/mlir.mlir" --async-to-async-runtime \
  --async-runtime-ref-counting --async-runtime-ref-counting-opt \
  --convert-async-to-llvm --convert-scf-to-cf --convert-arith-to-llvm \
  --convert-func-to-llvm --finalize-memref-to-llvm --convert-cf-to-llvm \
  --reconcile-unrealized-casts -o "$tmp/mlir-llvm.mlir"
"$translate" --mlir-to-llvmir "$tmp/mlir-llvm.mlir" -o "$tmp/mlir.ll"
"$cc" -O2 -Wno-override-module -c "$tmp/mlir.ll" -o "$tmp/mlir.o"
"$cc" -std=c11 -O2 "$here/async/mlir-main.c" "$tmp/mlir.o" -L"$mlir_lib" \
  -lmlir_async_runtime -Wl,-rpath,"$mlir_lib" -o "$tmp/mlir-main"

# Every row KEY (BENCH/RUN/WORKERS) keeps its ns per task, peak KiB and
# growth KiB; result[BENCH] is the first row's result.
declare -A ns peak grow result
declare -A name=([fanout]="fan-out" [fib]="fib($fib_n)")
fmt='%-8s | %-13s | %-7s | %8s | %8s | %8s | %7s | %9s\n'
row() { printf "$fmt" "$@" | sed 's/ *$//'; }
mb() { awk -v k="$1" 'BEGIN {printf "%.1f", k / 1024}'; }
# run_row BENCH RUN WORKERS CMD... - runs CMD pinned to WORKERS CPUs once
# and keeps, for the row BENCH/RUN/WORKERS, the fastest ns per task and
# the largest peak and growth seen so far (and this round's ns in
# last[KEY]); fails on an error or a disagreeing result.
declare -A last tasks_of
run_row() {
  local bench=$1 run=$2 w=$3 cpus=0 line r t s pk bk wk
  shift 3
  [ "$w" = 2 ] && cpus=0,1
  if ! line=$(taskset -c "$cpus" "$@" 2>"$tmp/err"); then
    echo "async.sh: error: $bench $run $w: $(tail -n 1 "$tmp/err")" >&2
    exit 1
  fi
  read -r _ r _ t _ s _ pk _ bk _ wk <<<"$line"
  local key=$bench/$run/$w
  last[$key]=$s
  tasks_of[$bench]=$t
  if [ -z "${ns[$key]:-}" ] || awk -v a="$s" -v b="${ns[$key]}" \
    'BEGIN {exit !(a < b)}'; then
    ns[$key]=$s
  fi
  [ -n "${peak[$key]:-}" ] && [ "${peak[$key]}" -ge "$pk" ] ||
    peak[$key]=$pk
  [ -n "${grow[$key]:-}" ] && [ "${grow[$key]}" -ge $((pk - bk)) ] ||
    grow[$key]=$((pk - bk))
  [ "$run" != MLIR ] || [ "$wk" = "$w" ] ||
    echo "note: MLIR's runtime reports $wk workers under taskset -c $cpus"
  if [ -z "${result[$bench]:-}" ]; then
    result[$bench]=$r
  elif [ "$r" != "${result[$bench]}" ]; then
    echo "async.sh: error: $bench: $run at $w gives $r, the first row" \
      "${result[$bench]}: coro and MLIR disagree" >&2
    exit 1
  fi
}
# print_row BENCH RUN WORKERS - the row as kept.
print_row() {
  local key=$1/$2/$3
  row "${name[$1]}" "$2" "$3" "${result[$1]}" "${tasks_of[$1]}" \
    "${ns[$key]}" "$(mb "${peak[$key]}")" "$(mb "${grow[$key]}")"
}
echo "async.sh: coro async tasks against MLIR's async dialect"
echo "(libmlir_async_runtime), AOT -O2; ns per task: the best of 3 runs in"
echo "one process, and for coro's rows the best of $reps such processes, its"
echo "rows taking turns; peak resident MB of the process (the largest seen),"
echo "growth = peak less the peak before the work; workers set by taskset -c"
echo "0 (1) or 0,1 (2) for every row (MLIR's runtime sizes its pool by the"
echo "CPUs it may use)"
echo "tools: $ct, $mlir_opt, $mlir_lib/libmlir_async_runtime.so"
echo "fan-out: $n tasks; fib($fib_n): every call a task"
# Per bench, the 2-worker/1-worker speedup of each round of coro's pool
# rows (the two processes run one after the other).
declare -A round_speedups
for bench in fanout fib; do
  arg=$n
  [ "$bench" = fib ] && arg=$fib_n
  for ((i = 0; i < reps; ++i)); do
    run_row "$bench" "coro in place" 1 "$tmp/coro-main" "$bench" "$arg" 0
    for w in 1 2; do
      run_row "$bench" "coro pool" "$w" "$tmp/coro-main" "$bench" "$arg" "$w"
    done
    round_speedups[$bench]+=" $(awk -v a="${last[$bench/coro pool/1]}" \
      -v b="${last[$bench/coro pool/2]}" 'BEGIN {printf "%.2f", a / b}')"
  done
  for w in 1 2; do
    run_row "$bench" MLIR "$w" "$tmp/mlir-main" "$bench" "$arg"
  done
done
row bench run workers result tasks ns/task "peak MB" "growth MB"
for bench in fanout fib; do
  print_row "$bench" "coro in place" 1
  for w in 1 2; do
    print_row "$bench" "coro pool" "$w"
    print_row "$bench" MLIR "$w"
  done
done

# ratio A B - A / B, "-" when either is missing.
ratio() {
  awk -v a="$1" -v b="$2" \
    'BEGIN {if (a != "-" && b != "-" && b + 0 > 0) printf "%.2f", a / b;
            else print "-"}'
}
for bench in fanout fib; do
  for w in 1 2; do
    label="$w workers"
    [ "$w" = 1 ] && label="1 worker"
    c=${ns[$bench/coro pool/$w]}
    echo "${name[$bench]} $label: coro/MLIR ns per task" \
      "$(ratio "$c" "${ns[$bench/MLIR/$w]}") (goal <= 0.2)"
  done
  cs=$(ratio "${ns[$bench/coro pool/1]}" "${ns[$bench/coro pool/2]}")
  [ "$bench" = fib ] && cs="$cs (goal >= 1.7)"
  echo "${name[$bench]} 2 workers / 1 worker speedup: coro $cs, MLIR" \
    "$(ratio "${ns[$bench/MLIR/1]}" "${ns[$bench/MLIR/2]}")"
  echo "${name[$bench]} coro's speedup in each round (1 worker, then 2," \
    "one after the other): sorted$(tr ' ' '\n' <<<"${round_speedups[$bench]}" |
      sort -n | tr '\n' ' ' | sed 's/ *$//; s/^ */ /')"
  for w in 1 2; do
    label="$w workers"
    [ "$w" = 1 ] && label="1 worker"
    k=$bench/coro\ pool/$w
    echo "peak memory coro/MLIR ${name[$bench]} $label:" \
      "$(ratio "${peak[$k]}" "${peak[$bench/MLIR/$w]}"), growth" \
      "$(ratio "${grow[$k]}" "${grow[$bench/MLIR/$w]}") (goal <= 1)"
  done
done
echo "results agree: fan-out ${result[fanout]}, fib($fib_n) ${result[fib]}"
