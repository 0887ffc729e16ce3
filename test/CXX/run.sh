#!/usr/bin/env bash
# The C++ differential suite: every program in programs/ is built twice,
# once by clang++-22 alone (the oracle: LLVM's own CoroSplit) and once
# through coro's route B (clang++-22 emits the coroutines unsplit, coro's
# --coro-split splits them), and both binaries must print the same stdout
# and exit with the same status. README.md says what it covers and how to
# read the results.
#
#   run.sh [--valgrind] [--route=R] [-g] [-j N] [-w WORKDIR] BUILD MODES
#          [PROGRAM...]
#
# BUILD is coro's build directory (its bin/ holds coro-translate and
# coro-opt). MODES is a comma-separated list of O0-eh, O0-noeh, O2-eh,
# O2-noeh, or `all` (eh: with exceptions; noeh: -fno-exceptions, never for
# the eh_* programs). PROGRAMs are names in programs/ (default: all).
#   --valgrind  run each route B binary under valgrind --error-exitcode=1 -q
#   --route=R   coro-translate's route: mlir-split (route B, the default)
#               or llvm (route A: coro-translate hands clang's coroutines
#               to LLVM's CoroSplit, the path of a C++ user of coro-translate
#               until route B is the default)
#   -g          clang++-22 emits the IR with debug info (-g)
#   -j N        cases run at once (default: the number of CPUs)
#   -w DIR      keep every intermediate file in DIR (default: a temporary
#               directory, removed at the end)
# Environment: CORO_CXX_SPLIT=auto|translate|opt picks the route B split
# (see SPLIT below); CXX (default clang++-22).
#
# One line per (program, mode): PASS, FAIL (<stage>: <first error line>),
# XFAIL (listed in xfail.txt and failing: not a failure) or XPASS (listed
# and passing: a failure, so the list only shrinks); then the summary
# `N passed, N failed, N xfail`. Exit status 0 when nothing failed.

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
CXX=${CXX:-clang++-22}
LLVM_BIN=/usr/lib/llvm-22/bin

# The route B split, one switch. `translate` is the intended command:
# coro-translate reads the bitcode and splits it with coro's own split
# (--route=mlir-split) down to an object. `opt` is the way through the
# tools one by one: llvm-dis, mlir-translate-22 --import-llvm, coro-opt
# --coro-split, mlir-translate-22 --mlir-to-llvmir, clang++-22. `auto`
# (default) takes `translate` when coro-translate reads LLVM bitcode (a
# probe at start-up) and `opt` otherwise.
SPLIT=${CORO_CXX_SPLIT:-auto}

# Seconds: one compile or tool step, one run of a program (under valgrind
# the runs take much longer).
STEP_TIMEOUT=120
RUN_TIMEOUT=30
VALGRIND_TIMEOUT=300

usage() {
  sed -n '9,27p' "${BASH_SOURCE[0]}" | sed 's/^# \{0,1\}//' >&2
  exit 2
}

# --- one case ------------------------------------------------------------
# Everything for (program, mode) happens in $WORK/<program>.<mode>/; the
# verdict is one line in its file `result`: `PASS` or `FAIL <stage>: <msg>`.

