#!/bin/sh
# emulate.sh DEVICE.ll CC OUT - builds OUT, an executable that runs the
# kernel of DEVICE.ll (coro-translate --emit=llvm) on the host
# (emulate.c): the NVVM special registers become the harness's functions,
# vprintf its own, and the module loses its NVPTX triple and data layout.
set -e
ll=$1 cc=$2 out=$3
sed -e 's/@llvm\.nvvm\.read\.ptx\.sreg\.\([a-z]*\)\.\([xyz]\)/@emu_sreg_\1_\2/g' \
    -e 's/@vprintf\b/@emu_vprintf/g' \
    -e '/^target datalayout/d' -e '/^target triple/d' "$ll" > "$out.host.ll"
$cc -w -O0 -o "$out" "$(dirname "$0")/emulate.c" "$out.host.ll"
