#!/bin/sh
# pkg-config.sh ARGS... - pkg-config for test/Embedding: the installed
# pkg-config when there is one; otherwise a reading of coro.pc from the
# first directory of PKG_CONFIG_PATH by this script (--cflags, --libs,
# --modversion and --variable=NAME of the package coro only), so that the
# .pc file is exercised either way.
if command -v pkg-config >/dev/null 2>&1; then
  exec pkg-config "$@"
fi
set -eu
pcfiledir=${PKG_CONFIG_PATH%%:*}
pc=$pcfiledir/coro.pc
[ -f "$pc" ] || { echo "pkg-config.sh: no coro.pc in $pcfiledir" >&2; exit 1; }
eval "$(sed -n 's/^\([a-z_]*\)=\(.*\)$/\1="\2"/p' "$pc")"
field() { eval "echo \"$(sed -n "s/^$1: //p" "$pc")\""; }
out=
for arg in "$@"; do
  case $arg in
    --cflags) out="$out $(field Cflags)" ;;
    --libs) out="$out $(field Libs)" ;;
    --modversion) out="$out $(field Version)" ;;
    --variable=*) eval "out=\"\$out \${${arg#--variable=}}\"" ;;
    coro) ;;
    *) echo "pkg-config.sh: unsupported argument $arg" >&2; exit 1 ;;
  esac
done
echo $out
