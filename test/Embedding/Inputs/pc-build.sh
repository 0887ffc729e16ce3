#!/bin/sh
# pc-build.sh PCDIR CC OUT SOURCES... - compiles and links SOURCES into OUT
# with the flags of the coro.pc found in PCDIR: through pkg-config when it
# is installed, otherwise read from the file itself (its variables expanded
# by sh, ${pcfiledir} included), so the .pc file is checked either way.
set -eu
pcdir=$1 cc=$2 out=$3
shift 3
if command -v pkg-config >/dev/null 2>&1; then
  cflags=$(PKG_CONFIG_PATH=$pcdir pkg-config --cflags coro)
  libs=$(PKG_CONFIG_PATH=$pcdir pkg-config --libs coro)
else
  pcfiledir=$pcdir
  eval "$(sed -n 's/^\([a-z]*\)=\(.*\)$/\1="\2"/p' "$pcdir/coro.pc")"
  cflags=$(eval "echo \"$(sed -n 's/^Cflags: //p' "$pcdir/coro.pc")\"")
  libs=$(eval "echo \"$(sed -n 's/^Libs: //p' "$pcdir/coro.pc")\"")
fi
# shellcheck disable=SC2086
exec "$cc" -std=c11 -Wall -Werror $cflags "$@" -o "$out" $libs
