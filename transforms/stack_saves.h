/* stack_saves.h - stack saves that a coroutine's suspension would outlive.
 *
 * `llvm.intr.stacksave` / `llvm.intr.stackrestore` bracket dynamic stack
 * use (what `memref.alloca_scope` lowers to). A coroutine's stack is not
 * kept across a suspension: it resumes on another stack, or at another
 * depth of the same one, so a restore after a suspension to a pointer
 * saved before it moves the stack pointer into frames that are not the
 * coroutine's (route A crashed or gave wrong results; route B too). A save
 * whose value is live across a suspension (a restore of it is reachable
 * from a suspension without passing the save again) has its restores and
 * itself removed: the memory it would give back stays the coroutine's
 * until the function returns, which it does at every suspension. A save
 * and restore between two suspensions, in a loop too, are kept. */
#ifndef CORO_TRANSFORMS_STACK_SAVES_H
#define CORO_TRANSFORMS_STACK_SAVES_H

#include "mlir-c/IR.h"

/* Does so in every llvm.func under `root` marked presplitcoroutine. */
void coro_drop_suspended_stack_saves(MlirOperation root);

#endif /* CORO_TRANSFORMS_STACK_SAVES_H */
