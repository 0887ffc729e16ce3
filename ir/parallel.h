/* parallel.h - independent pieces of a pass on MLIR's threads.
 *
 * A module pass whose work splits into pieces that each change only their
 * own ops (a coroutine and the parts made of it) runs them as MLIR's pass
 * manager runs function passes: on the context's thread pool, one thread
 * when the context's multithreading is off (--mlir-disable-threading), the
 * diagnostics of piece i emitted as if the pieces had run one after another
 * in order (MLIR's ParallelDiagnosticHandler). Implemented in ir/shim.cpp
 * (docs/contract-notes.md). */
#ifndef CORO_IR_PARALLEL_H
#define CORO_IR_PARALLEL_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Whether ir_parallel_for may run pieces at once in `ctx`: its
 * multithreading is on, it has more than one thread, and no optimization
 * remark engine is set (which reports a remark from one thread at a
 * time). */
bool ir_parallel_enabled(MlirContext ctx);

/* Calls fn(i, user) for every i in [0, n), on the context's threads when
 * ir_parallel_enabled, else in order on this one; returns when all have
 * returned. */
void ir_parallel_for(MlirContext ctx, size_t n, void (*fn)(size_t, void *),
                     void *user);

#ifdef __cplusplus
}
#endif

#endif /* CORO_IR_PARALLEL_H */
