/* empty_values.h - values of a type with no bits in a coroutine.
 *
 * A value of a zero-sized aggregate (!llvm.array<0 x T>, a struct of such
 * fields) carries nothing, yet one live across a suspension is a value to
 * keep: LLVM 22's CoroSplit crashes laying out a retcon.once frame for one
 * (route A at -O2, where the pre-split passes leave a zero-length argument
 * live up to llvm.coro.end.results). Every use of such a value in a
 * coroutine takes a constant of its type instead (llvm.mlir.zero, the only
 * value the type has), which no split keeps. */
#ifndef CORO_TRANSFORMS_EMPTY_VALUES_H
#define CORO_TRANSFORMS_EMPTY_VALUES_H

#include "mlir-c/IR.h"

/* Does so in every llvm.func under `root` marked presplitcoroutine. */
void coro_rebuild_empty_values(MlirOperation root);

#endif /* CORO_TRANSFORMS_EMPTY_VALUES_H */
