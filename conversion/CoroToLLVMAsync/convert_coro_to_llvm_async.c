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
 * depend on T), lies the async state:
 *
 *   h - 32  ptr resume_fn   where the coroutine continues (an LLVM resume
 *                           function, swifttailcc void(ptr ctx))
 *   h - 24  (unused, zero)
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
 * `__coro_async_await_any` does the same through the awaited handle's
 * resume entry, for handles of other or unknown ABIs. coro.end calls
 * coro.end.async, whose tail call `__coro_async_finish` marks the handle
 * done and transfers to the awaiter. */
#include "conversion/CoroToLLVMAsync/convert_coro_to_llvm_async.h"
#include "conversion/common/abi.h"
#include "conversion/common/cb_compat.h"
#include "conversion/common/text.h"
#include "coro-c/Dialect.h"
#include "dialect/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The task prefix (coro-runtime/HandleLayout.h). */
enum {
  PREFIX = CORO_TASK_PREFIX_SIZE,         /* bytes before the handle */
  OFF_RESUME = CORO_TASK_PARKED_OFFSET,   /* ptr resume_fn */
  OFF_AWAITER = CORO_TASK_AWAITER_OFFSET, /* ptr awaiter_fn */
  OFF_DESTROY = CORO_TASK_DESTROYING_OFFSET, /* i64 destroying */
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
  struct coro_str name;
};

/*===--- shared functions --------------------------------------------------*/

static const char *const project_fn =
    "llvm.func internal @__coro_async_project(%p: !llvm.ptr) -> !llvm.ptr {\n"
    "  llvm.return %p : !llvm.ptr\n"
    "}";

static const char *const park_fn =
    "llvm.func internal swifttailcc @__coro_async_park(%h: !llvm.ptr, %rf: "
    "!llvm.ptr) {\n"
    "  %a = llvm.getelementptr %h[-32] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  llvm.store %rf, %a : !llvm.ptr, !llvm.ptr\n"
    "  llvm.return\n"
    "}";

static const char *const await_fn =
    "llvm.func internal swifttailcc @__coro_async_await(%self: !llvm.ptr, %x: "
    "!llvm.ptr, %rf: !llvm.ptr) {\n"
    "  %k = llvm.getelementptr %x[16] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  llvm.store %self, %k : !llvm.ptr, !llvm.ptr\n"
    "  %w = llvm.getelementptr %x[-8] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  llvm.store %rf, %w : !llvm.ptr, !llvm.ptr\n"
    "  %s = llvm.getelementptr %self[-32] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  llvm.store %rf, %s : !llvm.ptr, !llvm.ptr\n"
    "  %xr = llvm.getelementptr %x[-32] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  %f = llvm.load %xr : !llvm.ptr -> !llvm.ptr\n"
    "  llvm.call swifttailcc musttail %f(%x) : !llvm.ptr, (!llvm.ptr) -> ()\n"
    "  llvm.return\n"
    "}";

static const char *const await_any_fn =
    "llvm.func internal swifttailcc @__coro_async_await_any(%self: "
    "!llvm.ptr, %x: !llvm.ptr, %rf: !llvm.ptr) {\n"
    "  %k = llvm.getelementptr %x[16] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  llvm.store %self, %k : !llvm.ptr, !llvm.ptr\n"
    "  %s = llvm.getelementptr %self[-32] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  llvm.store %rf, %s : !llvm.ptr, !llvm.ptr\n"
    "  %f = llvm.load %x : !llvm.ptr -> !llvm.ptr\n"
    "  llvm.call fastcc %f(%x) : !llvm.ptr, (!llvm.ptr) -> ()\n"
    "  llvm.return\n"
    "}";

