#!/usr/bin/env bash
# device-bundle.sh - runs test/GPU's kernel tests (*-run.test) on a machine
# that has a GPU but no LLVM 22 (a lent device machine), in three steps:
#
#   device-bundle.sh make BUILD_DIR DIR
#       here: runs each test's coro-translate RUN lines (the PTX), and
#       writes DIR/run.sh with its coro-gpu-run lines, their FileCheck
#       parts left out, and BUILD_DIR's coro-gpu-run (it needs libc alone)
#   DIR/run.sh OUT_DIR
#       there: runs every kernel, each one's stdout and stderr to
#       OUT_DIR/NAME.K.out and its exit status to OUT_DIR/NAME.K.rc
#   device-bundle.sh check DIR OUT_DIR
#       here: each output through the FileCheck of its RUN line, each
#       status against the line's `not`; prints "N passed, N failed" and
#       fails when one did, or when a kernel was skipped there (77: no GPU)
#
# The RUN lines are read from the tests, so a new *-run.test joins with no
# change here, as long as its lines have the two shapes the tests use:
# `coro-translate ...` and `[not] coro-gpu-run ... | FileCheck ...`.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)" # test/GPU
mode="${1:-}"

# lines TEST - the RUN lines of TEST, one per line, without "// RUN: ".
lines() { sed -n 's|^// RUN: ||p' "$1"; }

case "$mode" in
make)
  build="$(cd "${2:?BUILD_DIR}" && pwd)"
  dir="${3:?DIR}"
  rm -rf "$dir"
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)"
  cp "$build/bin/coro-gpu-run" "$dir/"
  {
    echo '#!/usr/bin/env bash'
    echo '# Made by test/GPU/Inputs/device-bundle.sh make; run: run.sh OUT_DIR'
    echo 'set -u'
    echo 'out="$(mkdir -p "$1" && cd "$1" && pwd)"'
    echo 'cd "$(dirname "$0")"'
  } >"$dir/run.sh"
  : >"$dir/checks"
  for test in "$here"/*-run.test; do
    name=$(basename "$test" .test)
    k=0
    while IFS= read -r line; do
      line=${line//%S/$here}
      line=${line//%t/$name}
      case "$line" in
      coro-translate*)
        (cd "$dir" && eval "$build/bin/${line}")
        ;;
      *coro-gpu-run*)
        k=$((k + 1))
        neg=0
        case "$line" in not\ *) neg=1 line=${line#not } ;; esac
        cmd=${line%%|*}
        filecheck=${line#*| FileCheck }
        cmd=${cmd%2>&1 }
        cmd=${cmd% }
        echo "./$cmd >\"\$out/$name.$k.out\" 2>&1; echo \$? >\"\$out/$name.$k.rc\"" \
          >>"$dir/run.sh"
        echo "$name $k $neg $filecheck" >>"$dir/checks"
        ;;
      *)
        echo "device-bundle.sh: $test: a RUN line of neither shape: $line" >&2
        exit 1
        ;;
      esac
    done < <(lines "$test")
  done
  chmod +x "$dir/run.sh"
  echo "device-bundle.sh: $(wc -l <"$dir/checks") kernel runs in $dir"
  ;;
check)
  dir="${2:?DIR}"
  out="${3:?OUT_DIR}"
  filecheck=FileCheck-22
  command -v "$filecheck" >/dev/null || filecheck=/usr/lib/llvm-22/bin/FileCheck
  pass=0 fail=0
  while read -r name k neg args; do
    what="$name.$k"
    rc=$(cat "$out/$what.rc" 2>/dev/null || echo missing)
    if [ "$rc" = 77 ] || [ "$rc" = missing ]; then
      echo "FAIL $what: not run there (status $rc)"
      fail=$((fail + 1))
      continue
    fi
    if { [ "$neg" = 0 ] && [ "$rc" != 0 ]; } || { [ "$neg" = 1 ] && [ "$rc" = 0 ]; }; then
      echo "FAIL $what: exit status $rc"
      sed 's/^/  | /' "$out/$what.out"
      fail=$((fail + 1))
      continue
    fi
    # shellcheck disable=SC2086 # the RUN line's FileCheck arguments
    if eval "$filecheck" --input-file="$out/$what.out" \
      "$here/$name.test" ${args//%s/} >"$dir/fc.log" 2>&1; then
      echo "PASS $what"
      pass=$((pass + 1))
    else
      echo "FAIL $what: FileCheck"
      sed 's/^/  | /' "$dir/fc.log"
      fail=$((fail + 1))
    fi
  done <"$dir/checks"
  echo "$pass passed, $fail failed"
  [ "$fail" = 0 ]
  ;;
*)
  echo "usage: device-bundle.sh make BUILD_DIR DIR | check DIR OUT_DIR" >&2
  exit 2
  ;;
esac
