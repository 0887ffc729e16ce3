/* convert_coro_to_llvm_async.c - `--convert-coro-to-llvm-async`: LLVM's
 * async ABI (see docs/async-lowering.md).
 *
 * A coroutine `@f(args) -> !coro.handle<T>` with coro.abi = "async" becomes
 *
 *   @"f.coro.async"(ptr ctx)   swifttailcc, the body, with coro.id.async;
 *                              LLVM splits it at each coro.suspend.async
 *                              into functions of the same type
 *   @"f.coro.fp"               its async function pointer record
 *                              <{i32 0, i32 context size}>: CoroSplit
 *                              writes the full size (header + frame) there,
 *                              so it is a global, read volatile
 *   @f(args) -> ptr            an ordinary function under the coroutine's
 *                              name: allocates the context, fills its
 *                              header and arguments, runs the body until
 *                              it first suspends, returns the context
 *   @"f.coro.destroy"          the handle's destroy entry
 *
 * The async context is the handle. It has the header every handle has
 * (resume and destroy entries, the promise at 16), then the arguments, then
 * LLVM's frame. Before it, at fixed negative offsets (so that they do not
 * depend on T), lies the async state: under route B the task's seen entry
 * at h - 96 (__coro_async_resume_known, which the runtime makes the
 * resume entry once it sees the task: the handle's own assumes it never
 * did), then the runtime's fields from h - 80 to h - 40 (its state word
 * first: 0 until the runtime sees the task, and the lowered code calls
 * the runtime only when it is not; see "Across threads" in
 * docs/async-lowering.md), then the lowering's:
 *
 *   h - 32  ptr resume_fn   where the coroutine continues (an LLVM resume
 *                           function, swifttailcc void(ptr ctx))
 *   h - 24  ptr handoff     while the task runs: the slot of the code that
 *                           entered it, where a transfer to a handle of
 *                           another ABI is left (see below)
 *   h - 16  i64 destroying  set by the destroy entry before resuming
 *   h -  8  ptr awaiter_fn  set by an async awaiter: its resume function,
 *                           tail-called with the awaiter's context at the
 *                           end (the awaiter's context is the promise's
 *                           continuation)
 *
 * (coro-runtime/Runtime.h: coro_rt_task_prefix; coro_rt_task_alloc gives
 * a zeroed block with this prefix.)
 *
 * Every suspension is coro.suspend.async with a dispatch function that
 * runs as a tail call: `__coro_async_park` records resume_fn and returns
 * to whoever resumed the coroutine (coro.yield); `__coro_async_await` links
 * the awaiter and tail-calls the awaited coroutine's resume_fn (coro.await
 * of an async coroutine: a chain of awaits runs in O(1) stack);
 * `__coro_async_await_any` does the same for handles of other or unknown
 * ABIs. coro.end calls coro.end.async, whose tail call
 * `__coro_async_finish` marks the handle done and transfers to the awaiter.
 *
 * Async code is swifttailcc and every other handle's resume entry fastcc;
 * LLVM cannot guarantee a tail call between the two conventions, so a
 * transfer from async code to a handle of another ABI does not call its
 * entry (each such transfer would keep a frame: a chain alternating ABIs
 * would grow the stack with its depth). Async code is entered from other
 * code only by the resume entry `__coro_async_resume`, the destroy entry
 * and the entry function; each gives the task a handoff slot in its own
 * frame, which transfers between async tasks pass on. A transfer to
 * another ABI leaves the handle in the slot and returns; the code that
 * entered runs it once the async code has returned: the resume entry with
 * a musttail call (both fastcc), so any chain runs in O(1) stack.
 *
 * Everything is built with ir/ (no IR from text). What the lowering
 * generates is located at the coroutine, named after what it is
 * (ir_generated_loc): "__coro_async_park", "f.coro.destroy", "f" for the
 * entry; the shared functions are built once per module, at the first
 * coroutine that needs them. */
#include "conversion/CoroToLLVMAsync/convert_coro_to_llvm_async.h"
#include "conversion/common/abi.h"
#include "conversion/common/names.h"
#include "dialect/contract.h"
#include "ir/fold.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The task prefix (coro-runtime/HandleLayout.h). */
enum {
  PREFIX = CORO_TASK_PREFIX_SIZE,            /* bytes before the handle */
  OFF_RESUME = CORO_TASK_PARKED_OFFSET,      /* ptr resume_fn */
  OFF_HANDOFF = CORO_TASK_HANDOFF_OFFSET,    /* ptr to the entry's slot */
  OFF_AWAITER = CORO_TASK_AWAITER_OFFSET,    /* ptr awaiter_fn */
  OFF_DESTROY = CORO_TASK_DESTROYING_OFFSET, /* i64 destroying */
  OFF_STATE = CORO_TASK_STATE_OFFSET,        /* i64 the runtime's word */
  OFF_SEEN = CORO_TASK_SEEN_ENTRY_OFFSET,    /* ptr the entry once seen */
  CTX_ALIGN = CORO_TASK_ALIGN
};

/* Handle fields (struct CTX). */
enum { H_RESUME, H_DESTROY, H_PROMISE, H_ARGS };

struct as_state {
  MlirType S;   /* value storage */
  MlirType ctx; /* !llvm.struct<(ptr, ptr, struct<(ptr, S)>, struct<(args)>)> */
  MlirValue self, hdl;
  MlirBlock end; /* the one coro.end */
  struct coro_allocator alloc;
  bool runtime_alloc; /* coro_rt_task_alloc/free (no coro.alloc_fn) */
  /* The body uses coro.self: it may submit itself while it runs, so the
   * runtime knows it from its start and is told when it is resumed. */
  bool uses_self;
  /* The coroutine's name and those of what is generated for it (they may
   * hold any character, a NUL included: kept with their lengths). */
  struct coro_str name, body, record, destroy, resume;
  /* [nargs] the type a `llvm.byval` argument points to (its bytes are
   * copied into the context, and the body uses the copy), else null */
  MlirType *byval;
};

/*===--- builders ----------------------------------------------------------*/

/* The flat symbol ref to `name`. */
static MlirAttribute sym_of(MlirContext ctx, const struct coro_str *name) {
  return mlirFlatSymbolRefAttrGet(ctx,
                                  mlirStringRefCreate(name->data, name->len));
}

/* %p = llvm.mlir.addressof @sym : !llvm.ptr */
static MlirValue addr_of(struct ir_builder *b, MlirAttribute sym) {
  MlirType ptr = ir_ptr_type(b->ctx);
  MlirNamedAttribute a = ir_named(b->ctx, "global_name", sym);
  MlirOperation op =
      ir_op(b, "llvm.mlir.addressof", 0, NULL, 1, &ptr, 1, &a, 0, NULL);
  return mlirOperationGetResult(op, 0);
}

/* %v = llvm.load volatile %p {alignment = A} : !llvm.ptr -> T */
static MlirValue load_volatile(struct ir_builder *b, MlirValue ptr, MlirType t,
                               unsigned align) {
  MlirNamedAttribute a[2] = {
      ir_named(b->ctx, "alignment", ir_i64_attr(b->ctx, align)),
      ir_named(b->ctx, "volatile_", mlirUnitAttrGet(b->ctx))};
  MlirOperation op = ir_op(b, "llvm.load", 1, &ptr, 1, &t, 2, a, 0, NULL);
  return mlirOperationGetResult(op, 0);
}

/* llvm.call <cconv> [musttail] %f(%arg) : !llvm.ptr, (!llvm.ptr) -> () */
static void call_ptr(struct ir_builder *b, MlirValue f, int cconv,
                     bool musttail, MlirValue arg) {
  ir_call_indirect(b, f, cconv, musttail ? 2 : 0, 1, &arg, (MlirType){NULL});
}

/* The llvm.func `spec` named `name` at the end of `module`, located at the
 * coroutine `from` as code generated under that name (`*loc`); returns its
 * entry block. */
static MlirBlock gen_func(MlirOperation module, MlirOperation from,
                          const char *name, size_t len,
                          struct ir_func_spec *spec, MlirLocation *loc) {
  MlirContext ctx = mlirOperationGetContext(from);
  *loc = ir_generated_loc(mlirOperationGetLocation(from), name);
  spec->name = name;
  MlirOperation f = ir_llvm_func(module, spec, false, *loc);
  /* The name again with its length: it may hold a NUL. */
  mlirOperationSetAttributeByName(
      f, mlirStringRefCreateFromCString("sym_name"),
      mlirStringAttrGet(ctx, mlirStringRefCreate(name, len)));
  return ir_func_entry(f);
}

/* The vararg intrinsics the body calls. */
static const char *const suspend_async = "llvm.coro.suspend.async.sl_p0s";
static const char *const end_async = "llvm.coro.end.async";

/* Their types: !llvm.func<struct<(ptr)> (i32, ptr, ptr, ...)> and
 * !llvm.func<void (ptr, i1, ...)>. */
static MlirType intrinsic_type(MlirContext ctx, const char *name) {
  MlirType ptr = ir_ptr_type(ctx);
  if (!strcmp(name, end_async))
    return ir_llvm_func_type(ctx, (MlirType){NULL}, 2,
                             (MlirType[]){ptr, ir_int_type(ctx, 1)}, true);
  return ir_llvm_func_type(ctx, ir_struct_type(ctx, 1, &ptr), 3,
                           (MlirType[]){ir_int_type(ctx, 32), ptr, ptr}, true);
}

/* Declares the vararg intrinsic `name` at the start of `module` unless a
 * function of that name exists; false after an error at a symbol of that
 * name that is not a function. */
static bool declare_intrinsic(MlirOperation module, const char *name,
                              MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType fty = intrinsic_type(ctx, name);
  MlirType result = mlirLLVMFunctionTypeGetReturnType(fty);
  MlirType fixed[3];
  intptr_t n = mlirLLVMFunctionTypeGetNumInputs(fty);
  assert(n <= 3 && "an intrinsic with more fixed parameters");
  for (intptr_t i = 0; i < n; ++i)
    fixed[i] = mlirLLVMFunctionTypeGetInput(fty, i);
  if (mlirTypeEqual(result, mlirLLVMVoidTypeGet(ctx)))
    result = (MlirType){NULL};
  if (!mlirOperationIsNull(
          coro_lookup_symbol(module, mlirStringRefCreateFromCString(name))))
    /* a function (nothing to do), or the error */
    return coro_declare_llvm_func(module, ir_sym_ref(ctx, name), result, n,
                                  fixed, loc);
  struct ir_func_spec spec = {.name = name,
                              .result = result,
                              .nargs = n,
                              .args = fixed,
                              .vararg = true};
  MlirOperation f = ir_llvm_func(module, &spec, true, loc);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirOperationMoveBefore(f, mlirBlockGetFirstOperation(body));
  return true;
}