static const char *const finish_fn =
    "llvm.func internal swifttailcc @__coro_async_finish(%h: !llvm.ptr) {\n"
    "  %z = llvm.mlir.zero : !llvm.ptr\n"
    "  llvm.store %z, %h : !llvm.ptr, !llvm.ptr\n"
    /* run to its end by coro.destroy: no transfer to an awaiter (as under
     * the switch ABI); the destroy entry frees the context */
    "  %dp = llvm.getelementptr %h[-16] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  %d = llvm.load %dp : !llvm.ptr -> i64\n"
    "  %c0 = llvm.mlir.constant(0 : i64) : i64\n"
    "  %dying = llvm.icmp \"ne\" %d, %c0 : i64\n"
    "  llvm.cond_br %dying, ^ret, ^live\n"
    "^live:\n"
    "  %kp = llvm.getelementptr %h[16] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  %k = llvm.load %kp : !llvm.ptr -> !llvm.ptr\n"
    "  %none = llvm.icmp \"eq\" %k, %z : !llvm.ptr\n"
    "  llvm.cond_br %none, ^ret, ^awaited\n"
    "^awaited:\n"
    "  %wp = llvm.getelementptr %h[-8] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  %w = llvm.load %wp : !llvm.ptr -> !llvm.ptr\n"
    "  %generic = llvm.icmp \"eq\" %w, %z : !llvm.ptr\n"
    "  llvm.cond_br %generic, ^any, ^async\n"
    "^async:\n"
    "  llvm.call swifttailcc musttail %w(%k) : !llvm.ptr, (!llvm.ptr) -> ()\n"
    "  llvm.return\n"
    "^any:\n"
    "  %f = llvm.load %k : !llvm.ptr -> !llvm.ptr\n"
    "  llvm.call fastcc %f(%k) : !llvm.ptr, (!llvm.ptr) -> ()\n"
    "  llvm.br ^ret\n"
    "^ret:\n"
    "  llvm.return\n"
    "}";

static const char *const resume_fn =
    "llvm.func internal fastcc @__coro_async_resume(%h: !llvm.ptr) {\n"
    "  %a = llvm.getelementptr %h[-32] : (!llvm.ptr) -> !llvm.ptr, i8\n"
    "  %f = llvm.load %a : !llvm.ptr -> !llvm.ptr\n"
    "  llvm.call swifttailcc %f(%h) : !llvm.ptr, (!llvm.ptr) -> ()\n"
    "  llvm.return\n"
    "}";

static void ensure_shared(MlirOperation module) {
  coro_ensure_func(module, "__coro_async_project", project_fn);
  coro_ensure_func(module, "__coro_async_park", park_fn);
  coro_ensure_func(module, "__coro_async_await", await_fn);
  coro_ensure_func(module, "__coro_async_await_any", await_any_fn);
  coro_ensure_func(module, "__coro_async_finish", finish_fn);
  coro_ensure_func(module, "__coro_async_resume", resume_fn);
}

/*===--- layout ------------------------------------------------------------*/

static uint64_t pow2ceil64(uint64_t x) {
  uint64_t p = 1;
  while (p < x)
    p *= 2;
  return p;
}

static uint64_t align_up(uint64_t x, uint64_t a) { return (x + a - 1) / a * a; }

/* Size and alignment at least those of `t` in any data layout we target
 * (x86-64, AArch64): the context header size given to coro.id.async must
 * not be smaller than the real one, and is a constant of the IR. */
static void ub_layout(MlirType t, uint64_t *size, uint64_t *align) {
  if (mlirTypeIsAInteger(t)) {
    *size = pow2ceil64((mlirIntegerTypeGetWidth(t) + 7) / 8);
    *align = *size;
  } else if (mlirTypeIsAFloat(t)) {
    unsigned w = mlirFloatTypeGetWidth(t);
    *size = w > 64 ? 16 : pow2ceil64(w / 8);
    *align = *size;
  } else if (mlirTypeIsALLVMPointerType(t)) {
    *size = *align = 8;
  } else if (mlirTypeIsAVector(t)) {
    uint64_t es, ea, n = 1;
    ub_layout(mlirShapedTypeGetElementType(t), &es, &ea);
    for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); ++i)
      n *= (uint64_t)mlirShapedTypeGetDimSize(t, i);
    *size = *align = pow2ceil64(n * es);
  } else if (mlirTypeIsALLVMStructType(t)) {
    uint64_t off = 0, al = 1;
    for (intptr_t i = 0; i < mlirLLVMStructTypeGetNumElementTypes(t); ++i) {
      uint64_t fs, fa;
      ub_layout(mlirLLVMStructTypeGetElementType(t, i), &fs, &fa);
      off = align_up(off, fa) + fs;
      al = fa > al ? fa : al;
    }
    *size = align_up(off, al);
    *align = al;
  } else {
    /* Arrays (memref descriptors' shapes): count from the printed type. */
    struct coro_str text = coro_type_str(t);
    static const char prefix[] = "!llvm.array<";
    uint64_t n = 1;
    if (text.len > sizeof prefix &&
        !strncmp(text.data, prefix, sizeof prefix - 1))
      n = strtoull(text.data + sizeof prefix - 1, NULL, 10);
    coro_str_free(&text);
    uint64_t es, ea;
    ub_layout(mlirLLVMArrayTypeGetElementType(t), &es, &ea);
    *size = n * es;
    *align = ea;
  }
}

