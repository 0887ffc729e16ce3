/* verify.h - the coro verifier (pass --coro-verify). */
#ifndef CORO_DIALECT_VERIFY_H
#define CORO_DIALECT_VERIFY_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

/* Checks `root` (borrowed) and everything nested in it; emits one located
 * error per violation and returns failure if there was any. */
MlirLogicalResult coro_verify_run(MlirOperation root);

/* The last step of the named pipelines (pass --coro-check-lowered), for
 * one op of a walk: a coroutine or coro op still there after the
 * conversions (one of an ABI the pipeline does not lower) is a located
 * error naming the pipelines that would lower it, instead of output that
 * still holds coro ops; *failed is set after one. Returns whether the ops
 * in its regions are to be left out of the walk (a coroutine, reported
 * whole). */
bool coro_check_lowered_visit(MlirOperation op, bool *failed);

#endif /* CORO_DIALECT_VERIFY_H */