/* llvm.call @name(args) vararg(type of the intrinsic `name`) */
static MlirValue call_intrinsic(struct ir_builder *b, const char *name,
                                intptr_t n, const MlirValue *args) {
  return ir_call_vararg_typed(b, ir_sym_ref(b->ctx, name),
                              intrinsic_type(b->ctx, name), n, args);
}

/* The runtime's functions the lowered code calls (coro-runtime/Runtime.h,
 * "What lowered async code calls"): each taken only for a task whose state
 * word is not 0. */
static const struct rt_fn {
  const char *name;
  int nargs;  /* all !llvm.ptr */
  int result; /* 0 none, 32 or 64: that integer, 1: !llvm.ptr */
} rt_fns[] = {
    {"coro_rt_task_enter", 1, 1},    {"coro_rt_task_park", 1, 0},
    {"coro_rt_task_await", 2, 32},   {"coro_rt_task_end", 1, 1},
    {"coro_rt_task_fail", 2, 32},    {"coro_rt_group_park", 2, 32},
    {"coro_rt_group_result", 1, 64}, {"coro_rt_task_acquire", 1, 0},
};

static MlirType rt_result(MlirContext ctx, const struct rt_fn *f) {
  if (f->result == 1)
    return ir_ptr_type(ctx);
  return f->result ? ir_int_type(ctx, (unsigned)f->result) : (MlirType){NULL};
}

/* Declares the runtime's functions the module lacks; false after an error
 * at a symbol of one of their names that is something else. */
static bool declare_runtime(MlirOperation module, MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType ptr = ir_ptr_type(ctx);
  MlirType args[2] = {ptr, ptr};
  for (size_t i = 0; i < sizeof rt_fns / sizeof *rt_fns; ++i)
    if (!coro_declare_llvm_func(module, ir_sym_ref(ctx, rt_fns[i].name),
                                rt_result(ctx, &rt_fns[i]), rt_fns[i].nargs,
                                args, loc))
      return false;
  return true;
}

/* %r = llvm.call @name(args), a runtime function of rt_fns. */
static MlirValue call_rt(struct ir_builder *b, const char *name, intptr_t n,
                         const MlirValue *args) {
  for (size_t i = 0; i < sizeof rt_fns / sizeof *rt_fns; ++i)
    if (!strcmp(rt_fns[i].name, name))
      return ir_call(b, ir_sym_ref(b->ctx, name), false, n, args,
                     rt_result(b->ctx, &rt_fns[i]));
  assert(false && "not a runtime function of rt_fns");
  return (MlirValue){NULL};
}

/* The task `h`'s state word (the runtime's; 0 until it sees the task). */
static MlirValue state_word(struct ir_builder *b, MlirValue h) {
  return ir_load(b, ir_gep_bytes(b, h, OFF_STATE), ir_int_type(b->ctx, 64), 8);
}

/* Whether the task `h`'s state word is not 0: the runtime has seen it. */
static MlirValue runtime_knows(struct ir_builder *b, MlirValue h) {
  return ir_icmp(b, IR_NE, state_word(b, h), ir_const_int(b, 64, 0));
}

/* At the end of `b`'s block: when the runtime knows `h`, `rt`(h) first;
 * `b` goes on after. */
static void when_known(struct ir_builder *b, MlirValue h, const char *rt) {
  MlirBlock call = ir_block_after(b->block, 0, NULL, b->loc);
  MlirBlock after = ir_block_after(call, 0, NULL, b->loc);
  ir_cond_br(b, runtime_knows(b, h), call, after);
  *b = ir_at_end(call, b->loc);
  call_rt(b, rt, 1, &h);
  ir_br(b, after, 0, NULL);
  *b = ir_at_end(after, b->loc);
}

/*===--- shared functions --------------------------------------------------*/

/* The functions every async coroutine of a module uses, built once, at the
 * location of the first coroutine that needs them. `h`, `self` and `x` are
 * handles (async contexts); `rf` is a resume function (swifttailcc void(ptr
 * ctx)) that llvm.coro.async.resume gave. */

/*   llvm.func internal @__coro_async_project(%p: !llvm.ptr) -> !llvm.ptr {
 *     llvm.return %p                     (the context is the handle)
 *   } */
static void emit_project(struct ir_builder *b, MlirBlock entry) {
  ir_return(b, mlirBlockGetArgument(entry, 0));
}

/* Leaves the handle `x` in the handoff slot of the running task `self`,
 * for the code that entered async code to run (see the file comment). */
static void hand_off(struct ir_builder *b, MlirValue self, MlirValue x) {
  MlirValue slot =
      ir_load(b, ir_gep_bytes(b, self, OFF_HANDOFF), ir_ptr_type(b->ctx), 0);
  ir_store(b, x, slot, 0);
}

/* Enters async code: the resume function `f` on the task `h`, from code of
 * another calling convention, with `slot` (an alloca of the caller) as the
 * task's handoff slot; returns the handle left there (null when none). The
 * slot is on the entry's stack, not in a task: `h` may be freed before the
 * call returns (its end transfers to an awaiter that destroys it). */
static MlirValue enter_async(struct ir_builder *b, MlirValue slot, MlirValue h,
                             MlirValue f) {
  ir_store(b, ir_null(b), slot, 0);
  ir_store(b, slot, ir_gep_bytes(b, h, OFF_HANDOFF), 0);
  call_ptr(b, f, MlirLLVMCConvSwiftTail, false, h);
  return ir_load(b, slot, ir_ptr_type(b->ctx), 0);
}

/* A slot for enter_async, at `b`. */
static MlirValue handoff_slot(struct ir_builder *b) {
  MlirType ptr = ir_ptr_type(b->ctx);
  return ir_alloca(b, ir_const_int(b, 64, 1), ptr, 8);
}

/*   llvm.func internal swifttailcc @__coro_async_park(%h, %rf) {
 *     h.parked = %rf
 *     if h.state != 0: coro_rt_task_park(%h)   (queues it if it was
 *                                              submitted while it ran)
 *     llvm.return                        (back to the resumer)
 *   }
 *
 * In a module route B splits (coro.route = "mlir-split"), the store is
 * made only when h.parked is another function: route B's resume entry
 * calls the parked continuation directly and tells LLVM which one it is
 * (split_direct_continuation_calls), so once LLVM has inlined the
 * continuation and this, a generator that parks where it was resumed
 * stores nothing. Route A, which never knows, stores as ever (a test
 * there would only cost). */
static void emit_park(struct ir_builder *b, MlirBlock entry) {
  MlirValue h = mlirBlockGetArgument(entry, 0);
  MlirValue rf = mlirBlockGetArgument(entry, 1);
  MlirValue at = ir_gep_bytes(b, h, OFF_RESUME);
  if (!coro_route_b(mlirBlockGetParentOperation(entry))) {
    ir_store(b, rf, at, 0);
  } else {
    MlirBlock set = ir_block_after(entry, 0, NULL, b->loc);
    MlirBlock ret = ir_block_after(set, 0, NULL, b->loc);
    MlirValue now = ir_load(b, at, ir_ptr_type(b->ctx), 0);
    ir_cond_br(b, ir_icmp(b, IR_EQ, now, rf), ret, set);
    struct ir_builder s = ir_at_end(set, b->loc);
    ir_store(&s, rf, at, 0);
    ir_br(&s, ret, 0, NULL);
    *b = ir_at_end(ret, b->loc);
  }
  /* a task the runtime knows may have been submitted while it ran */
  when_known(b, h, "coro_rt_task_park");
  ir_return(b, (MlirValue){NULL});
}

/* `async`: the awaited %x is an async coroutine:
 *
 *   llvm.func internal swifttailcc @__coro_async_await(%self, %x, %rf) {
 *     if %x == %self or %x == llvm.coro.noop():  // never continues
 *       self.parked = %rf; llvm.return          (as __coro_async_park)
 *     if x.state != 0:                    (the runtime knows %x)
 *       self.parked = %rf
 *       %r = coro_rt_task_await(%self, %x)
 *       %r == 1: llvm.return             (%x is scheduled: its end, on
 *                                         whichever thread, resumes %self)
 *       %r == 2: llvm.call swifttailcc musttail %rf(%self) (it has ended)
 *       %r == 0: go on (nobody else runs %x: drive it)
 *     x.promise.continuation = %self
 *     x.awaiter = %rf
 *     x.handoff = self.handoff
 *     self.parked = %rf
 *     llvm.call swifttailcc musttail x.parked(%x)
 *     llvm.return
 *   }
 *
 * else (any ABI: through its resume entry):
 *
 *   llvm.func internal swifttailcc @__coro_async_await_any(%self, %x, %rf) {
 *     (the same check first)
 *     self.parked = %rf
 *     publish %self as x.promise.continuation (coro_publish_awaiter):
 *     ^go:
 *       *self.handoff = %x             (the entry runs it: hand_off)
 *       llvm.return
 *     ^ended:                          (a scheduled task that has ended)
 *       llvm.call swifttailcc musttail %rf(%self)
 *       llvm.return
 *   } */