/*===--- generated functions -----------------------------------------------*/

/* Storage conversion of entry argument `i` of type `t` into `%sN`. */
static void store_arg_text(struct coro_str *s, intptr_t i, MlirType t,
                           const char *ctxt) {
  MlirType st = coro_storage_type(t);
  struct coro_str ts = coro_type_str(t), ss = coro_type_str(st);
  if (mlirTypeIsAIndex(t))
    coro_str_appendf(s, "  %%s%ld = arith.index_cast %%a%ld : index to %s\n",
                     (long)i, (long)i, coro_str_cstr(&ss));
  else if (!mlirTypeEqual(st, t))
    coro_str_appendf(
        s, "  %%s%ld = builtin.unrealized_conversion_cast %%a%ld : %s to %s\n",
        (long)i, (long)i, coro_str_cstr(&ts), coro_str_cstr(&ss));
  coro_str_appendf(s,
                   "  %%p%ld = llvm.getelementptr %%h[0, %d, %ld] : "
                   "(!llvm.ptr) -> !llvm.ptr, %s\n"
                   /* at most 16-aligned, as the handle is (the body reads
                    * it back with the same alignment) */
                   "  llvm.store %%%c%ld, %%p%ld {alignment = %u : i64} : %s, "
                   "!llvm.ptr\n",
                   (long)i, H_ARGS, (long)i, ctxt,
                   mlirTypeEqual(st, t) ? 'a' : 's', (long)i, (long)i,
                   coro_value_align(st), coro_str_cstr(&ss));
  coro_str_free(&ts);
  coro_str_free(&ss);
}

