/* misuse_checks.h - --coro-misuse-checks, the checked mode (see
 * misuse_checks.c): resuming a coroutine that has ended and yielding again
 * after coro.destroy trap with a message naming the coroutine.
 *
 * Invariant: a program that does neither behaves as without the pass (a
 * yield's destroy flag is used only where the program uses it already). */
#ifndef CORO_TRANSFORMS_MISUSE_CHECKS_H
#define CORO_TRANSFORMS_MISUSE_CHECKS_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* Adds the checks to every coroutine and consumer op of `module` (the coro
 * dialect, before any conversion). Fails with a located error when a
 * symbol it needs is taken. */
MlirLogicalResult coro_misuse_checks_run(MlirOperation module);

#endif /* CORO_TRANSFORMS_MISUSE_CHECKS_H */