static void emit_await(struct ir_builder *b, MlirBlock entry, bool async) {
  MlirType ptr = ir_ptr_type(b->ctx);
  MlirValue self = mlirBlockGetArgument(entry, 0);
  MlirValue x = mlirBlockGetArgument(entry, 1);
  MlirValue rf = mlirBlockGetArgument(entry, 2);
  /* awaiting itself or coro.noop would never continue: park (as a yield
   * does) and write nothing into the awaited frame */
  MlirValue nop = ir_intrinsic(b, "llvm.coro.noop", 0, NULL, ptr);
  MlirValue is_self = ir_icmp(b, IR_EQ, x, self);
  MlirValue is_nop = ir_icmp(b, IR_EQ, x, nop);
  MlirValue never = ir_binop(b, "or", is_self, is_nop);
  MlirBlock park = ir_block_after(entry, 0, NULL, b->loc);
  MlirBlock link = ir_block_after(park, 0, NULL, b->loc);
  ir_cond_br(b, never, park, link);
  *b = ir_at_end(park, b->loc);
  ir_store(b, rf, ir_gep_bytes(b, self, OFF_RESUME), 0);
  ir_return(b, (MlirValue){NULL});
  *b = ir_at_end(link, b->loc);
  if (async) {
    MlirBlock ask = ir_block_after(link, 0, NULL, b->loc);
    MlirBlock wait = ir_block_after(ask, 0, NULL, b->loc);
    MlirBlock ended = ir_block_after(wait, 0, NULL, b->loc);
    MlirBlock test = ir_block_after(ended, 0, NULL, b->loc);
    MlirBlock drive = ir_block_after(test, 0, NULL, b->loc);
    ir_cond_br(b, runtime_knows(b, x), ask, drive);
    *b = ir_at_end(ask, b->loc);
    ir_store(b, rf, ir_gep_bytes(b, self, OFF_RESUME), 0);
    MlirValue r = call_rt(b, "coro_rt_task_await", 2, (MlirValue[]){self, x});
    ir_cond_br(b, ir_icmp(b, IR_EQ, r, ir_const_int(b, 32, 1)), wait, test);
    *b = ir_at_end(wait, b->loc);
    ir_return(b, (MlirValue){NULL});
    *b = ir_at_end(test, b->loc);
    ir_cond_br(b, ir_icmp(b, IR_EQ, r, ir_const_int(b, 32, 2)), ended, drive);
    *b = ir_at_end(ended, b->loc);
    call_ptr(b, rf, MlirLLVMCConvSwiftTail, true, self);
    ir_return(b, (MlirValue){NULL});
    *b = ir_at_end(drive, b->loc);
  }
  if (async) {
    ir_store(b, self, ir_gep_bytes(b, x, CORO_HANDLE_PROMISE_OFFSET), 0);
    ir_store(b, rf, ir_gep_bytes(b, x, OFF_AWAITER), 0);
    ir_store(b, rf, ir_gep_bytes(b, self, OFF_RESUME), 0);
    MlirValue slot = ir_load(b, ir_gep_bytes(b, self, OFF_HANDOFF), ptr, 0);
    ir_store(b, slot, ir_gep_bytes(b, x, OFF_HANDOFF), 0);
    MlirValue f = ir_load(b, ir_gep_bytes(b, x, OFF_RESUME), ptr, 0);
    call_ptr(b, f, MlirLLVMCConvSwiftTail, true, x);
    ir_return(b, (MlirValue){NULL});
    return;
  }
  /* a scheduled task that ended since coro.done said otherwise: go on */
  MlirBlock go = ir_block_after(link, 0, NULL, b->loc);
  MlirBlock ended = ir_block_after(go, 0, NULL, b->loc);
  ir_store(b, rf, ir_gep_bytes(b, self, OFF_RESUME), 0);
  coro_publish_awaiter(b, false, x, self, go, ended); /* never on the device */
  *b = ir_at_end(go, b->loc);
  hand_off(b, self, x);
  ir_return(b, (MlirValue){NULL});
  *b = ir_at_end(ended, b->loc);
  call_ptr(b, rf, MlirLLVMCConvSwiftTail, true, self);
  ir_return(b, (MlirValue){NULL});
}

/* The tail call of coro.end.async: marks the handle done and transfers to
 * the awaiter, if any, unless coro.destroy runs the coroutine to its end
 * (as under the switch ABI, no transfer then; the destroy entry frees the
 * context):
 *
 *   llvm.func internal swifttailcc @__coro_async_finish(%h) {
 *     llvm.cond_br (h.state != 0), ^slow, ^fast
 *   ^slow:                           (the runtime knows the task)
 *     %slot = h.handoff
 *     %n = coro_rt_task_end(%h)      (clears h.resume last: once it is
 *                                     clear, another thread may destroy
 *                                     %h; returns who goes on: null, an
 *                                     async task, or another ABI's
 *                                     handle + 1)
 *     null: llvm.return; handle + 1: *%slot = handle (hand_off);
 *     a task: n.handoff = %slot; llvm.call swifttailcc musttail n.parked(%n)
 *   ^fast:
 *     h.resume = null
 *     llvm.cond_br (h.destroying != 0), ^ret, ^live
 *   ^live:
 *     %k = h.promise.continuation
 *     llvm.cond_br (%k == null), ^ret, ^awaited
 *   ^awaited:
 *     %w = h.awaiter
 *     llvm.cond_br (%w == null), ^any, ^async
 *   ^async:
 *     k.handoff = h.handoff
 *     llvm.call swifttailcc musttail %w(%k)
 *     llvm.return
 *   ^any:
 *     *h.handoff = %k                  (the entry runs it: hand_off)
 *     llvm.br ^ret
 *   ^ret:
 *     llvm.return
 *   } */
static void emit_finish(struct ir_builder *b, MlirBlock entry) {
  MlirContext ctx = b->ctx;
  MlirLocation loc = b->loc;
  MlirType ptr = ir_ptr_type(ctx), i64 = ir_int_type(ctx, 64);
  MlirValue h = mlirBlockGetArgument(entry, 0);
  MlirBlock fast = ir_block_after(entry, 0, NULL, loc);
  MlirBlock live = ir_block_after(fast, 0, NULL, loc);
  MlirBlock awaited = ir_block_after(live, 0, NULL, loc);
  MlirBlock async = ir_block_after(awaited, 0, NULL, loc);
  MlirBlock any = ir_block_after(async, 0, NULL, loc);
  MlirBlock slow = ir_block_after(any, 0, NULL, loc);
  MlirBlock some = ir_block_after(slow, 0, NULL, loc);
  MlirBlock other = ir_block_after(some, 0, NULL, loc);
  MlirBlock woken = ir_block_after(other, 0, NULL, loc);
  MlirBlock ret = ir_block_after(woken, 0, NULL, loc);

  MlirValue z = ir_null(b);
  ir_cond_br(b, runtime_knows(b, h), slow, fast);

  *b = ir_at_end(fast, loc);
  ir_store(b, z, h, 0); /* the resume entry, at CORO_HANDLE_RESUME_OFFSET (0) */
  MlirValue d = ir_load(b, ir_gep_bytes(b, h, OFF_DESTROY), i64, 0);
  MlirValue dying = ir_icmp(b, IR_NE, d, ir_const_int(b, 64, 0));
  ir_cond_br(b, dying, ret, live);

  *b = ir_at_end(live, loc);
  MlirValue k =
      ir_load(b, ir_gep_bytes(b, h, CORO_HANDLE_PROMISE_OFFSET), ptr, 0);
  ir_cond_br(b, ir_icmp(b, IR_EQ, k, z), ret, awaited);

  *b = ir_at_end(awaited, loc);
  MlirValue w = ir_load(b, ir_gep_bytes(b, h, OFF_AWAITER), ptr, 0);
  ir_cond_br(b, ir_icmp(b, IR_EQ, w, z), any, async);

  *b = ir_at_end(async, loc);
  MlirValue slot = ir_load(b, ir_gep_bytes(b, h, OFF_HANDOFF), ptr, 0);
  ir_store(b, slot, ir_gep_bytes(b, k, OFF_HANDOFF), 0);
  call_ptr(b, w, MlirLLVMCConvSwiftTail, true, k);
  ir_return(b, (MlirValue){NULL});

  *b = ir_at_end(any, loc);
  hand_off(b, h, k);
  ir_br(b, ret, 0, NULL);

  /* the runtime knows the task: it says who goes on (h may be freed once
   * it has returned: nothing of h is read after) */
  *b = ir_at_end(slow, loc);
  MlirValue rslot = ir_load(b, ir_gep_bytes(b, h, OFF_HANDOFF), ptr, 0);
  MlirValue n = call_rt(b, "coro_rt_task_end", 1, &h);
  ir_cond_br(b, ir_icmp(b, IR_EQ, n, z), ret, some);

  *b = ir_at_end(some, loc);
  MlirValue bit =
      ir_binop(b, "and", ir_ptrtoint(b, n, 64), ir_const_int(b, 64, 1));
  ir_cond_br(b, ir_icmp(b, IR_NE, bit, ir_const_int(b, 64, 0)), other, woken);

  *b = ir_at_end(other, loc); /* another ABI's: its entry runs it */
  ir_store(b, ir_gep_bytes(b, n, -1), rslot, 0);
  ir_br(b, ret, 0, NULL);

  *b = ir_at_end(woken, loc); /* an async task: continue it here */
  ir_store(b, rslot, ir_gep_bytes(b, n, OFF_HANDOFF), 0);
  call_ptr(b, ir_load(b, ir_gep_bytes(b, n, OFF_RESUME), ptr, 0),
           MlirLLVMCConvSwiftTail, true, n);
  ir_return(b, (MlirValue){NULL});

  *b = ir_at_end(ret, loc);
  ir_return(b, (MlirValue){NULL});
}

/* Runs the handle `n` that async code left for its entry, if any (from an
 * entry that cannot tail-call it). */
static void run_handoff(struct ir_builder *b, MlirValue n) {
  MlirBlock run = ir_block_after(b->block, 0, NULL, b->loc);
  MlirBlock done = ir_block_after(run, 0, NULL, b->loc);
  ir_cond_br(b, ir_icmp(b, IR_EQ, n, ir_null(b)), done, run);
  *b = ir_at_end(run, b->loc);
  call_ptr(b, ir_load(b, n, ir_ptr_type(b->ctx), 0), MlirLLVMCConvFast, false,
           n);
  ir_br(b, done, 0, NULL);
  *b = ir_at_end(done, b->loc);
}

/* Ends `b`'s block: runs the handle `n` that async code left for its
 * entry, if any, by a musttail call of its resume entry, and returns (the
 * entry's own return when there is none). */
static void tail_handoff(struct ir_builder *b, MlirValue n) {
  MlirBlock next = ir_block_after(b->block, 0, NULL, b->loc);
  MlirBlock ret = ir_block_after(next, 0, NULL, b->loc);
  ir_cond_br(b, ir_icmp(b, IR_EQ, n, ir_null(b)), ret, next);
  struct ir_builder t = ir_at_end(next, b->loc);
  /* the resume entry is at CORO_HANDLE_RESUME_OFFSET (0) */
  call_ptr(&t, ir_load(&t, n, ir_ptr_type(b->ctx), 0), MlirLLVMCConvFast, true,
           n);
  ir_return(&t, (MlirValue){NULL});
  t = ir_at_end(ret, b->loc);
  ir_return(&t, (MlirValue){NULL});
}

/* Route B's entered forms of the dispatch functions (CORO_ENTERED_ATTR):
 * what a resume entry runs when it has inlined the continuation that tail-
 * calls `D`. Each is fastcc and takes D's arguments; one that may hand off
 * gives the task (its first) a handoff slot in its own frame for D, calls D
 * and runs what D left there, or, when it takes more than the task (and
 * so cannot tail-call a resume entry), returns it for the resume entry to
 * run (null when nothing):
 *
 *   llvm.func internal fastcc @"D.entered"(%self) {
 *     enter_async(%slot, %self, D): llvm.call swifttailcc @D(%self)
 *     the handle left in %slot, if any: llvm.call fastcc musttail
 *   }
 *   llvm.func internal fastcc @"D.entered"(%self, %x, %rf) -> !llvm.ptr {
 *     enter_async(%slot, %self, D): llvm.call swifttailcc @D(%self, ...)
 *     llvm.return (the handle left in %slot)
 *   }
 *
 * __coro_async_park never hands off: its entered form only calls it, so
 * that the resume entry's fast path (a yield that parks where it was
 * resumed) has no slot and no frame; __coro_async_finish's runs what it
 * left itself, so that the resume entry reaches it by a tail call. */
