/* vararg_intrinsics.h - LLVM's variadic coroutine intrinsics as calls
 * MLIR's translation to LLVM IR takes. */
#ifndef CORO_CAPI_VARARG_INTRINSICS_H
#define CORO_CAPI_VARARG_INTRINSICS_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Rewrites every llvm.call_intrinsic of one of LLVM's variadic coroutine
 * intrinsics (llvm.coro.suspend.retcon.*, .suspend.async.*, .end.async,
 * .end.results), as MLIR's LLVM IR importer writes them, into an llvm.call
 * of a variadic declaration of that name, which is how LLVM declares them:
 * MLIR's translation of llvm.call_intrinsic looks for a fixed signature of
 * the operands' types and finds none. An overloaded one named without
 * its types (llvm.coro.suspend.retcon, as MLIR written by hand may name
 * it) gets them, as LLVM mangles them. Returns false (with an error at the
 * call) when a symbol of that name is not an llvm.func. */
bool coro_vararg_intrinsics_to_calls(MlirOperation module);

#endif /* CORO_CAPI_VARARG_INTRINSICS_H */