/* @f(args) -> ptr: allocate the context, fill it, run the body. */
static void emit_entry(struct coro_str *q, struct as_state *st, MlirType fty,
                       const struct coro_str *visibility) {
  struct coro_str s = {0}, self = coro_sym_text(&st->name, "");
  struct coro_str ctxt = coro_type_str(st->ctx), vs = coro_type_str(st->S);
  struct coro_str pt =
      coro_type_str(coro_promise_type(mlirTypeGetContext(st->S), st->S));
  struct coro_str fp = coro_sym_text(&st->name, ".coro.fp");
  struct coro_str body = coro_sym_text(&st->name, ".coro.async");
  struct coro_str destroy = coro_sym_text(&st->name, ".coro.destroy");
  const char *ct = coro_str_cstr(&ctxt);
  coro_str_appendf(&s, "func.func %s%s%s(",
                   visibility->len ? coro_str_cstr(visibility) : "",
                   visibility->len ? " " : "", coro_str_cstr(&self));
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  for (intptr_t i = 0; i < n; ++i) {
    struct coro_str ty = coro_type_str(mlirFunctionTypeGetInput(fty, i));
    coro_str_appendf(&s, "%s%%a%ld: %s", i ? ", " : "", (long)i,
                     coro_str_cstr(&ty));
    coro_str_free(&ty);
  }
  coro_str_appendf(
      &s,
      ") -> !llvm.ptr {\n"
      /* the context size CoroSplit wrote into the record */
      "  %%fp = llvm.mlir.addressof %s : !llvm.ptr\n"
      "  %%sp = llvm.getelementptr %%fp[0, 1] : (!llvm.ptr) -> !llvm.ptr, "
      "!llvm.struct<packed (i32, i32)>\n"
      "  %%sz = llvm.load volatile %%sp {alignment = 4 : i64} : !llvm.ptr -> "
      "i32\n"
      "  %%sz64 = llvm.zext %%sz : i32 to i64\n"
      "  %%pre = llvm.mlir.constant(%d : i64) : i64\n"
      "  %%total = llvm.add %%sz64, %%pre : i64\n",
      coro_str_cstr(&fp), PREFIX);
  if (st->runtime_alloc) {
    /* coro_rt_task_alloc: a zeroed block, the prefix in front. */
    coro_call_text(&s, st->alloc.alloc_fn, false, "%h", "%sz64", true);
    coro_str_appendf(&s, "  %%z = llvm.mlir.zero : !llvm.ptr\n");
  } else {
    coro_call_text(&s, st->alloc.alloc_fn, st->alloc.alloc_is_func, "%base",
                   "%total", true);
    coro_str_appendf(
        &s,
        "  %%h = llvm.getelementptr %%base[%d] : (!llvm.ptr) -> !llvm.ptr, "
        "i8\n"
        "  %%z = llvm.mlir.zero : !llvm.ptr\n"
        "  %%zi = llvm.mlir.constant(0 : i64) : i64\n"
        "  llvm.store %%z, %%base : !llvm.ptr, !llvm.ptr\n"
        "  %%u = llvm.getelementptr %%base[8] : (!llvm.ptr) -> !llvm.ptr, i8\n"
        "  llvm.store %%z, %%u : !llvm.ptr, !llvm.ptr\n"
        "  %%d = llvm.getelementptr %%base[16] : (!llvm.ptr) -> !llvm.ptr, "
        "i8\n"
        "  llvm.store %%zi, %%d : i64, !llvm.ptr\n"
        "  %%w = llvm.getelementptr %%base[24] : (!llvm.ptr) -> !llvm.ptr, "
        "i8\n"
        "  llvm.store %%z, %%w : !llvm.ptr, !llvm.ptr\n",
        PREFIX);
  }
  coro_str_appendf(
      &s,
      "  %%re = llvm.mlir.addressof @__coro_async_resume : !llvm.ptr\n"
      "  llvm.store %%re, %%h : !llvm.ptr, !llvm.ptr\n"
      "  %%de = llvm.mlir.addressof %s : !llvm.ptr\n"
      "  %%dp = llvm.getelementptr %%h[0, %d] : (!llvm.ptr) -> !llvm.ptr, %s\n"
      "  llvm.store %%de, %%dp : !llvm.ptr, !llvm.ptr\n"
      /* the promise at 16, whatever its own alignment (see coro_promise_field)
       */
      "  %%pp = llvm.getelementptr %%h[%d] : (!llvm.ptr) -> !llvm.ptr, i8\n"
      "  llvm.store %%z, %%pp : !llvm.ptr, !llvm.ptr\n"
      "  %%v0 = llvm.mlir.zero : %s\n"
      "  %%pv = llvm.getelementptr %%pp[0, 1] : (!llvm.ptr) -> !llvm.ptr, "
      "%s\n"
      "  llvm.store %%v0, %%pv {alignment = %u : i64} : %s, !llvm.ptr\n",
      coro_str_cstr(&destroy), H_DESTROY, ct, CORO_PROMISE_OFFSET,
      coro_str_cstr(&vs), coro_str_cstr(&pt), coro_value_align(st->S),
      coro_str_cstr(&vs));
  for (intptr_t i = 0; i < n; ++i)
    store_arg_text(&s, i, mlirFunctionTypeGetInput(fty, i), ct);
  coro_str_appendf(&s,
                   "  %%fn = func.constant %s : (!llvm.ptr) -> ()\n"
                   "  %%fnp = builtin.unrealized_conversion_cast %%fn : "
                   "(!llvm.ptr) -> () to !llvm.ptr\n"
                   "  llvm.call swifttailcc %%fnp(%%h) : !llvm.ptr, "
                   "(!llvm.ptr) -> ()\n"
                   "  func.return %%h : !llvm.ptr\n"
                   "}",
                   coro_str_cstr(&body));
  coro_queue_func(q, &s);
  struct coro_str *all[] = {&s, &self, &ctxt, &vs, &pt, &fp, &body, &destroy};
  for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
    coro_str_free(all[i]);
}