static void emit_entered(struct ir_builder *b, MlirBlock entry,
                         const char *dispatch, bool slot) {
  intptr_t n = mlirBlockGetNumArguments(entry);
  MlirValue args[3];
  assert(n <= 3 && "a dispatch function of more arguments");
  for (intptr_t i = 0; i < n; ++i)
    args[i] = mlirBlockGetArgument(entry, i);
  MlirAttribute d = ir_sym_ref(b->ctx, dispatch);
  if (!slot) {
    ir_call_cc(b, d, MlirLLVMCConvSwiftTail, 0, n, args, (MlirType){NULL});
    ir_return(b, (MlirValue){NULL});
    return;
  }
  MlirValue s = handoff_slot(b);
  ir_store(b, ir_null(b), s, 0);
  ir_store(b, s, ir_gep_bytes(b, args[0], OFF_HANDOFF), 0);
  ir_call_cc(b, d, MlirLLVMCConvSwiftTail, 0, n, args, (MlirType){NULL});
  MlirValue left = ir_load(b, s, ir_ptr_type(b->ctx), 0);
  if (n == 1)
    tail_handoff(b, left);
  else
    ir_return(b, left);
}

static void emit_park_entered(struct ir_builder *b, MlirBlock entry) {
  emit_entered(b, entry, "__coro_async_park", false);
}
static void emit_await_entered(struct ir_builder *b, MlirBlock entry) {
  emit_entered(b, entry, "__coro_async_await", true);
}
static void emit_await_any_entered(struct ir_builder *b, MlirBlock entry) {
  emit_entered(b, entry, "__coro_async_await_any", true);
}
static void emit_finish_entered(struct ir_builder *b, MlirBlock entry) {
  emit_entered(b, entry, "__coro_async_finish", true);
}
static void emit_group_await_entered(struct ir_builder *b, MlirBlock entry) {
  emit_entered(b, entry, "__coro_async_group_await", true);
}

/* Route B: runs the parked continuation `f` of the task `h` (the runtime
 * never saw it, or has just handed it to this thread) from a resume entry,
 * with a handoff slot; returns what it left there:
 *
 *   llvm.func internal fastcc @__coro_async_run_parked(%h, %f) -> !llvm.ptr {
 *     llvm.return enter_async(%slot, %h, %f)
 *   }
 *
 * A resume entry's call of it is marked coro.continuation_of: --coro-split
 * calls the continuation's entered form directly instead (the slot goes
 * to the dispatch functions that hand off). */
static void emit_run_parked(struct ir_builder *b, MlirBlock entry) {
  MlirValue h = mlirBlockGetArgument(entry, 0);
  MlirValue f = mlirBlockGetArgument(entry, 1);
  ir_return(b, enter_async(b, handoff_slot(b), h, f));
}

/* `llvm.intr.assume`(h.destroying == 0): a task being destroyed runs to
 * its end from the destroy entry and is never resumed. Said to LLVM, the
 * check the body makes after each suspension folds away once the
 * continuation is inlined (route B), and costs nothing otherwise (the
 * assumption emits no code). */
static void assume_live(struct ir_builder *b, MlirValue h) {
  MlirValue d =
      ir_load(b, ir_gep_bytes(b, h, OFF_DESTROY), ir_int_type(b->ctx, 64), 0);
  ir_assume(b, ir_icmp(b, IR_EQ, d, ir_const_int(b, 64, 0)));
}

/* At the end of `b`'s block, for a task `h` whose state word is not 0:
 *   %r = coro_rt_task_enter(%h)
 *   null: llvm.br ^go (nobody else runs it, or it was handed to this
 *         thread)
 *   1: llvm.return (an awaiter that could not see the task is scheduled
 *      resumed it: it waits for the end instead)
 *   else: llvm.call fastcc musttail r.resume(%r) (it ended meanwhile: that
 *         awaiter goes on) */
static void enter_runtime(struct ir_builder *b, MlirValue h, MlirBlock go) {
  MlirBlock other = ir_block_after(b->block, 0, NULL, b->loc);
  MlirBlock instead = ir_block_after(other, 0, NULL, b->loc);
  MlirBlock skip = ir_block_after(instead, 0, NULL, b->loc);
  MlirValue r = call_rt(b, "coro_rt_task_enter", 1, &h);
  ir_cond_br(b, ir_icmp(b, IR_EQ, r, ir_null(b)), go, other);
  struct ir_builder t = ir_at_end(other, b->loc);
  ir_cond_br(
      &t, ir_icmp(&t, IR_EQ, ir_ptrtoint(&t, r, 64), ir_const_int(&t, 64, 1)),
      skip, instead);
  t = ir_at_end(skip, b->loc);
  ir_return(&t, (MlirValue){NULL});
  t = ir_at_end(instead, b->loc);
  call_ptr(&t, ir_load(&t, r, ir_ptr_type(b->ctx), 0), MlirLLVMCConvFast, true,
           r);
  ir_return(&t, (MlirValue){NULL});
}

/* Route B: the resume entry of a task the runtime has seen (its seen
 * entry, at CORO_TASK_SEEN_ENTRY_OFFSET, which the runtime puts in the
 * handle's place; the word may be 0 again after a park):
 *
 *   llvm.func internal fastcc @__coro_async_resume_known(%h) {
 *     h.state == 0: run it, as below, without the runtime
 *     %r = coro_rt_task_enter(%h)
 *     null: (nobody else runs it, or it was handed to this thread)
 *       %n = llvm.call fastcc @__coro_async_run_parked(%h, h.parked)
 *       %n != null: llvm.call fastcc musttail n.resume(%n)
 *     1: llvm.return (an awaiter that could not see the task is
 *        scheduled resumed it: it waits for the end instead)
 *     else: llvm.call fastcc musttail r.resume(%r) (it ended meanwhile:
 *           that awaiter goes on)
 *   } */
static void emit_resume_known(struct ir_builder *b, MlirBlock entry) {
  MlirValue h = mlirBlockGetArgument(entry, 0);
  MlirBlock ask = ir_block_after(entry, 0, NULL, b->loc);
  MlirBlock run = ir_block_after(ask, 0, NULL, b->loc);
  /* the word may be 0 again (a park clears `running`) */
  ir_cond_br(b, runtime_knows(b, h), ask, run);
  struct ir_builder t = ir_at_end(ask, b->loc);
  enter_runtime(&t, h, run);
  t = ir_at_end(run, b->loc);
  assume_live(&t, h);
  MlirValue args[2] = {
      h, ir_load(&t, ir_gep_bytes(&t, h, OFF_RESUME), ir_ptr_type(b->ctx), 0)};
  tail_handoff(&t,
               ir_call_cc(&t, ir_sym_ref(b->ctx, "__coro_async_run_parked"),
                          MlirLLVMCConvFast, 0, 2, args, ir_ptr_type(b->ctx)));
}

/* coro.group_await in an async coroutine:
 *
 *   llvm.func internal swifttailcc @__coro_async_group_await(%self, %g, %rf) {
 *     self.parked = %rf
 *     %r = coro_rt_group_park(%g, %self)
 *     %r == 0: llvm.call swifttailcc musttail %rf(%self)  (all have ended)
 *     else llvm.return              (the last task's end resumes %self)
 *   } */
static void emit_group_await(struct ir_builder *b, MlirBlock entry) {
  MlirValue self = mlirBlockGetArgument(entry, 0);
  MlirValue g = mlirBlockGetArgument(entry, 1);
  MlirValue rf = mlirBlockGetArgument(entry, 2);
  MlirBlock go = ir_block_after(entry, 0, NULL, b->loc);
  MlirBlock wait = ir_block_after(go, 0, NULL, b->loc);
  ir_store(b, rf, ir_gep_bytes(b, self, OFF_RESUME), 0);
  MlirValue r = call_rt(b, "coro_rt_group_park", 2, (MlirValue[]){g, self});
  ir_cond_br(b, ir_icmp(b, IR_EQ, r, ir_const_int(b, 32, 0)), go, wait);
  *b = ir_at_end(go, b->loc);
  call_ptr(b, rf, MlirLLVMCConvSwiftTail, true, self);
  ir_return(b, (MlirValue){NULL});
  *b = ir_at_end(wait, b->loc);
  ir_return(b, (MlirValue){NULL});
}

static void emit_await_async(struct ir_builder *b, MlirBlock entry) {
  emit_await(b, entry, true);
}

static void emit_await_any(struct ir_builder *b, MlirBlock entry) {
  emit_await(b, entry, false);
}

static const struct shared_fn {
  const char *name;
  int nargs; /* all !llvm.ptr */
  bool returns_ptr;
  int cconv; /* MlirLLVMCConv */
  void (*emit)(struct ir_builder *b, MlirBlock entry);
  /* route B only: made in a module --coro-split splits */
  bool route_b;
  /* its entered form (CORO_ENTERED_ATTR), route B only */
  const char *entered;
} shared_fns[] = {
    {"__coro_async_project", 1, true, MlirLLVMCConvC, emit_project, false,
     NULL},
    {"__coro_async_park", 2, false, MlirLLVMCConvSwiftTail, emit_park, false,
     "__coro_async_park.entered"},
    {"__coro_async_await", 3, false, MlirLLVMCConvSwiftTail, emit_await_async,
     false, "__coro_async_await.entered"},
    {"__coro_async_await_any", 3, false, MlirLLVMCConvSwiftTail, emit_await_any,
     false, "__coro_async_await_any.entered"},
    {"__coro_async_finish", 1, false, MlirLLVMCConvSwiftTail, emit_finish,
     false, "__coro_async_finish.entered"},
    {"__coro_async_group_await", 3, false, MlirLLVMCConvSwiftTail,
     emit_group_await, false, "__coro_async_group_await.entered"},
    {"__coro_async_park.entered", 2, false, MlirLLVMCConvFast,
     emit_park_entered, true, NULL},
    {"__coro_async_await.entered", 3, true, MlirLLVMCConvFast,
     emit_await_entered, true, NULL},
    {"__coro_async_await_any.entered", 3, true, MlirLLVMCConvFast,
     emit_await_any_entered, true, NULL},
    {"__coro_async_finish.entered", 1, false, MlirLLVMCConvFast,
     emit_finish_entered, true, NULL},
    {"__coro_async_group_await.entered", 3, true, MlirLLVMCConvFast,
     emit_group_await_entered, true, NULL},
    {"__coro_async_run_parked", 2, true, MlirLLVMCConvFast, emit_run_parked,
     true, NULL},
    {"__coro_async_resume_known", 1, false, MlirLLVMCConvFast,
     emit_resume_known, true, NULL},
};