# Why a tool failed, in one line, from its stderr FILE and exit status RC:
# a sanitizer's report if there is one; "crashed (SIGxxx)" for a signal;
# else the first line that is not indented and not a warning, note or
# remark (LLVM's verifier prints its complaint before the tool's own
# "translation failed"), with the file:line:col prefix and `error:`
# dropped, so that the reason does not depend on the work directory.
first_error() {
  local file=$1 rc=${2:-1} line
  line=$(grep -m1 -E 'ERROR: (Address|Leak|Thread|Memory)Sanitizer|runtime error:' \
    "$file" 2>/dev/null | sed -E 's/^==[0-9]+==//')
  if [[ -z $line ]] && ((rc > 128 && rc != 124)); then
    printf 'crashed%s' "$(signal_name "$rc")"
    return
  fi
  [[ -n $line ]] || line=$(grep -m1 -v -E \
    '^[[:space:]]|^$|(warning|note|remark): |^PLEASE submit|^Stack dump' \
    "$file" 2>/dev/null)
  line=${line#*error: }
  line=$(printf '%s' "$line" | sed -E 's/^[^ :]+:[0-9]+:([0-9]+:)? //')
  printf '%.200s' "${line:-no message}"
}

verdict() { printf '%s\n' "$*" >"$dir/result"; }

# step STAGE CMD...: runs CMD in the case's directory, its stderr kept in
# STAGE.err; on failure records `FAIL STAGE: <first error>` and fails.
step() {
  local stage=$1
  shift
  local rc=0
  (cd "$dir" && timeout -k 5 "$STEP_TIMEOUT" "$@") >"$dir/$stage.out" \
    2>"$dir/$stage.err" || rc=$?
  ((rc == 0)) && return 0
  if ((rc == 124)); then
    verdict "FAIL $stage: timed out after ${STEP_TIMEOUT}s"
  else
    verdict "FAIL $stage: $(first_error "$dir/$stage.err" "$rc")"
  fi
  return 1
}

signal_name() {
  local rc=$1
  if ((rc > 128 && rc < 160)); then
    printf ' (SIG%s)' "$(kill -l $((rc - 128)) 2>/dev/null)"
  fi
}

split_translate() {
  step coro-translate "$BIN/coro-translate" prog.bc "--route=$ROUTE" \
    "-$olevel" --emit=obj -o prog.o &&
    step link "$CXX" prog.o -o routeb
}

# Route A through coro-translate: the same command, --route=llvm.
split_route_a() { split_translate; }

split_opt() {
  step llvm-dis "$LLVM_BIN/llvm-dis" prog.bc -o prog.ll &&
    step import mlir-translate-22 --import-llvm prog.ll -o prog.mlir &&
    step coro-split "$BIN/coro-opt" prog.mlir --coro-split -o split.mlir &&
    step export mlir-translate-22 --mlir-to-llvmir split.mlir -o split.ll &&
    step link "$CXX" "-$olevel" split.ll -o routeb
}

# Runs ./NAME with stdout to OUT, stderr to NAME.err; sets rc.
run_binary() {
  local name=$1 out=$2 limit=$RUN_TIMEOUT
  local -a pre=()
  if [[ $name == routeb && $VALGRIND == 1 ]]; then
    pre=(valgrind --error-exitcode=1 -q)
    limit=$VALGRIND_TIMEOUT
  fi
  (cd "$dir" && timeout -k 5 "$limit" "${pre[@]}" "./$name") >"$dir/$out" \
    2>"$dir/$name.err"
  rc=$?
}

compare() {
  local rc_oracle=$1 rc_routeb=$2
  if [[ $VALGRIND == 1 ]] && grep -q '^==[0-9]*==' "$dir/routeb.err"; then
    verdict "FAIL valgrind: $(grep -m1 '^==[0-9]*== [^ ]' "$dir/routeb.err" |
      sed 's/^==[0-9]*== //')"
    return
  fi
  if ((rc_routeb == 124)); then
    verdict "FAIL run: timed out"
    return
  fi
  if ((rc_routeb != rc_oracle)); then
    local msg
    msg="exit status $rc_routeb$(signal_name "$rc_routeb"), oracle $rc_oracle"
    [[ -s $dir/routeb.err ]] && msg+=": $(first_error "$dir/routeb.err")"
    verdict "FAIL run: $msg"
    return
  fi
  if ! cmp -s "$dir/expected" "$dir/actual"; then
    local n
    n=$(diff "$dir/expected" "$dir/actual" | grep -m1 -oE '^[0-9]+')
    n=${n:-1}
    local want got
    want=$(sed -n "${n}p" "$dir/expected")
    got=$(sed -n "${n}p" "$dir/actual")
    verdict "FAIL output: line $n: got '${got:0:60}', expected '${want:0:60}'"
    return
  fi
  verdict PASS
}

