/* verify.h - the coro verifier (pass --coro-verify). */
#ifndef CORO_DIALECT_VERIFY_H
#define CORO_DIALECT_VERIFY_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* Checks `root` (borrowed) and everything nested in it; emits one located
 * error per violation and returns failure if there was any. */
MlirLogicalResult coro_verify_run(MlirOperation root);

/* The last step of the named pipelines (pass --coro-check-lowered): a
 * coroutine or coro op still in `root` after the conversions (one of an ABI
 * the pipeline does not lower) is a located error naming the pipelines
 * that would lower it, instead of output that still holds coro ops. */
MlirLogicalResult coro_check_lowered_run(MlirOperation root);
/* The same for `op` alone, not the ops in its regions. */
MlirLogicalResult coro_check_lowered_op(MlirOperation op);

#endif /* CORO_DIALECT_VERIFY_H */
