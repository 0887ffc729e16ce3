/* verify.h - the coro verifier (pass --coro-verify). */
#ifndef CORO_DIALECT_VERIFY_H
#define CORO_DIALECT_VERIFY_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* Checks `root` (borrowed) and everything nested in it; emits one located
 * error per violation and returns failure if there was any. */
MlirLogicalResult coro_verify_run(MlirOperation root);

#endif /* CORO_DIALECT_VERIFY_H */