/* Builds the shared functions the module lacks, located at `coroutine`. */
static void ensure_shared(MlirOperation module, MlirOperation coroutine) {
  MlirContext ctx = mlirOperationGetContext(coroutine);
  MlirType ptr = ir_ptr_type(ctx);
  MlirType args[3] = {ptr, ptr, ptr};
  bool route_b = coro_route_b(module);
  for (size_t i = 0; i < sizeof shared_fns / sizeof *shared_fns; ++i) {
    const struct shared_fn *f = &shared_fns[i];
    if ((f->route_b && !route_b) ||
        !mlirOperationIsNull(coro_lookup_symbol(
            module, mlirStringRefCreateFromCString(f->name))))
      continue;
    MlirType result = f->returns_ptr ? ptr : (MlirType){NULL};
    struct ir_func_spec spec = {.result = result,
                                .nargs = f->nargs,
                                .args = args,
                                .linkage = MlirLLVMLinkageInternal,
                                .cconv = f->cconv};
    MlirLocation loc;
    MlirBlock entry =
        gen_func(module, coroutine, f->name, strlen(f->name), &spec, &loc);
    struct ir_builder b = ir_at_end(entry, loc);
    f->emit(&b, entry);
    MlirOperation op = mlirBlockGetParentOperation(entry);
    if (route_b && f->entered)
      mlirOperationSetAttributeByName(
          op, mlirStringRefCreateFromCString(CORO_ENTERED_ATTR),
          ir_sym_ref(ctx, f->entered));
    /* the way of tasks the runtime knows stays out of the resume entries,
     * whose fast path then needs no frame */
    if (f->emit == emit_resume_known)
      mlirOperationSetAttributeByName(
          op, mlirStringRefCreateFromCString("no_inline"),
          mlirUnitAttrGet(ctx));
  }
}

/*===--- layout ------------------------------------------------------------*/

/*===--- generated functions -----------------------------------------------*/

/* The location of what is generated under `name` for the coroutine. */
static MlirLocation gen_loc(struct coro_fn *fn, const struct coro_str *name) {
  return ir_generated_loc(mlirOperationGetLocation(fn->func),
                          coro_str_cstr(name));
}

/* The async function pointer record, <{relative pointer (unused: 0),
 * initial context size}>; CoroSplit writes the full size there:
 *
 *   llvm.mlir.global internal @"f.coro.fp"() {alignment = 8 : i64}
 *       : !llvm.struct<packed (i32, i32)> {
 *     %u = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>
 *     %a = llvm.insertvalue (0 : i32), %u[0]
 *     %b = llvm.insertvalue (SIZE : i32), %a[1]
 *     llvm.return %b
 *   } */
static void emit_record(struct coro_fn *fn, struct as_state *st,
                        uint64_t size) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirLocation loc = gen_loc(fn, &st->record);
  MlirType i32 = ir_int_type(ctx, 32);
  MlirType rec =
      mlirLLVMStructTypeLiteralGet(ctx, 2, (MlirType[]){i32, i32}, true);
  struct ir_global_spec spec = {
      .name = mlirStringRefCreate(st->record.data, st->record.len),
      .type = rec,
      .linkage = MlirLLVMLinkageInternal,
      .align = 8};
  MlirOperation g = ir_llvm_global(fn->module, &spec, loc);

  MlirBlock body = ir_new_block(mlirOperationGetRegion(g, 0), 0, NULL, loc);
  struct ir_builder b = ir_at_end(body, loc);
  MlirValue v = ir_val(&b, "llvm.mlir.undef", 0, NULL, rec);
  v = ir_insertvalue(&b, v, ir_const_int(&b, 32, 0), 0);
  v = ir_insertvalue(&b, v, ir_const_int(&b, 32, (long long)size), 1);
  ir_return(&b, v);
}

/* An entry of the handle named `name`: internal fastcc void(ptr h), as
 * every ABI's; returns its entry block (and its location in *loc). */
static MlirBlock handle_entry(struct coro_fn *fn, const struct coro_str *name,
                              MlirLocation *loc) {
  MlirType ptr = ir_ptr_type(mlirOperationGetContext(fn->func));
  struct ir_func_spec spec = {.nargs = 1,
                              .args = &ptr,
                              .linkage = MlirLLVMLinkageInternal,
                              .cconv = MlirLLVMCConvFast};
  return gen_func(fn->module, fn->func, coro_str_cstr(name), name->len, &spec,
                  loc);
}

/* At the end of `b`'s block: runs the parked continuation of `h` with
 * `slot` as its handoff slot, then what it left there (a musttail call of
 * its resume entry), and returns. */
static void run_parked(struct ir_builder *b, const struct as_state *st,
                       MlirValue slot, MlirValue h) {
  MlirContext ctx = b->ctx;
  MlirType ptr = ir_ptr_type(ctx);
  assume_live(b, h);
  MlirValue f = ir_load(b, ir_gep_bytes(b, h, OFF_RESUME), ptr, 0);
  MlirValue n = enter_async(b, slot, h, f);
  /* the call of the parked function is the op before n's load */
  MlirOperation call = mlirBlockGetFirstOperation(b->block);
  while (!mlirOperationEqual(mlirOperationGetNextInBlock(call),
                             mlirOpResultGetOwner(n)))
    call = mlirOperationGetNextInBlock(call);
  mlirOperationSetAttributeByName(
      call, mlirStringRefCreateFromCString(CORO_CONTINUATION_OF_ATTR),
      sym_of(ctx, &st->body));
  tail_handoff(b, n);
}

/* Route B's resume entry: the same, for a task the runtime never saw (its
 * seen entry, __coro_async_resume_known, is the resume entry from the
 * runtime's first sight of it on), with the slot left to the dispatch
 * functions that hand off, so that a resume that only parks again touches
 * no stack:
 *
 *   llvm.func internal fastcc @"f.coro.resume"(%h) {
 *     llvm.intr.assume (h.state == 0)
 *     llvm.intr.assume (h.destroying == 0)
 *     %n = llvm.call fastcc @__coro_async_run_parked(%h, h.parked)
 *         {coro.continuation_of = @"f.coro.async"}
 *     %n != null: llvm.call fastcc musttail n.resume(%n)
 *   }
 *
 * --coro-split makes the marked call a tail call of the continuation's
 * entered form (CORO_ENTERED_ATTR), and LLVM inlines it: a yield's resume
 * is the C state machine's step. */
static void fill_resume_b(const struct as_state *st, MlirBlock entry,
                          MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue h = mlirBlockGetArgument(entry, 0);
  /* the runtime never saw the task: once it does, the handle's resume
   * entry is __coro_async_resume_known (its seen entry). Said to LLVM, the
   * park's look at the word folds away on a resume that only parks. */
  ir_assume(&b, ir_icmp(&b, IR_EQ, state_word(&b, h), ir_const_int(&b, 64, 0)));
  assume_live(&b, h);
  MlirValue args[2] = {
      h, ir_load(&b, ir_gep_bytes(&b, h, OFF_RESUME), ir_ptr_type(ctx), 0)};
  MlirValue n = ir_call_cc(&b, ir_sym_ref(ctx, "__coro_async_run_parked"),
                           MlirLLVMCConvFast, 0, 2, args, ir_ptr_type(ctx));
  mlirOperationSetAttributeByName(
      mlirOpResultGetOwner(n),
      mlirStringRefCreateFromCString(CORO_CONTINUATION_OF_ATTR),
      sym_of(ctx, &st->body));
  tail_handoff(&b, n);
}

/* The handle's resume entry (fastcc, as the switch ABI's), one per
 * coroutine:
 *
 *   llvm.func internal fastcc @"f.coro.resume"(%h) {
 *     %slot = llvm.alloca ptr
 *     llvm.cond_br (h.state != 0), ^ask, ^run
 *   ^run:                            (the runtime never saw it)
 *     llvm.intr.assume (h.destroying == 0)
 *     %n = enter_async(%slot, %h, h.parked)  (the call of h.parked marked
 *                                  coro.continuation_of = @"f.coro.async")
 *     %n == null: llvm.return; else llvm.call fastcc musttail n.resume(%n)
 *   ^ask:
 *     %r = coro_rt_task_enter(%h)
 *     null: the same as ^run (a copy: on ^run LLVM knows the state word
 *           is 0, and folds the park's look at it when nothing between
 *           can change it)
 *     1: llvm.return (an awaiter that could not see the task is scheduled
 *        resumed it: it waits for the end instead)
 *     else: llvm.call fastcc musttail r.resume(%r) (it ended meanwhile:
 *           that awaiter goes on)
 *   }
 *
 * The parked function is one of f's continuations: route B, which makes
 * them, calls them directly there (split_direct_continuation_calls), and LLVM
 * inlines the continuation into the entry. */
static void fill_resume(const struct as_state *st, MlirBlock entry,
                        MlirLocation loc) {
  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue h = mlirBlockGetArgument(entry, 0);
  MlirValue slot = handoff_slot(&b);
  MlirBlock ask = ir_block_after(entry, 0, NULL, loc);
  MlirBlock known = ir_block_after(ask, 0, NULL, loc);
  MlirBlock run = ir_block_after(known, 0, NULL, loc);
  ir_cond_br(&b, runtime_knows(&b, h), ask, run);
  b = ir_at_end(ask, loc);
  enter_runtime(&b, h, known);
  b = ir_at_end(known, loc);
  run_parked(&b, st, slot, h);
  b = ir_at_end(run, loc);
  run_parked(&b, st, slot, h);
}

/* The destroy entry: a coroutine that has not ended is resumed with its
 * destroying flag set (it runs its cleanup to coro.end); then the context
 * is freed (coro_rt_task_free takes the handle; coro.free_fn gets the
 * block, prefix included):
 *
 *   llvm.func internal fastcc @"f.coro.destroy"(%h: !llvm.ptr) {
 *     llvm.cond_br (h.resume != null), ^run, ^free
 *   ^run:
 *     h.destroying = 1
 *     enter_async(%slot, %h, h.parked), then run what it left (run_handoff)
 *     llvm.br ^free
 *   ^free:
 *     call @free_fn(%h or %h - 32)
 *     llvm.return
 *   } */