run_case() {
  local prog=$1 mode=$2
  olevel=${mode%%-*}
  dir=$WORK/$prog.$mode
  rm -rf "$dir" && mkdir -p "$dir"
  local -a flags=(-std=c++20 "-$olevel")
  [[ ${mode#*-} == noeh ]] && flags+=(-fno-exceptions)
  local src=$here/programs/$prog.cpp
  local -a debug=()
  [[ $DEBUG == 1 ]] && debug=(-g)

  step oracle "$CXX" "${flags[@]}" "$src" -o oracle || return
  run_binary oracle expected
  local rc_oracle=$rc
  if ((rc_oracle != 0)); then
    verdict "FAIL oracle: exit status $rc_oracle$(signal_name "$rc_oracle")"
    return
  fi

  step emit-bc "$CXX" "${flags[@]}" "${debug[@]}" -Xclang -disable-llvm-passes \
    -emit-llvm -c "$src" -o prog.bc || return
  "split_$SPLIT" || return
  run_binary routeb actual
  compare "$rc_oracle" "$rc"
}

if [[ ${1:-} == --case ]]; then
  # A worker started by xargs below: run.sh --case PROGRAM MODE.
  run_case "$2" "$3"
  exit 0
fi

# --- the driver ----------------------------------------------------------
VALGRIND=0
ROUTE=mlir-split
DEBUG=0
JOBS=$(nproc 2>/dev/null || echo 2)
WORK=
while (($#)); do
  case $1 in
  --valgrind) VALGRIND=1 ;;
  --route=llvm | --route=mlir-split) ROUTE=${1#--route=} ;;
  -g) DEBUG=1 ;;
  -j) JOBS=$2; shift ;;
  -j*) JOBS=${1#-j} ;;
  -w) WORK=$2; shift ;;
  -h | --help) usage ;;
  -*) echo "run.sh: unknown option $1" >&2; usage ;;
  *) break ;;
  esac
  shift
