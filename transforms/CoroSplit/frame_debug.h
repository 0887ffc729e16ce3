/* frame_debug.h - debug info for what --coro-split makes, when the
 * coroutine has a subprogram (--coro-debug-info ran before it, as under
 * -g): each clone gets its own subprogram (as LLVM's CoroSplit derives
 * them), and the variable `__coro_frame`, a pointer to the frame's type,
 * which gdb shows in the resume, destroy and cleanup functions.
 *
 * Invariant: one member per byte range the layout gives (frame_layout.h):
 * the header (resume and destroy functions), the promise, the suspension
 * index, and each kept value or alloca, named after where it is defined;
 * values that share storage are members at the same offset. */
#ifndef CORO_TRANSFORMS_FRAME_DEBUG_H
#define CORO_TRANSFORMS_FRAME_DEBUG_H

#include "transforms/CoroSplit/frame_layout.h"

#include "mlir-c/IR.h"

/* #llvm.di_composite_type<tag = DW_TAG_structure_type,
 * name = "NAME.coro_frame_ty", ...> for the layout `fl` of the coroutine
 * NAME whose kept items are `sc`'s and whose promise is `promise` (or
 * null). */
MlirAttribute frame_debug_type(MlirContext ctx, MlirStringRef name,
                               const struct frame_layout *fl,
                               const struct suspend_crossing *sc,
                               MlirValue promise);

/* The subprogram of `func` (fused into its location), or null. */
MlirAttribute frame_debug_subprogram(MlirOperation func);

/* Gives the clone `clone` of the coroutine whose subprogram is `sp` its
 * own subprogram (linkage name: the clone's), and, when `frame_ty` is not
 * null, `__coro_frame` = its first argument at its entry. */
void frame_debug_attach(MlirOperation clone, MlirAttribute sp,
                        MlirAttribute frame_ty);

#endif /* CORO_TRANSFORMS_FRAME_DEBUG_H */