static void fill_destroy(const struct as_state *st, MlirBlock entry,
                         MlirLocation loc) {
  MlirType ptr = ir_ptr_type(mlirLocationGetContext(loc));
  MlirBlock run = ir_block_after(entry, 0, NULL, loc);
  MlirBlock free_blk = ir_block_after(run, 0, NULL, loc);
  MlirValue h = mlirBlockGetArgument(entry, 0);

  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue slot = handoff_slot(&b);
  MlirValue z = ir_null(&b);
  MlirValue r = ir_load(&b, h, ptr, 0); /* at CORO_HANDLE_RESUME_OFFSET (0) */
  ir_cond_br(&b, ir_icmp(&b, IR_NE, r, z), run, free_blk);

  b = ir_at_end(run, loc);
  MlirValue dp = ir_gep_bytes(&b, h, OFF_DESTROY);
  ir_store(&b, ir_const_int(&b, 64, 1), dp, 0);
  MlirValue f = ir_load(&b, ir_gep_bytes(&b, h, OFF_RESUME), ptr, 0);
  run_handoff(&b, enter_async(&b, slot, h, f));
  ir_br(&b, free_blk, 0, NULL);

  b = ir_at_end(free_blk, loc);
  MlirValue base = ir_gep_bytes(&b, h, -PREFIX);
  MlirValue arg = st->runtime_alloc ? h : base;
  ir_call(&b, st->alloc.free_fn, st->alloc.free_is_func, 1, &arg,
          (MlirType){NULL});
  ir_return(&b, (MlirValue){NULL});
}

/* Zeroes the task prefix of the block `base` (the handle is `base` +
 * PREFIX),
 * which coro.alloc_fn gives uninitialized. */
static void zero_prefix(struct ir_builder *b, MlirValue base) {
  _Static_assert(PREFIX % 8 == 0, "the prefix is made of 8-byte words");
  MlirValue zi = ir_const_int(b, 64, 0);
  for (int at = 0; at < PREFIX; at += 8)
    ir_store(b, zi, at ? ir_gep_bytes(b, base, at) : base, 8);
}

/* The entry keeps the coroutine's name and visibility: an ordinary
 * function that allocates the context, fills its header and arguments,
 * and runs the body until it first suspends:
 *
 *   func.func @f(%a0: A0, ...) -> !llvm.ptr {
 *     %sz = llvm.load volatile @"f.coro.fp"[1]  (the size CoroSplit wrote)
 *     %h = call @coro_rt_task_alloc(%sz)       (zeroed, prefix in front)
 *       or: %base = call @alloc_fn(%sz + 32), %h = %base + 32, prefix = 0
 *     h.resume = @__coro_async_resume, h.destroy = @"f.coro.destroy"
 *     h.promise = {null, zero}, h.args = {%a0 as storage, ...}
 *     %fn = func.constant @"f.coro.async"
 *     enter_async(%slot, %h, %fn)              (through a cast to !llvm.ptr)
 *     run what it left (run_handoff)
 *     func.return %h
 *   } */
static void fill_entry(const struct as_state *st, MlirBlock entry,
                       MlirLocation loc, bool route_b) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType ptr = ir_ptr_type(ctx), i32 = ir_int_type(ctx, 32),
           i64 = ir_int_type(ctx, 64);
  struct ir_builder b = ir_at_end(entry, loc);

  /* the context size CoroSplit wrote into the record */
  MlirType rec =
      mlirLLVMStructTypeLiteralGet(ctx, 2, (MlirType[]){i32, i32}, true);
  MlirValue fp = addr_of(&b, sym_of(ctx, &st->record));
  MlirValue sz = load_volatile(&b, ir_gep_field(&b, fp, rec, 1), i32, 4);
  MlirValue sz64 = ir_val(&b, "llvm.zext", 1, &sz, i64);
  MlirValue total = ir_binop(&b, "add", sz64, ir_const_int(&b, 64, PREFIX));
  MlirValue h, z;
  if (st->runtime_alloc) {
    /* coro_rt_task_alloc: a zeroed block, the prefix in front. */
    h = ir_call(&b, st->alloc.alloc_fn, st->alloc.alloc_is_func, 1, &sz64, ptr);
    z = ir_null(&b);
  } else {
    MlirValue base = ir_call(&b, st->alloc.alloc_fn, st->alloc.alloc_is_func, 1,
                             &total, ptr);
    h = ir_gep_bytes(&b, base, PREFIX);
    z = ir_null(&b);
    zero_prefix(&b, base);
  }

  /* route B: the resume entry once the runtime has seen the task (the
   * handle's own assumes it never did) */
  if (route_b)
    ir_store(&b, ir_addressof(&b, "__coro_async_resume_known"),
             ir_gep_bytes(&b, h, OFF_SEEN), 0);

  /* the header: resume and destroy entries, the promise at 16 whatever its
   * own alignment (see coro_promise_field) */
  ir_store(&b, addr_of(&b, sym_of(ctx, &st->resume)), h, 0);
  MlirValue de = addr_of(&b, sym_of(ctx, &st->destroy));
  ir_store(&b, de, ir_gep_field(&b, h, st->ctx, H_DESTROY), 0);
  MlirValue pp = ir_gep_bytes(&b, h, CORO_HANDLE_PROMISE_OFFSET);
  ir_store(&b, z, pp, 0);
  MlirValue v0 = ir_zero(&b, st->S);
  ir_store(&b, v0, ir_gep_field(&b, pp, coro_promise_type(ctx, st->S), 1),
           coro_value_align(st->S));

  /* the arguments, at most 16-aligned as the handle is (the body reads
   * them back with the same alignment) */
  for (intptr_t i = 0; i < mlirBlockGetNumArguments(entry); ++i) {
    MlirValue a = mlirBlockGetArgument(entry, i);
    MlirValue p = ir_gep_path(&b, h, st->ctx, 2, (int[]){H_ARGS, (int)i});
    if (!mlirTypeIsNull(st->byval[i])) { /* the bytes, not the pointer */
      unsigned al = coro_value_align(st->byval[i]);
      ir_store(&b, ir_load(&b, a, st->byval[i], al), p, al);
      continue;
    }
    MlirValue v = coro_to_storage(&b, a);
    ir_store(&b, v, p, coro_value_align(mlirValueGetType(v)));
  }

  MlirType body_type = mlirFunctionTypeGet(ctx, 1, &ptr, 0, NULL);
  MlirNamedAttribute callee = ir_named(ctx, "value", sym_of(ctx, &st->body));
  MlirValue body = mlirOperationGetResult(
      ir_op(&b, "func.constant", 0, NULL, 1, &body_type, 1, &callee, 0, NULL),
      0);
  MlirValue slot = handoff_slot(&b);
  if (st->uses_self) /* the runtime knows it runs: it may submit itself */
    call_rt(&b, "coro_rt_task_enter", 1, &h); /* null: not scheduled yet */
  run_handoff(&b, enter_async(&b, slot, h, ir_cast(&b, body, ptr)));
  ir_op(&b, "func.return", 1, &h, 0, NULL, 0, NULL, 0, NULL);
}

/* The bodies of the resume and destroy entries and of the entry, made once
 * every coroutine of the run is lowered (coro_defer_body): each reads the
 * coroutine's state, which as_finish frees after them. */
enum body_kind { BODY_RESUME, BODY_DESTROY, BODY_ENTRY };

struct as_body {
  const struct as_state *st;
  enum body_kind kind;
  MlirBlock entry;
  MlirLocation loc;
  bool route_b; /* the module is route B's (coro_route_b) */
};

static void fill_body(void *job) {
  const struct as_body *body = job;
  switch (body->kind) {
  case BODY_RESUME:
    if (body->route_b)
      fill_resume_b(body->st, body->entry, body->loc);
    else
      fill_resume(body->st, body->entry, body->loc);
    break;
  case BODY_DESTROY:
    fill_destroy(body->st, body->entry, body->loc);
    break;
  case BODY_ENTRY:
    fill_entry(body->st, body->entry, body->loc, body->route_b);
    break;
  }
}

static void defer_body(struct coro_fn *fn, const struct as_state *st,
                       enum body_kind kind, MlirBlock entry, MlirLocation loc) {
  struct as_body *body = ir_xmalloc(sizeof *body);
  *body = (struct as_body){st, kind, entry, loc, coro_route_b(fn->module)};
  coro_defer_body(fn, fill_body, body);
}

/* The handle's resume or destroy entry (`kind`) named `name`. */
static void emit_handle_entry(struct coro_fn *fn, const struct as_state *st,
                              const struct coro_str *name,
                              enum body_kind kind) {
  MlirLocation loc;
  MlirBlock entry = handle_entry(fn, name, &loc);
  defer_body(fn, st, kind, entry, loc);
}

static void emit_entry(struct coro_fn *fn, const struct as_state *st,
                       MlirType fty, const struct coro_str *visibility) {
  MlirLocation loc = gen_loc(fn, &st->name);
  MlirBlock entry =
      coro_entry_func(fn->module, &st->name, fty, visibility, loc);
  coro_move_signature_attrs(fn->func, mlirBlockGetParentOperation(entry));
  defer_body(fn, st, BODY_ENTRY, entry, loc);
}

/*===--- the body ----------------------------------------------------------*/

/* coro.suspend.async with `dispatch`(self, extra..., resume fn) as its tail
 * call; returns whether the coroutine is being destroyed once resumed. */
static MlirValue suspend(struct as_state *st, struct ir_builder *b,
                         const char *dispatch, MlirValue extra) {
  MlirContext ctx = b->ctx;
  MlirValue rf =
      ir_intrinsic(b, "llvm.coro.async.resume", 0, NULL, ir_ptr_type(ctx));
  MlirValue ops[7];
  int n = 0;
  ops[n++] = ir_const_int(b, 32, 0);
  ops[n++] = rf;
  ops[n++] = ir_addressof(b, "__coro_async_project");
  ops[n++] = ir_addressof(b, dispatch);
  ops[n++] = st->self;
  if (!mlirValueIsNull(extra))
    ops[n++] = extra;
  ops[n++] = rf;
  call_intrinsic(b, suspend_async, n, ops);
  MlirValue d = ir_load(b, ir_gep_bytes(b, st->self, OFF_DESTROY),
                        ir_int_type(ctx, 64), 8);
  return ir_icmp(b, IR_NE, d, ir_const_int(b, 64, 0));
}

