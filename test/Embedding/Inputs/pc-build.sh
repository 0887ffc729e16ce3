#!/bin/sh
# pc-build.sh PCDIR CC OUT SOURCES... - compiles and links SOURCES into OUT
# with nothing but the flags of the coro.pc found in PCDIR, read through
# pkg-config (or pkg-config.sh's own reading where it is not installed).
set -eu
pcdir=$1 cc=$2 out=$3
shift 3
pkgconfig="sh $(dirname "$0")/pkg-config.sh"
cflags=$(PKG_CONFIG_PATH=$pcdir $pkgconfig --cflags coro)
libs=$(PKG_CONFIG_PATH=$pcdir $pkgconfig --libs coro)
# shellcheck disable=SC2086
exec "$cc" -std=c11 -Wall -Werror $cflags "$@" -o "$out" $libs