done
(($# >= 2)) || usage
BUILD=$(cd "$1" && pwd) || exit 2
BIN=$BUILD/bin
modes_arg=$2
shift 2

all_modes=(O0-eh O0-noeh O2-eh O2-noeh)
if [[ $modes_arg == all ]]; then
  modes=("${all_modes[@]}")
else
  IFS=, read -r -a modes <<<"$modes_arg"
  for m in "${modes[@]}"; do
    [[ " ${all_modes[*]} " == *" $m "* ]] ||
      { echo "run.sh: unknown mode '$m' (${all_modes[*]}, all)" >&2; exit 2; }
  done
fi

programs=()
if (($#)); then
  for p in "$@"; do
    p=$(basename "$p" .cpp)
    [[ -f $here/programs/$p.cpp ]] ||
      { echo "run.sh: no program $here/programs/$p.cpp" >&2; exit 2; }
    programs+=("$p")
  done
else
  for f in "$here"/programs/*.cpp; do programs+=("$(basename "$f" .cpp)"); done
fi

keep=1
if [[ -z $WORK ]]; then
  WORK=$(mktemp -d "${TMPDIR:-/tmp}/coro-cxx.XXXXXX") || exit 2
  keep=0
fi
mkdir -p "$WORK" && WORK=$(cd "$WORK" && pwd)

for tool in "$CXX" mlir-translate-22 "$LLVM_BIN/llvm-dis" "$BIN/coro-opt" \
  "$BIN/coro-translate"; do
  command -v "$tool" >/dev/null ||
    { echo "run.sh: $tool not found" >&2; exit 2; }
done
if [[ $VALGRIND == 1 ]] && ! command -v valgrind >/dev/null; then
  echo "run.sh: --valgrind: valgrind not found" >&2
  exit 2
fi

# Does coro-translate read LLVM bitcode? A program with no coroutine, the
# intended command: if it fails, route B goes the long way (SPLIT=opt).
if [[ $SPLIT == auto ]]; then
  probe=$WORK/probe
  mkdir -p "$probe"
  echo 'int main() { return 0; }' >"$probe/p.cpp"
  if "$CXX" -std=c++20 -Xclang -disable-llvm-passes -emit-llvm -c \
    "$probe/p.cpp" -o "$probe/p.bc" 2>"$probe/err" &&
    "$BIN/coro-translate" "$probe/p.bc" --route=mlir-split --emit=obj \
      -o "$probe/p.o" 2>"$probe/err" && [[ -s $probe/p.o ]]; then
    SPLIT=translate
  else
    SPLIT=opt
    echo "note: coro-translate does not take LLVM bitcode yet" \
      "($(first_error "$probe/err")): splitting with coro-opt"
  fi
fi
if [[ $ROUTE == llvm ]]; then
  [[ $SPLIT == translate ]] ||
    { echo "run.sh: --route=llvm needs coro-translate to read bitcode" >&2; exit 2; }
  SPLIT=route_a
fi
case $SPLIT in
route_a) echo "route A: coro-translate --route=llvm --emit=obj" ;;
translate) echo "route B: coro-translate --route=mlir-split --emit=obj" ;;
opt) echo "route B: llvm-dis | mlir-translate-22 --import-llvm | coro-opt --coro-split | mlir-translate-22 --mlir-to-llvmir | $CXX" ;;
*) echo "run.sh: CORO_CXX_SPLIT=$SPLIT: not auto, translate or opt" >&2; exit 2 ;;
esac

# xfail.txt: `program mode  # reason`; both fields are shell patterns
# (`*` for every mode).
xfail_pats=()
if [[ -f $here/xfail.txt ]]; then
  while read -r p m _; do
    [[ -z $p || $p == \#* ]] && continue
    xfail_pats+=("$p $m")
  done < <(sed 's/#.*//' "$here/xfail.txt")
fi
is_xfail() {
  local pat
  for pat in "${xfail_pats[@]}"; do
    # shellcheck disable=SC2053
    [[ $1 == ${pat%% *} && $2 == ${pat#* } ]] && return 0
  done
  return 1
}

cases=()
for p in "${programs[@]}"; do
  for m in "${modes[@]}"; do
    [[ $p == eh_* && $m == *-noeh ]] && continue
    cases+=("$p" "$m")
  done
done

CORO_CXX_SPLIT=$SPLIT
export WORK BIN CORO_CXX_SPLIT VALGRIND CXX ROUTE DEBUG
# The workers' own stderr (bash reporting a tool killed by a signal) goes
# to a log: the verdicts say it already.
printf '%s\n' "${cases[@]}" |
  xargs -P "$JOBS" -n 2 bash "${BASH_SOURCE[0]}" --case 2>"$WORK/workers.log"

passed=0 failed=0 xfailed=0
for ((i = 0; i < ${#cases[@]}; i += 2)); do
  p=${cases[i]} m=${cases[i + 1]}
  r=$(cat "$WORK/$p.$m/result" 2>/dev/null || echo "FAIL harness: no result")
  if [[ $r == PASS ]]; then
    if is_xfail "$p" "$m"; then
      echo "XPASS: $p $m (listed in xfail.txt: remove the line)"
      failed=$((failed + 1))
    else
      echo "PASS: $p $m"
      passed=$((passed + 1))
    fi
  else
    r=${r#FAIL }
    if [[ $r != oracle:* ]] && is_xfail "$p" "$m"; then
      echo "XFAIL: $p $m ($r)"
      xfailed=$((xfailed + 1))
    else
      echo "FAIL: $p $m ($r)"
      failed=$((failed + 1))
    fi
  fi
done

if ((keep)); then
  echo "work files in $WORK"
else
  rm -rf "$WORK"
fi
echo "$passed passed, $failed failed, $xfailed xfail"
((failed == 0))