static MlirLogicalResult publish(struct as_state *st, struct ir_builder *b,
                                 MlirOperation op, MlirValue v) {
  MlirValue s = coro_published(b, op, v, st->S);
  if (mlirValueIsNull(s))
    return mlirLogicalResultFailure();
  ir_store(b, s, coro_promise_field(b, st->self, st->S, 1),
           coro_value_align(st->S));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult as_yield(struct coro_fn *fn, MlirOperation op) {
  struct as_state *st = fn->abi_state;
  struct ir_builder b = ir_before(op);
  if (mlirOperationGetNumResults(op) > 1)
    return coro_error_at(op, "the async ABI passes no value on resume");
  if (mlirOperationGetNumOperands(op) == 1 &&
      mlirLogicalResultIsFailure(
          publish(st, &b, op, mlirOperationGetOperand(op, 0))))
    return mlirLogicalResultFailure();
  MlirValue destroying =
      suspend(st, &b, "__coro_async_park", (MlirValue){NULL});
  coro_yield_continue(&b, op, destroying, st->end, (MlirValue){NULL});
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult as_await(struct coro_fn *fn, MlirOperation op) {
  struct as_state *st = fn->abi_state;
  struct ir_builder b = ir_before(op);
  MlirValue aw = mlirOperationGetOperand(op, 0);
  MlirAttribute abi = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_AWAITED_ABI_ATTR));
  bool async = !mlirAttributeIsNull(abi) && mlirAttributeIsAString(abi) &&
               coro_ref_eq(mlirStringAttrGetValue(abi), "async");
  MlirBlock next, check;
  MlirBlock susp = coro_await_split(&b, op, aw, &next, &check);
  if (async) {
    /* An async task the runtime knows may have ended on another thread:
     * having seen its resume entry clear (the last thing its end does),
     * the awaiter reads its result and may destroy it after an acquire
     * the runtime makes (coro_rt_task_acquire), which orders those
     * accesses after the end in the C11 model and for ThreadSanitizer. */
    MlirOperation br = mlirBlockGetTerminator(check);
    MlirBlock seen = ir_block_after(check, 0, NULL, b.loc);
    mlirOperationSetSuccessor(br, 0, seen);
    struct ir_builder f = ir_at_end(seen, b.loc);
    when_known(&f, aw, "coro_rt_task_acquire");
    ir_br(&f, next, 0, NULL);
  }
  struct ir_builder s = ir_at_end(susp, b.loc);
  MlirValue destroying = suspend(
      st, &s, async ? "__coro_async_await" : "__coro_async_await_any", aw);
  /* continue at `check`, or at the end when being destroyed */
  ir_cond_br(&s, destroying, st->end, check);
  MlirLogicalResult res = coro_await_result(op, aw, next);
  mlirOperationDestroy(op);
  return res;
}

/* coro.group_await: a suspension the group's last end resumes; then the
 * number of its tasks that failed (coro_rt_group_result, which also makes
 * the group ready for the next tasks). Being destroyed meanwhile goes to
 * the end, as after an await. */
static MlirLogicalResult as_group_await(struct coro_fn *fn, MlirOperation op) {
  struct as_state *st = fn->abi_state;
  struct ir_builder b = ir_before(op);
  MlirValue g = mlirOperationGetOperand(op, 0);
  MlirValue destroying = suspend(st, &b, "__coro_async_group_await", g);
  MlirBlock next = ir_split_after(op);
  ir_cond_br(&b, destroying, st->end, next);
  struct ir_builder n = ir_before(mlirBlockGetFirstOperation(next));
  MlirValue failed = call_rt(&n, "coro_rt_group_result", 1, &g);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), failed);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult as_end(struct coro_fn *fn, MlirOperation op) {
  struct as_state *st = fn->abi_state;
  struct ir_builder b = ir_before(op);
  MlirOperation ret = coro_end_return(op);
  if (mlirOperationIsNull(ret))
    return mlirLogicalResultFailure();
  if (mlirOperationGetNumOperands(op) == 2 &&
      mlirLogicalResultIsFailure(
          publish(st, &b, op, mlirOperationGetOperand(op, 1))))
    return mlirLogicalResultFailure();
  ir_br(&b, st->end, 0, NULL);
  mlirOperationDestroy(ret);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult as_self(struct coro_fn *fn, MlirOperation op) {
  struct as_state *st = fn->abi_state;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), st->self);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

/* The one end: coro.end.async with __coro_async_finish(self) as its tail
 * call. CoroSplit replaces what follows it with the return. */
static void emit_end_block(struct coro_fn *fn, struct as_state *st) {
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  st->end = ir_new_block(mlirOperationGetRegion(fn->func, 0), 0, NULL, loc);
  struct ir_builder b = ir_at_end(st->end, loc);
  MlirValue ops[4];
  ops[0] = st->hdl;
  ops[1] = ir_const_int(&b, 1, 0);
  ops[2] = ir_addressof(&b, "__coro_async_finish");
  ops[3] = st->self;
  /* LLVM 22's coro.end.async returns nothing (older LLVMs: i1). */
  call_intrinsic(&b, end_async, 4, ops);
  ir_op(&b, "func.return", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
}

/* Replaces the body's arguments by loads from the context, and coro.begin
 * by coro.id.async and coro.begin after them. */
static void rewrite_body(struct coro_fn *fn, struct as_state *st,
                         uint64_t size) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn->func, 0));
  intptr_t n = mlirBlockGetNumArguments(entry);
  st->self = mlirBlockAddArgument(entry, ir_ptr_type(ctx),
                                  mlirOperationGetLocation(fn->func));
  struct ir_builder b = ir_before(mlirBlockGetFirstOperation(entry));
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    MlirType s = coro_storage_type(t);
    MlirValue at =
        ir_gep_path(&b, st->self, st->ctx, 2, (int[]){H_ARGS, (int)i});
    if (!mlirTypeIsNull(st->byval[i])) { /* the context's copy */
      mlirValueReplaceAllUsesOfWith(arg, at);
      continue;
    }
    MlirValue v = ir_load(&b, at, s, coro_value_align(s));
    mlirValueReplaceAllUsesOfWith(arg, coro_from_storage(&b, v, t));
  }
  for (intptr_t i = n - 1; i >= 0; --i)
    mlirBlockEraseArgument(entry, (unsigned)i);

  /* coro.id.async and coro.begin come first, wherever coro.begin is: the
   * context exists before the body runs, and work before LLVM's
   * coro.begin is what LLVM's frame cannot hold (an alloca there that the
   * frame takes, such as a child's handoff slot once -O2 has inlined the
   * child's entry, was replaced by a frame address defined after its use:
   * route A's -O2 made invalid code and crashed) */
  MlirValue ops[4];
  ops[0] = ir_const_int(&b, 32, (long long)size);
  ops[1] = ir_const_int(&b, 32, CTX_ALIGN);
  ops[2] = ir_const_int(&b, 32, 0); /* the context is argument 0 */
  ops[3] = addr_of(&b, sym_of(ctx, &st->record));
  MlirValue id =
      ir_intrinsic(&b, "llvm.coro.id.async", 4, ops, ir_token_type(ctx));
  MlirValue bops[2];
  bops[0] = id;
  bops[1] = ir_null(&b);
  st->hdl = ir_val(&b, "llvm.intr.coro.begin", 2, bops, ir_ptr_type(ctx));
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(fn->begin, 0), st->self);
  mlirOperationDestroy(fn->begin);
}

/* The most bytes an async context can have: coro.id.async and the async
 * function pointer record take a 32-bit size. */
#define CTX_MAX_SIZE ((uint64_t)UINT32_MAX)

/* The size of `t` in bytes, past ir_type_layout's 1 GiB for arrays
 * (saturated at UINT64_MAX); false when unknown. */
static bool big_size(MlirType t, uint64_t *size) {
  uint64_t align;
  if (ir_type_layout(t, size, &align))
    return true;
  uint64_t elem, n = ir_array_length(t); /* 0: not an array */
  if (!n)
    return false;
  if (!big_size(mlirLLVMArrayTypeGetElementType(t), &elem))
    return false;
  *size = elem > UINT64_MAX / n ? UINT64_MAX : elem * n;
  return true;
}

struct frame_sum {
  uint64_t bytes;
  MlirOperation over; /* the alloca that took the sum past the limit */
};

/* Adds the static size of an alloca (llvm.alloca of a constant count,
 * memref.alloca of a static shape) to the sum. */
static MlirWalkResult add_alloca(MlirOperation op, void *data) {
  struct frame_sum *f = data;
  uint64_t size = 0, align, count = 1;
  if (coro_op_named(op, "llvm.alloca")) {
    MlirAttribute et = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("elem_type"));
    MlirValue n = mlirOperationGetOperand(op, 0);
    int64_t k;
    if (mlirAttributeIsNull(et) || !big_size(mlirTypeAttrGetValue(et), &size) ||
        !ir_const_int_value(n, &k) || k < 0)
      return MlirWalkResultAdvance;
    count = (uint64_t)k;
  } else if (coro_op_named(op, "memref.alloca")) {
    MlirType t = mlirValueGetType(mlirOperationGetResult(op, 0));
    if (!mlirShapedTypeHasStaticShape(t) ||
        !ir_type_layout(mlirShapedTypeGetElementType(t), &size, &align))
      return MlirWalkResultAdvance;
    for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); ++i) {
      uint64_t d = (uint64_t)mlirShapedTypeGetDimSize(t, i);
      count = d && count > UINT64_MAX / d ? UINT64_MAX : count * d;
    }
  } else {
    return MlirWalkResultAdvance;
  }
  /* f->bytes is at most CTX_MAX_SIZE */
  if ((count && size > UINT64_MAX / count) ||
      size * count > CTX_MAX_SIZE - f->bytes) {
    f->over = op;
    return MlirWalkResultInterrupt;
  }
  uint64_t bytes = size * count;
  f->bytes += bytes;
  return MlirWalkResultAdvance;
}

/* A context of `size` bytes, with the coroutine's allocas (which LLVM's
 * frame may keep there) counted: more than 4 GiB is an error at the
 * coroutine or at the alloca that goes past it. LLVM's async lowering
 * would truncate the size and give the task too little memory. */
static MlirLogicalResult check_frame_limit(struct coro_fn *fn, uint64_t size) {
  if (size > CTX_MAX_SIZE)
    return coro_error_at(fn->func,
                         "the arguments of this async coroutine make its "
                         "context larger than 4 GiB, the most "
                         "llvm.coro.id.async can describe (its size is 32 "
                         "bits): pass large data by pointer");
  struct frame_sum f = {size, {NULL}};
  mlirOperationWalk(fn->func, add_alloca, &f, MlirWalkPreOrder);
  if (mlirOperationIsNull(f.over))
    return mlirLogicalResultSuccess();
  return coro_error_at(f.over,
                       "this alloca makes the async coroutine's frame larger "
                       "than 4 GiB, the most llvm.coro.id.async can describe "
                       "(its size is 32 bits): allocate it on the heap");
}

