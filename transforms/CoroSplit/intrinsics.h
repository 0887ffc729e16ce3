/* intrinsics.h - LLVM's coroutine intrinsics as the LLVM dialect spells
 * them, whichever way a producer wrote them.
 *
 * The same intrinsic reaches --coro-split in three shapes: an op of its
 * own (`llvm.intr.coro.suspend`), `llvm.call_intrinsic "llvm.coro.X"`, or
 * `llvm.call @llvm.coro.X` to a declared function. In all three the
 * intrinsic's arguments are the op's operands, in order, and its result (if
 * any) is result 0. Overloaded names (`llvm.coro.size.i64`) classify by
 * their base name. */
#ifndef CORO_TRANSFORMS_INTRINSICS_H
#define CORO_TRANSFORMS_INTRINSICS_H

#include "mlir-c/IR.h"

#include <stdbool.h>

enum coro_intr {
  CI_NONE,       /* not a coroutine intrinsic */
  CI_ID,         /* llvm.coro.id(align, promise, coroaddr, fnaddrs) -> token */
  CI_ALLOC,      /* llvm.coro.alloc(id) -> i1 */
  CI_BEGIN,      /* llvm.coro.begin(id, mem) -> ptr */
  CI_SIZE,       /* llvm.coro.size.iN() */
  CI_ALIGN,      /* llvm.coro.align.iN() */
  CI_SAVE,       /* llvm.coro.save(hdl) -> token */
  CI_SUSPEND,    /* llvm.coro.suspend(save, final) -> i8 */
  CI_END,        /* llvm.coro.end(hdl, unwind, results) [-> i1] */
  CI_FREE,       /* llvm.coro.free(id, frame) -> ptr */
  CI_FRAME,      /* llvm.coro.frame() -> ptr */
  CI_RESUME,     /* llvm.coro.resume(hdl) */
  CI_DESTROY,    /* llvm.coro.destroy(hdl) */
  CI_DONE,       /* llvm.coro.done(hdl) -> i1 */
  CI_PROMISE,    /* llvm.coro.promise(ptr, align, from) -> ptr */
  CI_NOOP,       /* llvm.coro.noop() -> ptr */
  CI_AWAIT_VOID, /* llvm.coro.await.suspend.void(awaiter, hdl, fn) */
  CI_AWAIT_BOOL, /* llvm.coro.await.suspend.bool(...) -> i1 */
  CI_AWAIT_HANDLE, /* llvm.coro.await.suspend.handle(...) */
  CI_IS_IN_RAMP,   /* llvm.coro.is_in_ramp() -> i1: true in the ramp only */
  /* the returned-continuation ABIs */
  CI_ID_RETCON,      /* llvm.coro.id.retcon(size, align, storage, proto,
                        alloc, dealloc) -> token */
  CI_ID_RETCON_ONCE, /* llvm.coro.id.retcon.once(same) -> token */
  CI_SUSPEND_RETCON, /* llvm.coro.suspend.retcon.*(yielded...) -> the
                        prototype's parameters after the storage */
  CI_END_RESULTS,    /* llvm.coro.end.results(values...) -> token */
  CI_PREPARE_RETCON, /* llvm.coro.prepare.retcon(fn) -> ptr */
  CI_ALLOCA_ALLOC,   /* llvm.coro.alloca.alloc.iN(size, align) -> token */
  CI_ALLOCA_GET,     /* llvm.coro.alloca.get(token) -> ptr */
  CI_ALLOCA_FREE,    /* llvm.coro.alloca.free(token) */
  /* the async ABI */
  CI_ID_ASYNC,      /* llvm.coro.id.async(size, align, ctx index, fp record)
                       -> token */
  CI_SUSPEND_ASYNC, /* llvm.coro.suspend.async.*(ctx index, resume fn,
                       projection fn, must-tail fn, args...) -> the resume
                       function's parameters (a struct) */
  CI_ASYNC_RESUME,  /* llvm.coro.async.resume() -> ptr */
  CI_END_ASYNC,     /* llvm.coro.end.async(hdl, unwind, [fn, args...]) */
  CI_ASYNC_SIZE_REPLACE, /* llvm.coro.async.size.replace(dst, src) */
  CI_SUBFN_ADDR,         /* llvm.coro.subfn.addr(hdl, i8 index) -> ptr */
  CI_OTHER               /* another llvm.coro.* (another ABI's, or unknown) */
};

/* The kind of `op`. */
enum coro_intr coro_intr_classify(MlirOperation op);
/* The intrinsic's LLVM name as written ("llvm.coro.suspend.retcon"), for
 * messages; empty when `op` is none. */
MlirStringRef coro_intr_name(MlirOperation op);
/* Whether the switch id `id` (llvm.coro.id) names its resume functions
 * (a fourth operand that is not null): LLVM's split leaves such an id in
 * the ramp, for elision. */
bool coro_id_names_resumers(MlirOperation id);
/* As LLVM's CoroEarly: an llvm.func whose body holds a retcon, retcon.once
 * or async coroutine id, or a switch id that names no resume functions
 * yet (a null fourth operand), is a coroutine, and gets the passthrough
 * "presplitcoroutine" when it lacks it (frontends of those ABIs, and
 * LLVM's own tests of them, leave the mark to CoroEarly; a switch
 * coroutine's frontend writes it, and LLVM's CoroEarly infers it since
 * LLVM 23). Whether `fn` is marked now. */
bool coro_mark_presplit(MlirOperation fn);
/* Whether `op`, an intrinsic of kind `k`, is a coroutine id that makes its
 * function a coroutine in coro_mark_presplit's sense (any but a switch id
 * that names its resume functions). */
bool coro_id_unsplit(MlirOperation op, enum coro_intr k);
/* Gives `fn` the passthrough "presplitcoroutine" (as coro_mark_presplit
 * does when it finds such an id). */
void coro_add_presplit_mark(MlirOperation fn);

/* Takes the mark "presplitcoroutine" off `fn`, split now or holding no
 * coroutine, and the "noinline" a conversion added to keep LLVM's
 * CoroSplit from inlining it before it was split
 * (CORO_NOINLINE_UNTIL_SPLIT_ATTR, dialect/contract.h). */
void coro_unmark_presplit(MlirOperation fn);

#endif /* CORO_TRANSFORMS_INTRINSICS_H */