/* The destroy entry: a coroutine that has not ended is resumed with its
 * destroying flag set (it runs its cleanup to coro.end); then the context
 * is freed. */
static void emit_destroy(struct coro_str *q, struct as_state *st) {
  struct coro_str s = {0}, name = coro_sym_text(&st->name, ".coro.destroy");
  coro_str_appendf(
      &s,
      "llvm.func internal fastcc %s(%%h: !llvm.ptr) {\n"
      "  %%z = llvm.mlir.zero : !llvm.ptr\n"
      "  %%r = llvm.load %%h : !llvm.ptr -> !llvm.ptr\n"
      "  %%live = llvm.icmp \"ne\" %%r, %%z : !llvm.ptr\n"
      "  llvm.cond_br %%live, ^run, ^free\n"
      "^run:\n"
      "  %%dp = llvm.getelementptr %%h[%d] : (!llvm.ptr) -> !llvm.ptr, i8\n"
      "  %%one = llvm.mlir.constant(1 : i64) : i64\n"
      "  llvm.store %%one, %%dp : i64, !llvm.ptr\n"
      "  %%fp = llvm.getelementptr %%h[%d] : (!llvm.ptr) -> !llvm.ptr, i8\n"
      "  %%f = llvm.load %%fp : !llvm.ptr -> !llvm.ptr\n"
      "  llvm.call swifttailcc %%f(%%h) : !llvm.ptr, (!llvm.ptr) -> ()\n"
      "  llvm.br ^free\n"
      "^free:\n"
      "  %%base = llvm.getelementptr %%h[%d] : (!llvm.ptr) -> !llvm.ptr, i8\n",
      coro_str_cstr(&name), OFF_DESTROY, OFF_RESUME, -PREFIX);
  /* coro_rt_task_free takes the handle; coro.free_fn gets the block. */
  coro_call_text(&s, st->alloc.free_fn, st->alloc.free_is_func, NULL,
                 st->runtime_alloc ? "%h" : "%base", false);
  coro_str_appendz(&s, "  llvm.return\n}");
  coro_queue_func(q, &s);
  coro_str_free(&s);
  coro_str_free(&name);
}

/* The async function pointer record: <{relative pointer (unused: 0),
 * initial context size}>. */
static void emit_record(struct coro_str *q, struct as_state *st,
                        uint64_t size) {
  struct coro_str s = {0}, name = coro_sym_text(&st->name, ".coro.fp");
  coro_str_appendf(
      &s,
      "llvm.mlir.global internal %s() {alignment = 8 : i64} : "
      "!llvm.struct<packed (i32, i32)> {\n"
      "  %%u = llvm.mlir.undef : !llvm.struct<packed (i32, i32)>\n"
      "  %%z = llvm.mlir.constant(0 : i32) : i32\n"
      "  %%a = llvm.insertvalue %%z, %%u[0] : !llvm.struct<packed (i32, i32)>\n"
      "  %%n = llvm.mlir.constant(%llu : i32) : i32\n"
      "  %%b = llvm.insertvalue %%n, %%a[1] : !llvm.struct<packed (i32, i32)>\n"
      "  llvm.return %%b : !llvm.struct<packed (i32, i32)>\n"
      "}",
      coro_str_cstr(&name), (unsigned long long)size);
  coro_queue_func(q, &s);
  coro_str_free(&s);
  coro_str_free(&name);
}

/*===--- the body ----------------------------------------------------------*/

static MlirValue sym_addr(struct cb *b, const char *name) {
  struct coro_str s = {0};
  coro_str_appendf(&s, "@%s", name);
  MlirValue v = coro_addressof(b, &s);
  coro_str_free(&s);
  return v;
}

/* coro.suspend.async with `dispatch`(self, extra..., resume fn) as its tail
 * call; returns whether the coroutine is being destroyed once resumed. */