static MlirLogicalResult check_alloc(struct coro_fn *fn) {
  if (!coro_alloc_is_heap(fn->func))
    return coro_error_at(fn->func,
                         "the async ABI supports coro.alloc = \"heap\" (tasks "
                         "from coro's runtime, coro_rt_task_alloc) or "
                         "coro.alloc_fn/coro.free_fn");
  return mlirLogicalResultSuccess();
}

static const char *const async_suffixes[] = {CORO_ASYNC_BODY, CORO_ASYNC_RECORD,
                                             CORO_RETCON_DESTROY,
                                             CORO_RETCON_RESUME, NULL};

/* `name` + `suffix`. */
static struct coro_str suffixed(const struct coro_str *name,
                                const char *suffix) {
  struct coro_str s = {0};
  coro_str_append(&s, name->data, name->len);
  coro_str_appendz(&s, suffix);
  return s;
}

/* The body's cf.asserts (directly in its region: it is in CFG form). */
static MlirWalkResult note_assert(MlirOperation op, void *user) {
  if (coro_op_named(op, "cf.assert"))
    ir_opvec_push(user, op);
  return MlirWalkResultAdvance;
}

/* A cf.assert in an async coroutine ends the task in error instead of the
 * process: its message goes to a constant, and failing it marks the task
 * failed (coro_rt_task_fail) and goes to the end, where the awaiter, the
 * group or the host sees it (coro.failed):
 *
 *   cf.cond_br %ok, ^next, ^fail
 *   ^fail: llvm.call @coro_rt_task_fail(%self, @"f.coro.error.K");
 *          cf.br ^end */
/* The body's cf.asserts must be in its own region (CFG form): a failed
 * one branches to the coroutine's end. */
static MlirLogicalResult check_asserts(struct coro_fn *fn) {
  struct ir_opvec asserts = {0};
  mlirOperationWalk(fn->func, note_assert, &asserts, MlirWalkPreOrder);
  MlirOperation nested = {NULL};
  for (size_t i = 0; i < asserts.n && mlirOperationIsNull(nested); ++i)
    if (!mlirOperationEqual(mlirOperationGetParentOperation(asserts.v[i]),
                            fn->func))
      nested = asserts.v[i];
  free(asserts.v);
  if (mlirOperationIsNull(nested))
    return mlirLogicalResultSuccess();
  return coro_error_at(
      nested, "cf.assert in an async coroutine ends the task in error, "
              "which needs the body in CFG form here; run "
              "--convert-scf-to-cf first, or use --coro-lower-async");
}

static void lower_asserts(struct coro_fn *fn, struct as_state *st) {
  struct ir_opvec asserts = {0};
  mlirOperationWalk(fn->func, note_assert, &asserts, MlirWalkPreOrder);
  MlirContext ctx = mlirOperationGetContext(fn->func);
  unsigned k = 0;
  for (size_t i = 0; i < asserts.n; ++i) {
    MlirOperation op = asserts.v[i];
    MlirLocation loc = mlirOperationGetLocation(op);
    MlirAttribute msg = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("msg"));
    MlirStringRef text =
        mlirAttributeIsNull(msg) || !mlirAttributeIsAString(msg)
            ? mlirStringRefCreateFromCString("")
            : mlirStringAttrGetValue(msg);
    struct coro_str cstr = {0};
    coro_str_append(&cstr, text.data, text.length);
    coro_str_append(&cstr, "", 1); /* NUL */
    struct coro_str name = {0};
    do {
      coro_str_free(&name);
      char num[24];
      snprintf(num, sizeof num, ".coro.error.%u", k++);
      coro_str_append(&name, st->name.data, st->name.len);
      coro_str_appendz(&name, num);
    } while (!mlirOperationIsNull(coro_lookup_symbol(
        fn->module, mlirStringRefCreate(name.data, name.len))));
    struct ir_global_spec spec = {
        .name = mlirStringRefCreate(name.data, name.len),
        .type = mlirLLVMArrayTypeGet(ir_int_type(ctx, 8), (unsigned)cstr.len),
        .linkage = MlirLLVMLinkageInternal,
        .constant = true,
        .value =
            mlirStringAttrGet(ctx, mlirStringRefCreate(cstr.data, cstr.len))};
    ir_llvm_global(fn->module, &spec, ir_generated_loc(loc, "cf.assert"));
    MlirBlock next = ir_split_after(op);
    MlirBlock fail = ir_block_after(mlirOperationGetBlock(op), 0, NULL, loc);
    struct ir_builder b = ir_before(op);
    ir_cond_br(&b, mlirOperationGetOperand(op, 0), next, fail);
    b = ir_at_end(fail, loc);
    MlirValue args[2] = {
        st->self,
        ir_addressof_ref(&b, mlirStringRefCreate(name.data, name.len))};
    call_rt(&b, "coro_rt_task_fail", 2, args);
    ir_br(&b, st->end, 0, NULL);
    mlirOperationDestroy(op);
    coro_str_free(&name);
    coro_str_free(&cstr);
  }
  free(asserts.v);
}

static MlirWalkResult note_self(MlirOperation op, void *user) {
  if (coro_op_named(op, "coro.self")) {
    *(bool *)user = true;
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static MlirLogicalResult as_prepare(struct coro_fn *fn) {
  struct as_state *st = ir_xcalloc(1, sizeof *st);
  fn->abi_state = st;
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  MlirStringRef symkey = mlirStringRefCreateFromCString("sym_name");
  MlirStringRef name =
      mlirStringAttrGetValue(mlirOperationGetAttributeByName(fn->func, symkey));
  coro_str_append(&st->name, name.data, name.length);
  st->S = coro_value_storage(fn->func, fn->value_type, "async");
  if (mlirTypeIsNull(st->S) || mlirLogicalResultIsFailure(check_alloc(fn)) ||
      mlirLogicalResultIsFailure(check_asserts(fn)) ||
      mlirLogicalResultIsFailure(
          coro_names_unused(fn->module, &st->name, "async", async_suffixes)) ||
      mlirLogicalResultIsFailure(
          coro_allocator_get(fn->module, fn->func, "coro_rt_task_alloc",
                             "coro_rt_task_free", &st->alloc)) ||
      !declare_intrinsic(fn->module, suspend_async, loc) ||
      !declare_intrinsic(fn->module, end_async, loc))
    return mlirLogicalResultFailure();
  st->body = suffixed(&st->name, CORO_ASYNC_BODY);
  st->record = suffixed(&st->name, CORO_ASYNC_RECORD);
  st->destroy = suffixed(&st->name, CORO_RETCON_DESTROY);
  st->resume = suffixed(&st->name, CORO_RETCON_RESUME);
  st->runtime_alloc =
      mlirAttributeIsNull(coro_sym_attr(fn->func, CORO_ALLOC_FN_ATTR));
  mlirOperationWalk(fn->func, note_self, &st->uses_self, MlirWalkPreOrder);
  if (!declare_runtime(fn->module, loc))
    return mlirLogicalResultFailure();

  /* The handle's layout: header, promise, then the arguments. */
  MlirStringRef ftkey = mlirStringRefCreateFromCString("function_type");
  MlirType fty =
      mlirTypeAttrGetValue(mlirOperationGetAttributeByName(fn->func, ftkey));
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  MlirType *args = ir_xmalloc((size_t)(n + 1) * sizeof *args);
  st->byval = ir_xcalloc((size_t)(n + 1), sizeof *st->byval);
  for (intptr_t i = 0; i < n; ++i) {
    st->byval[i] = ir_arg_byval_type(fn->func, i, NULL);
    args[i] = mlirTypeIsNull(st->byval[i])
                  ? coro_storage_type(mlirFunctionTypeGetInput(fty, i))
                  : coro_storage_type(st->byval[i]);
    if (mlirTypeIsNull(args[i])) {
      free(args);
      return coro_error_at(fn->func,
                           "an argument of this async coroutine has a "
                           "type its context cannot hold");
    }
  }
  MlirType ptr = ir_ptr_type(ctx);
  MlirType fields[4] = {ptr, ptr, coro_promise_type(ctx, st->S),
                        ir_struct_type(ctx, n, args)};
  free(args);
  st->ctx = ir_struct_type(ctx, 4, fields);
  /* The context header's size, a constant of the IR given to
   * coro.id.async: the verifier made every field storable, so the layout
   * is known (ir_type_layout, the data layout of the targets we build for). */
  uint64_t size, align;
  if (!ir_type_layout(st->ctx, &size, &align))
    return coro_error_at(fn->func,
                         "the context of this async coroutine has no known "
                         "size: its arguments take more than 1 GiB (an "
                         "async context holds at most 4 GiB: "
                         "llvm.coro.id.async's size is 32 bits); pass large "
                         "data by pointer");
  size = ir_align_to(size, CTX_ALIGN);
  if (mlirLogicalResultIsFailure(check_frame_limit(fn, size)))
    return mlirLogicalResultFailure();

  /* The body becomes @"f.coro.async"(ptr ctx), swifttailcc, private. */
  struct coro_str visibility =
      coro_rename_private(fn->func, &st->name, CORO_ASYNC_BODY);
  mlirOperationSetAttributeByName(
      fn->func, ftkey,
      mlirTypeAttrGet(mlirFunctionTypeGet(ctx, 1, &ptr, 0, NULL)));
  mlirOperationSetAttributeByName(
      fn->func, mlirStringRefCreateFromCString("CConv"),
      mlirLLVMCConvAttrGet(ctx, MlirLLVMCConvSwiftTail));

  /* The shared functions, the record, the destroy entry and the entry. */
  ensure_shared(fn->module, fn->func);
  emit_record(fn, st, size);
  emit_handle_entry(fn, st, &st->destroy, BODY_DESTROY);
  emit_handle_entry(fn, st, &st->resume, BODY_RESUME);
  emit_entry(fn, st, fty, &visibility);
  coro_str_free(&visibility);

  rewrite_body(fn, st, size);
  emit_end_block(fn, st);
  lower_asserts(fn, st);
  coro_mark_lowered_body(fn->func);
  return mlirLogicalResultSuccess();
}

static void as_finish(struct coro_fn *fn) {
  struct as_state *st = fn->abi_state;
  if (!st)
    return;
  struct coro_str *names[] = {&st->name, &st->body, &st->record, &st->destroy,
                              &st->resume};
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    coro_str_free(names[i]);
  free(st->byval);
  free(st);
}

static const struct coro_abi async_abi = {
    .name = "async",
    .prepare = as_prepare,
    .lower_yield = as_yield,
    .lower_await = as_await,
    .lower_end = as_end,
    .lower_self = as_self,
    .lower_group_await = as_group_await,
    .finish = as_finish,
};

MlirLogicalResult coro_convert_to_llvm_async_run(MlirOperation module) {
  return coro_abi_convert(module, &async_abi);
}
