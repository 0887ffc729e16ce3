# bench/timed.sh - sourced by split.sh and many.sh (with $tmp set):
# timed TAG CMD... - runs CMD with stderr to $tmp/TAG.err and leaves
# "SECONDS PEAK_KB" in $tmp/TAG.time (PEAK_KB "-" without /usr/bin/time).
if [ -x /usr/bin/time ]; then
  timed() {
    local tag=$1
    shift
    /usr/bin/time -f '%e %M' -o "$tmp/$tag.time" "$@" 2>"$tmp/$tag.err"
  }
else
  echo "note: no /usr/bin/time; peak memory not measured"
  timed() {
    local tag=$1 t0 rc=0
    shift
    t0=$EPOCHREALTIME
    "$@" 2>"$tmp/$tag.err" || rc=$?
    awk -v a="$t0" -v b="$EPOCHREALTIME" 'BEGIN {printf "%.2f -\n", b - a}' \
      >"$tmp/$tag.time"
    return $rc
  }
fi