static MlirValue suspend(struct as_state *st, struct cb *b,
                         const char *dispatch, MlirValue extra) {
  MlirContext ctx = b->ctx;
  MlirType ptr = cb_ptr(ctx);
  MlirValue rf = cb_intrinsic(b, "llvm.coro.async.resume", 0, NULL, ptr);
  MlirValue ops[7];
  int n = 0;
  ops[n++] = cb_const_int(b, 32, 0);
  ops[n++] = rf;
  ops[n++] = sym_addr(b, "__coro_async_project");
  ops[n++] = sym_addr(b, dispatch);
  ops[n++] = st->self;
  if (!mlirValueIsNull(extra))
    ops[n++] = extra;
  ops[n++] = rf;
  MlirType rt = cb_type(ctx, "!llvm.struct<(ptr)>");
  char attrs[400];
  snprintf(attrs, sizeof attrs,
           "{callee = @llvm.coro.suspend.async.sl_p0s, var_callee_type = "
           "!llvm.func<struct<(ptr)> (i32, ptr, ptr, ...)>, CConv = "
           "#llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, "
           "fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = "
           "array<i32>, operandSegmentSizes = array<i32: %d, 0>}",
           n);
  cb_op(b, "llvm.call", n, ops, 1, &rt, attrs, 0, NULL);
  MlirValue d =
      cb_load(b, cb_byte_gep(b, st->self, OFF_DESTROY), cb_int(ctx, 64), 8);
  MlirValue cmp[2] = {d, cb_const_int(b, 64, 0)};
  return cb_val(b, "llvm.icmp", 2, cmp, cb_int(ctx, 1),
                "{predicate = 1 : i64}");
}

/* Continues at `dest`, or at the end when the coroutine is being
 * destroyed. */
static void branch_unless_destroyed(struct as_state *st, struct cb *b,
                                    MlirValue destroying, MlirBlock dest) {
  cb_cond_br(b, destroying, st->end, dest);
}

static MlirLogicalResult publish(struct as_state *st, struct cb *b,
                                 MlirOperation op, MlirValue v) {
  MlirValue s = coro_published(b, op, v, st->S);
  if (mlirValueIsNull(s))
    return mlirLogicalResultFailure();
  cb_store(b, s, coro_promise_field(b, st->self, st->S, 1),
           coro_value_align(st->S));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult as_yield(struct coro_fn *fn, MlirOperation op) {
  struct as_state *st = fn->abi_state;
  struct cb b = cb_before(op);
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
  struct cb b = cb_before(op);
  MlirValue aw = mlirOperationGetOperand(op, 0);
  MlirAttribute abi = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString(CORO_AWAITED_ABI_ATTR));
  bool async = !mlirAttributeIsNull(abi) && mlirAttributeIsAString(abi) &&
               coro_ref_eq(mlirStringAttrGetValue(abi), "async");
  MlirBlock next, check;
  MlirBlock susp = coro_await_split(&b, op, aw, &next, &check);
  struct cb s = cb_at_end(susp, b.loc);
  MlirValue destroying = suspend(
      st, &s, async ? "__coro_async_await" : "__coro_async_await_any", aw);
  branch_unless_destroyed(st, &s, destroying, check);
  MlirLogicalResult res = coro_await_result(op, aw, next);
  mlirOperationDestroy(op);
  return res;
}

static MlirLogicalResult as_end(struct coro_fn *fn, MlirOperation op) {
  struct as_state *st = fn->abi_state;
  struct cb b = cb_before(op);
  MlirOperation ret = coro_end_return(op);
  if (mlirOperationIsNull(ret))
    return mlirLogicalResultFailure();
  if (mlirOperationGetNumOperands(op) == 2 &&
      mlirLogicalResultIsFailure(
          publish(st, &b, op, mlirOperationGetOperand(op, 1))))
    return mlirLogicalResultFailure();
  cb_br(&b, st->end, 0, NULL);
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
  st->end = coro_new_block(mlirOperationGetRegion(fn->func, 0), 0, NULL, loc);
  struct cb b = cb_at_end(st->end, loc);
  MlirValue ops[4] = {st->hdl, cb_const_int(&b, 1, 0),
                      sym_addr(&b, "__coro_async_finish"), st->self};
  /* LLVM 22's coro.end.async returns nothing (older LLVMs: i1). */
  cb_op(&b, "llvm.call", 4, ops, 0, NULL,
        "{callee = @llvm.coro.end.async, var_callee_type = "
        "!llvm.func<void (ptr, i1, ...)>, CConv = #llvm.cconv<ccc>, "
        "TailCallKind = #llvm.tailcallkind<none>, fastmathFlags = "
        "#llvm.fastmath<none>, op_bundle_sizes = array<i32>, "
        "operandSegmentSizes = array<i32: 4, 0>}",
        0, NULL);
  cb_op(&b, "func.return", 0, NULL, 0, NULL, NULL, 0, NULL);
}

