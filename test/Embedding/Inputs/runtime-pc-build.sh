#!/bin/sh
# runtime-pc-build.sh PCDIR CC OUT INPUTS... - compiles and links INPUTS (C
# sources and object files) into OUT with nothing but the flags of the
# coro-runtime.pc found in PCDIR, read through pkg-config where it is
# installed and by this script otherwise; the flags are also written to
# OUT.flags.
set -eu
pcdir=$1 cc=$2 out=$3
shift 3
if command -v pkg-config >/dev/null 2>&1; then
  cflags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags coro-runtime)
  libs=$(PKG_CONFIG_PATH=$pcdir pkg-config --libs coro-runtime)
else
  pc=$pcdir/coro-runtime.pc
  [ -f "$pc" ] || { echo "runtime-pc-build.sh: no $pc" >&2; exit 1; }
  pcfiledir=$pcdir
  eval "$(sed -n 's/^\([a-z_]*\)=\(.*\)$/\1="\2"/p' "$pc")"
  cflags=$(eval "echo \"$(sed -n 's/^Cflags: //p' "$pc")\"")
  libs=$(eval "echo \"$(sed -n 's/^Libs: //p' "$pc")\"")
fi
echo "$cflags $libs" > "$out.flags"
# shellcheck disable=SC2086
exec "$cc" -std=c11 -Wall -Werror $cflags "$@" -o "$out" $libs
