#!/usr/bin/env bash
# bench/async-scale.sh - how coro's async pool scales past two cores, on a
# machine that has many but no LLVM 22 (a lent device machine, say).
#
#   bench/async-scale.sh build [BUILD_DIR] DIR
#       here, with LLVM 22: compiles bench/async/coro.mlir and
#       coro-pool-fib.mlir at -O2 with BUILD_DIR's coro-translate and links
#       them with bench/async/coro-main.c and runtime/runtime.c into one
#       static binary, DIR/coro-main (nothing to install where it runs)
#   bench/async-scale.sh run DIR [N [FIB_N [MAX_WORKERS]]]
#       there: bench/async.sh's two programs, fan-out of N tasks (default
#       1,000,000) and fib(FIB_N) (default 27, every call a task), in place
#       on one thread and on coro_rt_pool with 1, 2, 4, ... workers up to
#       MAX_WORKERS (default: the CPUs there, at most 16), each row pinned
#       with taskset to as many CPUs as it has workers; ns per task (best of
#       three runs in one process), peak resident MB, and the speedup over
#       the pool's 1-worker row. Rows must agree on the result.
#
# MLIR's async runtime is not measured here: it links libLLVM, which such a
# machine lacks; bench/async.sh compares the two at 1 and 2 workers.
# A benchmark, not a test: it prints, it does not judge.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
mode="${1:-}"
case "$mode" in
build)
  if [ $# -ge 3 ]; then build="$2" dir="$3"; else build="$here/../build" dir="${2:?DIR}"; fi
  cc=clang-22; command -v "$cc" >/dev/null || cc=clang
  mkdir -p "$dir"
  ct="$build/bin/coro-translate"
  "$ct" "$here/async/coro.mlir" --emit=obj -O2 -o "$dir/coro.o"
  "$ct" "$here/async/coro-pool-fib.mlir" --emit=obj -O2 -o "$dir/pool-fib.o"
  "$cc" -std=c11 -O2 -static "$here/async/coro-main.c" \
    "$here/../runtime/runtime.c" "$dir/coro.o" "$dir/pool-fib.o" \
    -I"$here/../runtime/include" -pthread -o "$dir/coro-main"
  rm -f "$dir/coro.o" "$dir/pool-fib.o"
  echo "async-scale.sh: built $dir/coro-main"
  ;;
run)
  dir="${2:?DIR}"
  n="${3:-1000000}"
  fib_n="${4:-27}"
  cpus=$(nproc)
  max="${5:-$((cpus < 16 ? cpus : 16))}"
  bin="$dir/coro-main"
  echo "async-scale.sh: coro's async pool, $cpus CPUs ($(uname -m))," \
    "workers up to $max; fan-out: $n tasks; fib($fib_n): every call a task"
  echo "best of 3 runs in one process; each row pinned with taskset to as" \
    "many CPUs as it has workers (in place: CPU 0)"
  printf '%-8s | %-8s | %7s | %10s | %8s | %8s | %s\n' bench run workers \
    result ns/task "peak MB" "speedup over 1 worker"
  for bench in fanout fib; do
    arg=$n
    [ "$bench" = fib ] && arg=$fib_n
    first="" base=""
    for w in in-place 1 2 4 8 16 32 64; do
      if [ "$w" = in-place ]; then
        workers=0 set=0 label="in place" shown=1
      else
        [ "$w" -le "$max" ] || break
        workers=$w set="0-$((w - 1))" label=pool shown=$w
      fi
      line=$(taskset -c "$set" "$bin" "$bench" "$arg" "$workers")
      read -r _ r _ _ _ s _ pk _ _ _ _ <<<"$line"
      if [ -z "$first" ]; then
        first=$r
      elif [ "$r" != "$first" ]; then
        echo "async-scale.sh: error: $bench $label $shown gives $r," \
          "in place $first" >&2
        exit 1
      fi
      speedup=-
      if [ "$w" = 1 ]; then
        base=$s
      elif [ -n "$base" ]; then
        speedup=$(awk -v a="$base" -v b="$s" 'BEGIN {printf "%.2f", a / b}')
      fi
      [ "$w" = 1 ] && speedup=1.00
      printf '%-8s | %-8s | %7s | %10s | %8s | %8s | %s\n' "$bench" \
        "$label" "$shown" "$r" "$s" \
        "$(awk -v k="$pk" 'BEGIN {printf "%.1f", k / 1024}')" "$speedup"
    done
  done
  ;;
*)
  echo "usage: async-scale.sh build [BUILD_DIR] DIR" >&2
  echo "       async-scale.sh run DIR [N [FIB_N [MAX_WORKERS]]]" >&2
  exit 2
  ;;
esac