/* Replaces the body's arguments by loads from the context, and coro.begin
 * by coro.id.async and coro.begin. */
static void rewrite_body(struct coro_fn *fn, struct as_state *st, uint64_t size,
                         const struct coro_str *record) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn->func, 0));
  intptr_t n = mlirBlockGetNumArguments(entry);
  st->self = mlirBlockAddArgument(entry, cb_ptr(ctx),
                                  mlirOperationGetLocation(fn->func));
  struct cb b = cb_before(mlirBlockGetFirstOperation(entry));
  for (intptr_t i = 0; i < n; ++i) {
    MlirValue arg = mlirBlockGetArgument(entry, i);
    MlirType t = mlirValueGetType(arg);
    MlirType s = coro_storage_type(t);
    MlirValue v = cb_load(
        &b, cb_field_path(&b, st->self, st->ctx, 2, (int[]){H_ARGS, (int)i}), s,
        coro_value_align(s));
    mlirValueReplaceAllUsesOfWith(arg, coro_from_storage(&b, v, t));
  }
  for (intptr_t i = n - 1; i >= 0; --i)
    mlirBlockEraseArgument(entry, (unsigned)i);

  b = cb_before(fn->begin);
  MlirValue ops[4] = {cb_const_int(&b, 32, (long long)size),
                      cb_const_int(&b, 32, CTX_ALIGN), cb_const_int(&b, 32, 0),
                      coro_addressof(&b, record)};
  MlirValue id = cb_intrinsic(&b, "llvm.coro.id.async", 4, ops,
                              cb_type(ctx, "!llvm.token"));
  MlirValue bops[2] = {id, cb_null(&b)};
  st->hdl = cb_val(&b, "llvm.intr.coro.begin", 2, bops, cb_ptr(ctx), NULL);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(fn->begin, 0), st->self);
  mlirOperationDestroy(fn->begin);
}

static MlirLogicalResult check_alloc(struct coro_fn *fn) {
  if (!coro_alloc_is_heap(fn->func))
    return coro_error_at(fn->func,
                         "the async ABI supports coro.alloc = \"heap\" (tasks "
                         "from coro's runtime, coro_rt_task_alloc) or "
                         "coro.alloc_fn/coro.free_fn");
  return mlirLogicalResultSuccess();
}

static const char *const async_suffixes[] = {".coro.async", ".coro.fp",
                                             ".coro.destroy", NULL};

/* Declares the vararg intrinsics the body calls. */
static bool declare_intrinsics(struct coro_fn *fn) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  return coro_declare_func(
             fn->module,
             mlirFlatSymbolRefAttrGet(ctx,
                                      mlirStringRefCreateFromCString(
                                          "llvm.coro.suspend.async.sl_p0s")),
             "(i32, !llvm.ptr, !llvm.ptr, ...) -> !llvm.struct<(ptr)>", loc) &&
         coro_declare_func(
             fn->module,
             mlirFlatSymbolRefAttrGet(
                 ctx, mlirStringRefCreateFromCString("llvm.coro.end.async")),
             "(!llvm.ptr, i1, ...)", loc);
}

