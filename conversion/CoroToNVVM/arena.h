/* arena.h - coro.alloc = "arena" on the device (see arena.c).
 *
 * The host gives the kernel one buffer, zeroed, and the bytes each thread
 * may use: the device globals CORO_ARENA_GLOBAL (the buffer's address, an
 * i64) and CORO_ARENA_SIZE_GLOBAL (bytes per thread), which it sets with
 * cuModuleGetGlobal and cuMemcpyHtoD (coro-gpu-run --arena=BYTES does).
 * Thread g of the grid (its linear index over blocks and threads) owns
 * bytes [g * size, (g + 1) * size). A slice starts with {i64 top, i64 last}
 * (offsets in the slice); each frame is preceded by a 16-byte record of the
 * previous {top, last} and aligned to 16. Frames are freed last in, first
 * out (as recursion and nested awaits free them); freeing another leaves
 * it until the frames above it are popped.
 *
 * Invariant: a thread never writes outside its slice. An allocation that
 * does not fit, or one without an arena, prints a message with vprintf and
 * traps: a defined end, never corruption. */
#ifndef CORO_CONVERSION_CORO_TO_NVVM_ARENA_H
#define CORO_CONVERSION_CORO_TO_NVVM_ARENA_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Adds the arena's globals and its allocator pair (llvm.funcs
 * CORO_ARENA_ALLOC: ptr (i64), CORO_ARENA_FREE: void (ptr)) to `module`.
 * False, with an error at `loc`, when one of their names is taken. */
bool coro_nvvm_make_arena(MlirOperation module, MlirLocation loc);

#endif /* CORO_CONVERSION_CORO_TO_NVVM_ARENA_H */