static MlirLogicalResult as_prepare(struct coro_fn *fn) {
  struct as_state *st = calloc(1, sizeof *st);
  fn->abi_state = st;
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirStringRef symkey = mlirStringRefCreateFromCString("sym_name");
  MlirStringRef name =
      mlirStringAttrGetValue(mlirOperationGetAttributeByName(fn->func, symkey));
  coro_str_append(&st->name, name.data, name.length);
  st->S = coro_value_storage(fn->func, fn->value_type, "async");
  if (mlirTypeIsNull(st->S) || mlirLogicalResultIsFailure(check_alloc(fn)) ||
      mlirLogicalResultIsFailure(
          coro_names_free(fn->module, &st->name, "async", async_suffixes)) ||
      mlirLogicalResultIsFailure(
          coro_allocator_get(fn->module, fn->func, "coro_rt_task_alloc",
                             "coro_rt_task_free", &st->alloc)) ||
      !declare_intrinsics(fn))
    return mlirLogicalResultFailure();

  st->runtime_alloc =
      mlirAttributeIsNull(coro_sym_attr(fn->func, "coro.alloc_fn"));

  /* The handle's layout: header, promise, then the arguments. */
  MlirStringRef ftkey = mlirStringRefCreateFromCString("function_type");
  MlirType fty =
      mlirTypeAttrGetValue(mlirOperationGetAttributeByName(fn->func, ftkey));
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  MlirType *args = malloc((size_t)(n + 1) * sizeof *args);
  for (intptr_t i = 0; i < n; ++i) {
    args[i] = coro_storage_type(mlirFunctionTypeGetInput(fty, i));
    if (mlirTypeIsNull(args[i])) {
      free(args);
      return coro_error_at(fn->func,
                           "an argument of this async coroutine has a "
                           "type its context cannot hold");
    }
  }
  MlirType ptr = cb_ptr(ctx);
  MlirType fields[4] = {ptr, ptr, coro_promise_type(ctx, st->S),
                        mlirLLVMStructTypeLiteralGet(ctx, n, args, false)};
  free(args);
  st->ctx = mlirLLVMStructTypeLiteralGet(ctx, 4, fields, false);
  uint64_t size, align;
  ub_layout(st->ctx, &size, &align);
  size = align_up(size, CTX_ALIGN);

  /* The body becomes @"f.coro.async"(ptr ctx), swifttailcc, private. */
  struct coro_str visibility =
      coro_rename_private(fn->func, &st->name, ".coro.async");
  mlirOperationSetAttributeByName(
      fn->func, ftkey,
      mlirTypeAttrGet(mlirFunctionTypeGet(ctx, 1, &ptr, 0, NULL)));
  mlirOperationSetAttributeByName(
      fn->func, mlirStringRefCreateFromCString("CConv"),
      mlirAttributeParseGet(
          ctx, mlirStringRefCreateFromCString("#llvm.cconv<swifttailcc>")));

  /* The entry, the destroy entry and the record. */
  ensure_shared(fn->module);
  struct coro_str queue = {0}, decls = {0};
  struct coro_str bodyref = coro_sym_text(&st->name, ".coro.async");
  coro_str_appendf(&decls,
                   "func.func private %s(!llvm.ptr)\n"
                   "llvm.func @__coro_async_resume(!llvm.ptr)\n",
                   coro_str_cstr(&bodyref));
  coro_allocator_decls(&decls, &st->alloc);
  emit_record(&queue, st, size);
  emit_destroy(&queue, st);
  emit_entry(&queue, st, fty, &visibility);
  coro_str_free(&visibility);
  coro_flush_funcs(fn->module, &decls, &queue, 4);
  coro_str_free(&queue);
  coro_str_free(&decls);

  struct coro_str record = coro_sym_text(&st->name, ".coro.fp");
  rewrite_body(fn, st, size, &record);
  coro_str_free(&record);
  coro_str_free(&bodyref);
  emit_end_block(fn, st);
  coro_mark_lowered_body(fn->func);
  return mlirLogicalResultSuccess();
}

static void as_finish(struct coro_fn *fn) {
  struct as_state *st = fn->abi_state;
  if (!st)
    return;
  coro_str_free(&st->name);
  free(st);
}

static const struct coro_abi async_abi = {
    .name = "async",
    .prepare = as_prepare,
    .lower_yield = as_yield,
    .lower_await = as_await,
    .lower_end = as_end,
    .lower_self = as_self,
    .finish = as_finish,
    .lower_consumer = coro_lower_consumer_hook,
};

MlirLogicalResult coro_convert_to_llvm_async_run(MlirOperation module) {
  return coro_abi_convert(module, &async_abi);
}
