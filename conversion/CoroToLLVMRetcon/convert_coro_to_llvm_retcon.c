/* convert_coro_to_llvm_retcon.c - `--convert-coro-to-llvm-retcon` and
 * `--convert-coro-to-llvm-retcon-once`: the returned-continuation ABIs (see
 * docs/retcon-lowering.md).
 *
 * A coroutine `@gen(args) -> !coro.handle<T>` with coro.abi = "retcon" or
 * "retcon.once" becomes three kinds of function:
 *
 *   @"gen.coro.ramp"(ptr buffer, args) -> !llvm.struct<(ptr, S)>
 *       the body, with LLVM's coro.id.retcon(.once) intrinsics; CoroSplit
 *       splits it into continuations of the prototype's type
 *       (ptr buffer, i1 abnormal[, R]) -> {ptr, S} (retcon) or S (once).
 *       Every suspension returns {continuation, published value}; the end
 *       returns a null continuation (retcon) or, for retcon.once, the final
 *       result through coro.end.results.
 *   @gen(args) -> !llvm.ptr
 *       an ordinary function under the coroutine's own name (call sites do
 *       not change): it allocates the control block, runs the ramp on the
 *       control block's buffer and returns the control block as the handle.
 *   @"gen.coro.resume", @"gen.coro.destroy", @"gen.coro.settle"
 *       the control block's thunks.
 *
 * The control block has the header every ABI's handle has (abi.h), so the
 * consumer ops lower exactly as for the switch ABI:
 *
 *   struct { ptr resume;         fastcc void(ptr), null once finished
 *            ptr destroy;        fastcc void(ptr)
 *            {ptr cont; S value} promise, at offset 16
 *            ptr continuation;   the retcon continuation (null: none)
 *            ptr awaited;        the handle to run after an await suspends
 *            R   resume_slot;    the value coro.resume passes (i8 if none)
 *            [N x iALIGN] buffer } coro.buffer = array<i64: SIZE, ALIGN>
 *
 * The body reaches its own control block (coro.self, published final values,
 * awaits) at a fixed negative offset from the buffer. LLVM allows one
 * fallthrough coro.end per coroutine: every coro.end branches to one end
 * block. A value passed on resume travels through the resume slot. */
#include "conversion/CoroToLLVMRetcon/convert_coro_to_llvm_retcon.h"
#include "conversion/common/abi.h"
#include "conversion/common/cb_compat.h"
#include "conversion/common/text.h"
#include "coro-c/Dialect.h"
#include "dialect/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum {
  DEFAULT_BUFFER_SIZE = 32,
  DEFAULT_BUFFER_ALIGN = 8,
  MAX_ALIGN = 16,
  FRAME_ALIGN = 64 /* frames LLVM allocates with malloc/free */
};

/* Control block fields (see the header comment). */
enum {
  CB_RESUME,
  CB_DESTROY,
  CB_PROMISE,
  CB_CONT,
  CB_AWAITED,
  CB_SLOT,
  CB_BUFFER
};

struct rc_state {
  bool once;
  MlirType S, R, RS; /* value storage; resume type and storage (null: none) */
  MlirType cbt;      /* the control block struct */
  MlirType ret;      /* the ramp's result: {ptr, S} */
  MlirValue buf, self, hdl;
  MlirBlock end;                       /* ^end(%final: S): the one coro.end */
  long long buffer_size, buffer_align; /* coro.buffer, or the defaults */
  struct coro_allocator alloc;
  bool default_alloc;   /* malloc/free: frames from aligned_alloc */
  struct coro_str name; /* the coroutine's symbol name */
};

/*===--- layout ------------------------------------------------------------*/

/* The R of the coroutine's yields (the verifier made them agree). */
static MlirWalkResult find_resume_type(MlirOperation op, void *user) {
  if (coro_op_named(op, "coro.yield") && mlirOperationGetNumResults(op) == 2) {
    *(MlirType *)user = mlirValueGetType(mlirOperationGetResult(op, 1));
    return MlirWalkResultInterrupt;
  }
  return MlirWalkResultAdvance;
}

static MlirLogicalResult layout(struct coro_fn *fn, struct rc_state *st) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  const char *abi = st->once ? "retcon.once" : "retcon";
  st->S = coro_value_storage(fn->func, fn->value_type, abi);
  if (mlirTypeIsNull(st->S))
    return mlirLogicalResultFailure();
  mlirOperationWalk(fn->func, find_resume_type, &st->R, MlirWalkPreOrder);
  if (!mlirTypeIsNull(st->R)) {
    st->RS = coro_storage_type(st->R);
    if (mlirTypeIsNull(st->RS))
      return coro_error_at(fn->func,
                           "the values this coroutine takes on resume "
                           "have a type the retcon ABIs cannot pass");
  }
  long long size = DEFAULT_BUFFER_SIZE, align = DEFAULT_BUFFER_ALIGN;
  MlirAttribute buffer = mlirOperationGetAttributeByName(
      fn->func, mlirStringRefCreateFromCString("coro.buffer"));
  if (!mlirAttributeIsNull(buffer)) {
    if (!mlirAttributeIsADenseI64Array(buffer) ||
        mlirDenseArrayGetNumElements(buffer) != 2)
      return coro_error_at(fn->func,
                           "coro.buffer must be array<i64: SIZE, ALIGN>");
    size = mlirDenseI64ArrayGetElement(buffer, 0);
    align = mlirDenseI64ArrayGetElement(buffer, 1);
    if (size <= 0 || size > (1LL << 30) || align <= 0 ||
        (align & (align - 1)) || align > MAX_ALIGN)
      return coro_error_at(
          fn->func, "coro.buffer needs 0 < SIZE <= 2^30 and ALIGN a power "
                    "of two of at most 16 (the control block's alignment)");
  }
  if (!coro_alloc_is_heap(fn->func))
    return coro_error_at(fn->func,
                         "the retcon ABIs support coro.alloc = \"heap\" "
                         "(or coro.alloc_fn/coro.free_fn): the control "
                         "block outlives the call");
  MlirType ptr = cb_ptr(ctx);
  char text[96];
  snprintf(text, sizeof text, "!llvm.array<%lld x i%lld>",
           (size + align - 1) / align, align * 8);
  st->buffer_size = size;
  st->buffer_align = align;
  MlirType fields[7] = {ptr,
                        ptr,
                        coro_promise_type(ctx, st->S),
                        ptr,
                        ptr,
                        mlirTypeIsNull(st->RS) ? cb_int(ctx, 8) : st->RS,
                        cb_type(ctx, text)};
  st->cbt = mlirLLVMStructTypeLiteralGet(ctx, 7, fields, false);
  MlirType rf[2] = {ptr, st->S};
  st->ret = mlirLLVMStructTypeLiteralGet(ctx, 2, rf, false);
  return mlirLogicalResultSuccess();
}

/*===--- generated functions -----------------------------------------------*/

/* The types and names the generated text uses. */
struct texts {
  struct coro_str S, pt, RS, cbt, ret, cont_ret, proto_args;
  struct coro_str ramp, resume, destroy, settle, proto, alloc, free;
};

static void texts_free(struct texts *t) {
  struct coro_str *all[] = {&t->S,      &t->pt,       &t->RS,         &t->cbt,
                            &t->ret,    &t->cont_ret, &t->proto_args, &t->ramp,
                            &t->resume, &t->destroy,  &t->settle,     &t->proto,
                            &t->alloc,  &t->free};
  for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
    coro_str_free(all[i]);
}

static void texts_init(struct rc_state *st, struct texts *t) {
  memset(t, 0, sizeof *t);
  t->S = coro_type_str(st->S);
  t->pt = coro_type_str(coro_promise_type(mlirTypeGetContext(st->S), st->S));
  if (!mlirTypeIsNull(st->RS))
    t->RS = coro_type_str(st->RS);
  t->cbt = coro_type_str(st->cbt);
  t->ret = coro_type_str(st->ret);
  t->cont_ret = coro_type_str(st->once ? st->S : st->ret);
  coro_str_appendz(&t->proto_args, "!llvm.ptr, i1");
  if (t->RS.len)
    coro_str_appendf(&t->proto_args, ", %s", coro_str_cstr(&t->RS));
  t->ramp = coro_sym_text(&st->name, ".coro.ramp");
  t->resume = coro_sym_text(&st->name, ".coro.resume");
  t->destroy = coro_sym_text(&st->name, ".coro.destroy");
  t->settle = coro_sym_text(&st->name, ".coro.settle");
  t->proto = coro_sym_text(&st->name, ".coro.proto");
}

/* @settle(cb, {cont, value}) -> ptr: records a suspension (continuation and
 * published value) or the end; returns the handle to run next (the awaited
 * handle after an await, the awaiter after the end) or null. */
static void emit_settle(struct coro_str *queue, struct rc_state *st,
                        struct texts *t) {
  struct coro_str s = {0};
  const char *cbt = coro_str_cstr(&t->cbt), *ret = coro_str_cstr(&t->ret);
  coro_str_appendf(
      &s,
      "llvm.func internal %s(%%cb: !llvm.ptr, %%res: %s) -> !llvm.ptr {\n"
      "  %%z = llvm.mlir.zero : !llvm.ptr\n"
      "  %%c = llvm.extractvalue %%res[0] : %s\n"
      "  %%fc = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  llvm.store %%c, %%fc : !llvm.ptr, !llvm.ptr\n"
      "  %%fin = llvm.icmp \"eq\" %%c, %%z : !llvm.ptr\n"
      "  llvm.cond_br %%fin, ^fin, ^susp\n"
      "^fin:\n"
      "  %%fr = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  llvm.store %%z, %%fr : !llvm.ptr, !llvm.ptr\n"
      "  %%pc = llvm.getelementptr %%cb[%d] : (!llvm.ptr) -> !llvm.ptr, i8\n"
      "  %%k = llvm.load %%pc : !llvm.ptr -> !llvm.ptr\n"
      "  llvm.return %%k : !llvm.ptr\n"
      "^susp:\n"
      "  %%v = llvm.extractvalue %%res[1] : %s\n"
      "  %%pp = llvm.getelementptr %%cb[%d] : (!llvm.ptr) -> !llvm.ptr, i8\n"
      "  %%pv = llvm.getelementptr %%pp[0, 1] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  llvm.store %%v, %%pv {alignment = %u : i64} : %s, !llvm.ptr\n"
      "  %%fa = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  %%a = llvm.load %%fa : !llvm.ptr -> !llvm.ptr\n"
      "  llvm.store %%z, %%fa : !llvm.ptr, !llvm.ptr\n"
      "  llvm.return %%a : !llvm.ptr\n"
      "}",
      coro_str_cstr(&t->settle), ret, ret, CB_CONT, cbt, CB_RESUME, cbt,
      CORO_PROMISE_OFFSET, ret, CORO_PROMISE_OFFSET, coro_str_cstr(&t->pt),
      coro_value_align(st->S), coro_str_cstr(&t->S), CB_AWAITED, cbt);
  coro_queue_func(queue, &s);
  coro_str_free(&s);
}

/* Runs `next` (a handle, maybe null) by a tail call of its resume entry. */
static void tail_resume_text(struct coro_str *s) {
  coro_str_appendz(s, "  %z = llvm.mlir.zero : !llvm.ptr\n"
                      "  %none = llvm.icmp \"eq\" %next, %z : !llvm.ptr\n"
                      "  llvm.cond_br %none, ^ret, ^go\n"
                      "^go:\n"
                      "  %fn = llvm.load %next : !llvm.ptr -> !llvm.ptr\n"
                      "  llvm.call fastcc musttail %fn(%next) : !llvm.ptr, "
                      "(!llvm.ptr) -> ()\n"
                      "  llvm.return\n"
                      "^ret:\n"
                      "  llvm.return\n"
                      "}");
}

/* The start of a resume or destroy entry `name`: %c = the continuation. */
static void entry_head(struct coro_str *s, const struct coro_str *name,
                       const char *cbt) {
  coro_str_appendf(s,
                   "llvm.func internal fastcc %s(%%cb: !llvm.ptr) {\n"
                   "  %%fc = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
                   "!llvm.ptr, %s\n"
                   "  %%c = llvm.load %%fc : !llvm.ptr -> !llvm.ptr\n",
                   coro_str_cstr(name), CB_CONT, cbt);
}

/* The resume entry: runs the continuation with abnormal = false and the
 * resume slot's value, settles, and tail-calls whatever runs next. */
static void emit_resume(struct coro_str *queue, struct rc_state *st,
                        struct texts *t) {
  struct coro_str s = {0};
  const char *cbt = coro_str_cstr(&t->cbt);
  entry_head(&s, &t->resume, cbt);
  coro_str_appendf(&s,
                   "  %%buf = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
                   "!llvm.ptr, %s\n"
                   "  %%no = llvm.mlir.constant(false) : i1\n",
                   CB_BUFFER, cbt);
  if (t->RS.len)
    coro_str_appendf(&s,
                     "  %%fs = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
                     "!llvm.ptr, %s\n"
                     "  %%r = llvm.load %%fs : !llvm.ptr -> %s\n",
                     CB_SLOT, cbt, coro_str_cstr(&t->RS));
  coro_str_appendf(
      &s, "  %%res = llvm.call %%c(%%buf, %%no%s) : !llvm.ptr, (%s) -> %s\n",
      t->RS.len ? ", %r" : "", coro_str_cstr(&t->proto_args),
      coro_str_cstr(&t->cont_ret));
  if (st->once) {
    /* The one continuation ran to the end: settle with a null
     * continuation (the final value is already in the promise). */
    coro_str_appendf(
        &s,
        "  %%n = llvm.mlir.zero : !llvm.ptr\n"
        "  %%u = llvm.mlir.undef : %s\n"
        "  %%fin = llvm.insertvalue %%n, %%u[0] : %s\n"
        "  %%next = llvm.call %s(%%cb, %%fin) : (!llvm.ptr, %s) -> "
        "!llvm.ptr\n",
        coro_str_cstr(&t->ret), coro_str_cstr(&t->ret),
        coro_str_cstr(&t->settle), coro_str_cstr(&t->ret));
  } else {
    coro_str_appendf(
        &s,
        "  %%next = llvm.call %s(%%cb, %%res) : (!llvm.ptr, %s) -> "
        "!llvm.ptr\n",
        coro_str_cstr(&t->settle), coro_str_cstr(&t->ret));
  }
  tail_resume_text(&s);
  coro_queue_func(queue, &s);
  coro_str_free(&s);
}

/* The destroy entry: resumes a suspended coroutine abnormally (it runs its
 * cleanup to coro.end), then frees the control block. */
static void emit_destroy(struct coro_str *queue, struct rc_state *st,
                         struct texts *t) {
  struct coro_str s = {0};
  const char *cbt = coro_str_cstr(&t->cbt);
  entry_head(&s, &t->destroy, cbt);
  coro_str_appendf(&s,
                   "  %%z = llvm.mlir.zero : !llvm.ptr\n"
                   "  %%live = llvm.icmp \"ne\" %%c, %%z : !llvm.ptr\n"
                   "  llvm.cond_br %%live, ^run, ^free\n"
                   "^run:\n"
                   "  %%buf = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
                   "!llvm.ptr, %s\n"
                   "  %%yes = llvm.mlir.constant(true) : i1\n",
                   CB_BUFFER, cbt);
  if (t->RS.len)
    coro_str_appendf(&s, "  %%r = llvm.mlir.zero : %s\n",
                     coro_str_cstr(&t->RS));
  coro_str_appendf(
      &s,
      "  %%res = llvm.call %%c(%%buf, %%yes%s) : !llvm.ptr, (%s) -> %s\n"
      "  llvm.br ^free\n"
      "^free:\n",
      t->RS.len ? ", %r" : "", coro_str_cstr(&t->proto_args),
      coro_str_cstr(&t->cont_ret));
  coro_call_text(&s, st->alloc.free_fn, st->alloc.free_is_func, NULL, "%cb",
                 false);
  coro_str_appendz(&s, "  llvm.return\n}");
  coro_queue_func(queue, &s);
  coro_str_free(&s);
}

/* The prototype of the continuations (a declaration only), and llvm.func
 * adapters for allocators that are func.func (coro.id.retcon takes
 * function pointers). */
static void emit_decls(struct coro_str *queue, struct rc_state *st,
                       struct texts *t) {
  struct coro_str s = {0};
  coro_str_appendf(
      &s, "llvm.func %s(%s) -> %s attributes {sym_visibility = \"private\"}",
      coro_str_cstr(&t->proto), coro_str_cstr(&t->proto_args),
      coro_str_cstr(&t->cont_ret));
  coro_queue_func(queue, &s);
  coro_str_free(&s);
  if (st->default_alloc) {
    /* LLVM gives a retcon frame that does not fit the buffer (too big, or
     * aligned above it) the allocator's memory, passing only the size:
     * align it to 64, enough for any vector up to 512 bits. */
    t->alloc = coro_sym_text(&st->name, ".coro.alloc");
    s = (struct coro_str){0};
    coro_str_appendf(&s,
                     "llvm.func internal %s(%%n: i64) -> !llvm.ptr {\n"
                     "  %%a = llvm.mlir.constant(%d : i64) : i64\n"
                     "  %%m = llvm.mlir.constant(%d : i64) : i64\n"
                     "  %%up = llvm.add %%n, %%m : i64\n"
                     "  %%low = llvm.mlir.constant(%d : i64) : i64\n"
                     "  %%r = llvm.and %%up, %%low : i64\n"
                     "  %%p = llvm.call @aligned_alloc(%%a, %%r) : (i64, i64) "
                     "-> !llvm.ptr\n"
                     "  llvm.return %%p : !llvm.ptr\n}",
                     coro_str_cstr(&t->alloc), FRAME_ALIGN, FRAME_ALIGN - 1,
                     -FRAME_ALIGN);
    coro_queue_func(queue, &s);
    coro_str_free(&s);
  } else if (st->alloc.alloc_is_func) {
    t->alloc = coro_sym_text(&st->name, ".coro.alloc");
    s = (struct coro_str){0};
    coro_str_appendf(&s, "llvm.func internal %s(%%n: i64) -> !llvm.ptr {\n",
                     coro_str_cstr(&t->alloc));
    coro_call_text(&s, st->alloc.alloc_fn, true, "%p", "%n", true);
    coro_str_appendz(&s, "  llvm.return %p : !llvm.ptr\n}");
    coro_queue_func(queue, &s);
    coro_str_free(&s);
  } else {
    t->alloc = coro_attr_str(st->alloc.alloc_fn);
  }
  if (st->alloc.free_is_func) {
    t->free = coro_sym_text(&st->name, ".coro.free");
    s = (struct coro_str){0};
    coro_str_appendf(&s, "llvm.func internal %s(%%p: !llvm.ptr) {\n",
                     coro_str_cstr(&t->free));
    coro_call_text(&s, st->alloc.free_fn, true, NULL, "%p", false);
    coro_str_appendz(&s, "  llvm.return\n}");
    coro_queue_func(queue, &s);
    coro_str_free(&s);
  } else {
    t->free = coro_attr_str(st->alloc.free_fn);
  }
}

/* @gen(args) -> ptr: allocates and initializes the control block, runs the
 * ramp on its buffer, settles, runs an awaited handle, returns the block. */
static void emit_entry(struct coro_str *queue, struct rc_state *st,
                       struct texts *t, MlirType fty,
                       const struct coro_str *visibility) {
  struct coro_str s = {0}, self = coro_sym_text(&st->name, "");
  const char *cbt = coro_str_cstr(&t->cbt);
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  coro_str_appendf(&s, "func.func %s%s%s(",
                   visibility->len ? coro_str_cstr(visibility) : "",
                   visibility->len ? " " : "", coro_str_cstr(&self));
  struct coro_str args = {0}, types = {0};
  for (intptr_t i = 0; i < n; ++i) {
    struct coro_str ty = coro_type_str(mlirFunctionTypeGetInput(fty, i));
    coro_str_appendf(&s, "%s%%a%ld: %s", i ? ", " : "", (long)i,
                     coro_str_cstr(&ty));
    coro_str_appendf(&args, ", %%a%ld", (long)i);
    coro_str_appendf(&types, ", %s", coro_str_cstr(&ty));
    coro_str_free(&ty);
  }
  coro_str_appendz(&s, ") -> !llvm.ptr {\n");
  coro_str_appendf(&s,
                   /* sizeof(control block) measured from a stack address, not
                    * as a constant expression (see emit_begin) */
                   "  %%z = llvm.mlir.zero : !llvm.ptr\n"
                   "  %%one = llvm.mlir.constant(1 : i64) : i64\n"
                   "  %%probe = llvm.alloca %%one x i8 : (i64) -> !llvm.ptr\n"
                   "  %%end = llvm.getelementptr %%probe[1] : (!llvm.ptr) -> "
                   "!llvm.ptr, %s\n"
                   "  %%e = llvm.ptrtoint %%end : !llvm.ptr to i64\n"
                   "  %%b = llvm.ptrtoint %%probe : !llvm.ptr to i64\n"
                   "  %%size = llvm.sub %%e, %%b : i64\n",
                   cbt);
  coro_call_text(&s, st->alloc.alloc_fn, st->alloc.alloc_is_func, "%cb",
                 "%size", true);
  coro_str_appendf(
      &s,
      "  %%rf = llvm.mlir.addressof %s : !llvm.ptr\n"
      "  %%df = llvm.mlir.addressof %s : !llvm.ptr\n"
      "  %%f0 = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  llvm.store %%rf, %%f0 : !llvm.ptr, !llvm.ptr\n"
      "  %%f1 = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  llvm.store %%df, %%f1 : !llvm.ptr, !llvm.ptr\n"
      "  %%pc = llvm.getelementptr %%cb[%d] : (!llvm.ptr) -> !llvm.ptr, i8\n"
      "  llvm.store %%z, %%pc : !llvm.ptr, !llvm.ptr\n"
      "  %%v0 = llvm.mlir.zero : %s\n"
      "  %%pv = llvm.getelementptr %%pc[0, 1] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  llvm.store %%v0, %%pv {alignment = %u : i64} : %s, !llvm.ptr\n"
      "  %%fa = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  llvm.store %%z, %%fa : !llvm.ptr, !llvm.ptr\n"
      "  %%buf = llvm.getelementptr %%cb[0, %d] : (!llvm.ptr) -> "
      "!llvm.ptr, %s\n"
      "  %%res = func.call %s(%%buf%s) : (!llvm.ptr%s) -> %s\n"
      "  %%next = llvm.call %s(%%cb, %%res) : (!llvm.ptr, %s) -> "
      "!llvm.ptr\n"
      "  %%none = llvm.icmp \"eq\" %%next, %%z : !llvm.ptr\n"
      "  llvm.cond_br %%none, ^ret, ^go\n"
      "^go:\n"
      "  llvm.intr.coro.resume %%next : !llvm.ptr\n"
      "  llvm.br ^ret\n"
      "^ret:\n"
      "  func.return %%cb : !llvm.ptr\n"
      "}",
      coro_str_cstr(&t->resume), coro_str_cstr(&t->destroy), CB_RESUME, cbt,
      CB_DESTROY, cbt, CORO_PROMISE_OFFSET, coro_str_cstr(&t->S),
      coro_str_cstr(&t->pt), coro_value_align(st->S), coro_str_cstr(&t->S),
      CB_AWAITED, cbt, CB_BUFFER, cbt, coro_str_cstr(&t->ramp),
      coro_str_cstr(&args), coro_str_cstr(&types), coro_str_cstr(&t->ret),
      coro_str_cstr(&t->settle), coro_str_cstr(&t->ret));
  coro_queue_func(queue, &s);
  coro_str_free(&s);
  coro_str_free(&self);
  coro_str_free(&args);
  coro_str_free(&types);
}

/*===--- the ramp ----------------------------------------------------------*/

/* Replaces coro.begin with coro.id.retcon(.once) and coro.begin, and
 * computes the control block's address from the buffer. */
static void emit_begin(struct coro_fn *fn, struct rc_state *st,
                       struct texts *t) {
  struct cb b = cb_before(fn->begin);
  MlirContext ctx = b.ctx;
  MlirValue ops[6] = {cb_const_int(&b, 32, st->buffer_size),
                      cb_const_int(&b, 32, st->buffer_align),
                      st->buf,
                      coro_addressof(&b, &t->proto),
                      coro_addressof(&b, &t->alloc),
                      coro_addressof(&b, &t->free)};
  MlirValue id = cb_intrinsic(
      &b, st->once ? "llvm.coro.id.retcon.once" : "llvm.coro.id.retcon", 6, ops,
      cb_type(ctx, "!llvm.token"));
  MlirValue bops[2] = {id, cb_null(&b)};
  st->hdl = cb_val(&b, "llvm.intr.coro.begin", 2, bops, cb_ptr(ctx), NULL);
  /* self = buf - offsetof(buffer), computed from buf rather than from a
   * null base: a constant expression would be folded while translating to
   * LLVM IR, with whatever data layout the module has then. */
  MlirType i64 = cb_int(ctx, 64);
  MlirValue field = cb_field(&b, st->buf, st->cbt, CB_BUFFER);
  MlirValue sub[2] = {cb_val(&b, "llvm.ptrtoint", 1, &st->buf, i64, NULL),
                      cb_val(&b, "llvm.ptrtoint", 1, &field, i64, NULL)};
  MlirValue neg = cb_val(&b, "llvm.sub", 2, sub, i64,
                         "{overflowFlags = #llvm.overflow<none>}");
  MlirValue gops[2] = {st->buf, neg};
  st->self = cb_val(&b, "llvm.getelementptr", 2, gops, cb_ptr(ctx),
                    "{elem_type = i8, noWrapFlags = 0 : i32, "
                    "rawConstantIndices = array<i32: -2147483648>}");
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(fn->begin, 0), st->self);
  mlirOperationDestroy(fn->begin);
}

/* The one end block: ^end(%final: S) -> coro.end (with coro.end.results
 * for retcon.once); CoroSplit turns it into the ABI's return. */
static void emit_end_block(struct coro_fn *fn, struct rc_state *st) {
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  MlirContext ctx = mlirLocationGetContext(loc);
  st->end = coro_new_block(mlirOperationGetRegion(fn->func, 0), 1, &st->S, loc);
  struct cb b = cb_at_end(st->end, loc);
  MlirType token = cb_type(ctx, "!llvm.token");
  MlirValue tok;
  if (st->once) {
    MlirValue v = mlirBlockGetArgument(st->end, 0);
    struct coro_str attrs = {0}, sty = coro_type_str(st->S);
    coro_str_appendf(&attrs,
                     "{callee = @llvm.coro.end.results, var_callee_type = "
                     "!llvm.func<token (...)>, CConv = #llvm.cconv<ccc>, "
                     "TailCallKind = #llvm.tailcallkind<none>, fastmathFlags = "
                     "#llvm.fastmath<none>, op_bundle_sizes = array<i32>, "
                     "operandSegmentSizes = array<i32: 1, 0>}");
    tok = mlirOperationGetResult(cb_op(&b, "llvm.call", 1, &v, 1, &token,
                                       coro_str_cstr(&attrs), 0, NULL),
                                 0);
    coro_str_free(&attrs);
    coro_str_free(&sty);
  } else {
    tok = cb_val(&b, "llvm.mlir.none", 0, NULL, token, NULL);
  }
  MlirValue eops[3] = {st->hdl, cb_const_int(&b, 1, 0), tok};
  cb_intrinsic(&b, "llvm.coro.end", 3, eops, (MlirType){NULL});
  /* CoroSplit replaces what follows coro.end with the ABI's return. Before
   * it runs, the ramp must still look like it returns something opaque:
   * with `unreachable` here, interprocedural passes that run before
   * CoroSplit (IPSCCP) conclude the ramp never returns and fold its
   * callers' use of the result to undef. */
  MlirValue opaque = cb_load(&b, st->buf, st->ret, 8);
  cb_op(&b, "func.return", 1, &opaque, 0, NULL, NULL, 0, NULL);
}

/* Declares the vararg intrinsics the ramp calls. */
static MlirLogicalResult declare_intrinsics(struct coro_fn *fn,
                                            struct rc_state *st,
                                            struct coro_str *suspend_name) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  MlirType rt = cb_int(ctx, 1);
  if (!mlirTypeIsNull(st->RS)) {
    MlirType f[2] = {cb_int(ctx, 1), st->RS};
    rt = mlirLLVMStructTypeLiteralGet(ctx, 2, f, false);
  }
  coro_str_appendz(suspend_name, "llvm.coro.suspend.retcon.");
  if (!coro_mangle_type(rt, suspend_name))
    return coro_error_at(fn->func, "the values this coroutine takes on resume "
                                   "have a type the retcon ABIs cannot pass");
  struct coro_str sig = {0}, rts = coro_type_str(rt);
  coro_str_appendf(&sig, "(...) -> %s", coro_str_cstr(&rts));
  bool ok = coro_declare_func(
      fn->module,
      mlirFlatSymbolRefAttrGet(
          ctx, mlirStringRefCreate(suspend_name->data, suspend_name->len)),
      coro_str_cstr(&sig), loc);
  coro_str_free(&sig);
  coro_str_free(&rts);
  if (st->once)
    ok &= coro_declare_func(
        fn->module,
        mlirFlatSymbolRefAttrGet(
            ctx, mlirStringRefCreateFromCString("llvm.coro.end.results")),
        "(...) -> !llvm.token", loc);
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

struct rc_fn {
  struct rc_state st;
  struct coro_str suspend_name; /* the mangled llvm.coro.suspend.retcon.* */
};

/* The symbols the lowering adds for a coroutine, after its name. */
static const char *const retcon_suffixes[] = {
    ".coro.ramp",  ".coro.resume", ".coro.destroy", ".coro.settle",
    ".coro.proto", ".coro.alloc",  ".coro.free",    NULL};

static MlirLogicalResult rc_prepare_common(struct coro_fn *fn, bool once) {
  struct rc_fn *r = calloc(1, sizeof *r);
  struct rc_state *st = &r->st;
  fn->abi_state = r;
  st->once = once;
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirStringRef symkey = mlirStringRefCreateFromCString("sym_name");
  MlirStringRef name =
      mlirStringAttrGetValue(mlirOperationGetAttributeByName(fn->func, symkey));
  coro_str_append(&st->name, name.data, name.length);
  if (mlirLogicalResultIsFailure(layout(fn, st)) ||
      mlirLogicalResultIsFailure(
          coro_names_free(fn->module, &st->name, "retcon", retcon_suffixes)) ||
      mlirLogicalResultIsFailure(coro_allocator_get(
          fn->module, fn->func, "malloc", "free", &st->alloc)) ||
      mlirLogicalResultIsFailure(declare_intrinsics(fn, st, &r->suspend_name)))
    return mlirLogicalResultFailure();
  fn->abi_state = r;
  st->default_alloc =
      mlirAttributeIsNull(coro_sym_attr(fn->func, "coro.alloc_fn"));
  if (st->default_alloc &&
      !coro_declare_func(
          fn->module,
          mlirFlatSymbolRefAttrGet(
              ctx, mlirStringRefCreateFromCString("aligned_alloc")),
          "(i64, i64) -> !llvm.ptr", mlirOperationGetLocation(fn->func)))
    return mlirLogicalResultFailure();

  /* The coroutine's type and visibility become the entry function's. */
  MlirStringRef ftkey = mlirStringRefCreateFromCString("function_type");
  MlirType fty =
      mlirTypeAttrGetValue(mlirOperationGetAttributeByName(fn->func, ftkey));

  /* The coroutine itself becomes the private ramp (ptr buffer, args) ->
   * {ptr, S}. */
  struct coro_str visibility =
      coro_rename_private(fn->func, &st->name, ".coro.ramp");
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  MlirType *in = malloc((size_t)(n + 1) * sizeof *in);
  in[0] = cb_ptr(ctx);
  for (intptr_t i = 0; i < n; ++i)
    in[i + 1] = mlirFunctionTypeGetInput(fty, i);
  MlirType ramp_type = mlirFunctionTypeGet(ctx, n + 1, in, 1, &st->ret);
  free(in);
  mlirOperationSetAttributeByName(fn->func, ftkey, mlirTypeAttrGet(ramp_type));

  /* The entry, the thunks and the declarations they need. */
  struct texts t;
  texts_init(st, &t);
  struct coro_str queue = {0}, decls = {0};
  struct coro_str rt = coro_type_str(ramp_type);
  coro_str_appendf(&decls,
                   "func.func private %s%s\n"
                   "llvm.func @aligned_alloc(i64, i64) -> !llvm.ptr\n",
                   coro_str_cstr(&t.ramp),
                   coro_str_cstr(&rt) /* "(..) -> .." */);
  coro_allocator_decls(&decls, &st->alloc);
  coro_str_free(&rt);
  emit_decls(&queue, st, &t);
  emit_settle(&queue, st, &t);
  emit_resume(&queue, st, &t);
  emit_destroy(&queue, st, &t);
  emit_entry(&queue, st, &t, fty, &visibility);
  coro_str_free(&visibility);
  coro_flush_funcs(fn->module, &decls, &queue, 4);
  coro_str_free(&queue);
  coro_str_free(&decls);

  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn->func, 0));
  st->buf = mlirBlockInsertArgument(entry, 0, cb_ptr(ctx),
                                    mlirOperationGetLocation(fn->func));

  emit_begin(fn, st, &t);
  emit_end_block(fn, st);
  /* noinline: LLVM leaves coro.id.retcon and coro.begin in a split ramp
   * until CoroCleanup, so a split ramp inlined into a coroutine not yet
   * split gives that coroutine a second coro.begin, which CoroSplit
   * rejects (a fatal error). */
  coro_mark_lowered_body(fn->func);
  texts_free(&t);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult rc_prepare(struct coro_fn *fn) {
  return rc_prepare_common(fn, false);
}
static MlirLogicalResult rc_once_prepare(struct coro_fn *fn) {
  return rc_prepare_common(fn, true);
}

/* suspend.retcon(value): returns (abnormal, resume value or null). */
static MlirValue suspend(struct rc_fn *r, struct cb *b, MlirValue v,
                         MlirValue *resume_value) {
  struct rc_state *st = &r->st;
  MlirContext ctx = b->ctx;
  MlirType rt = cb_int(ctx, 1);
  if (!mlirTypeIsNull(st->RS)) {
    MlirType f[2] = {cb_int(ctx, 1), st->RS};
    rt = mlirLLVMStructTypeLiteralGet(ctx, 2, f, false);
  }
  struct coro_str rts = coro_type_str(rt), attrs = {0};
  coro_str_appendf(&attrs,
                   "{var_callee_type = !llvm.func<%s (...)>, CConv = "
                   "#llvm.cconv<ccc>, TailCallKind = #llvm.tailcallkind<none>, "
                   "fastmathFlags = #llvm.fastmath<none>, op_bundle_sizes = "
                   "array<i32>, operandSegmentSizes = array<i32: 1, 0>}",
                   coro_str_cstr(&rts));
  MlirOperation call =
      cb_op(b, "llvm.call", 1, &v, 1, &rt, coro_str_cstr(&attrs), 0, NULL);
  mlirOperationSetAttributeByName(
      call, mlirStringRefCreateFromCString("callee"),
      mlirFlatSymbolRefAttrGet(
          ctx, mlirStringRefCreate(r->suspend_name.data, r->suspend_name.len)));
  coro_str_free(&rts);
  coro_str_free(&attrs);
  MlirValue res = mlirOperationGetResult(call, 0);
  *resume_value = (MlirValue){NULL};
  if (mlirTypeIsNull(st->RS))
    return res;
  *resume_value = cb_val(b, "llvm.extractvalue", 1, &res, st->RS,
                         "{position = array<i64: 1>}");
  return cb_val(b, "llvm.extractvalue", 1, &res, cb_int(ctx, 1),
                "{position = array<i64: 0>}");
}

/* Branches to `dest` normally and to the end block when `abnormal`. */
static void branch_unless_abnormal(struct rc_state *st, struct cb *b,
                                   MlirValue abnormal, MlirBlock dest) {
  MlirValue ops[2] = {abnormal, coro_zero(b, st->S)};
  MlirBlock succ[2] = {st->end, dest};
  cb_op(b, "llvm.cond_br", 2, ops, 0, NULL,
        "{operandSegmentSizes = array<i32: 1, 1, 0>}", 2, succ);
}

static MlirLogicalResult rc_yield(struct coro_fn *fn, MlirOperation op) {
  struct rc_fn *r = fn->abi_state;
  struct rc_state *st = &r->st;
  struct cb b = cb_before(op);
  MlirValue v =
      mlirOperationGetNumOperands(op)
          ? coro_published(&b, op, mlirOperationGetOperand(op, 0), st->S)
          : coro_zero(&b, st->S);
  if (mlirValueIsNull(v))
    return mlirLogicalResultFailure();
  MlirValue rv;
  MlirValue abnormal = suspend(r, &b, v, &rv);
  if (mlirOperationGetNumResults(op) == 2)
    mlirValueReplaceAllUsesOfWith(
        mlirOperationGetResult(op, 1),
        coro_from_storage(&b, rv,
                          mlirValueGetType(mlirOperationGetResult(op, 1))));
  bool flag_unused =
      mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0)));
  coro_yield_continue(&b, op, abnormal, st->end,
                      flag_unused ? coro_zero(&b, st->S) : (MlirValue){NULL});
  return mlirLogicalResultSuccess();
}

/* Records this coroutine as the awaited handle `aw`'s continuation and
 * `aw` as what runs once this one has suspended; then suspends, publishing
 * nothing new (the current value again). Returns the abnormal flag. */
static MlirValue await_suspend(struct rc_fn *r, struct cb *b, MlirValue aw) {
  struct rc_state *st = &r->st;
  cb_store(b, st->self, coro_promise_field(b, aw, st->S, 0), 8);
  cb_store(b, aw, cb_field(b, st->self, st->cbt, CB_AWAITED), 8);
  MlirValue cur = cb_load(b, coro_promise_field(b, st->self, st->S, 1), st->S,
                          coro_value_align(st->S));
  MlirValue rv;
  return suspend(r, b, cur, &rv);
}

/* retcon.once: every path suspends exactly once (LLVM miscompiles a ramp
 * that reaches coro.end), so awaiting a finished coroutine suspends too,
 * with itself as what runs next; and once resumed, the coroutine drives
 * `aw` to its end itself (resume until done, with no continuation, so
 * that `aw`'s end does not transfer back into this running coroutine). */
static void await_once(struct rc_fn *r, struct cb *b, MlirOperation op,
                       MlirValue aw, MlirBlock next) {
  struct rc_state *st = &r->st;
  MlirBlock here = mlirOperationGetBlock(op);
  MlirBlock drive = coro_block_after(here, 0, NULL, b->loc);
  MlirBlock dres = coro_block_after(here, 0, NULL, b->loc);
  MlirBlock dcheck = coro_block_after(here, 0, NULL, b->loc);
  MlirBlock susp = coro_block_after(here, 0, NULL, b->loc);
  MlirBlock again = coro_block_after(here, 0, NULL, b->loc);
  MlirValue done = cb_intrinsic(b, "llvm.coro.done", 1, &aw, cb_int(b->ctx, 1));
  cb_cond_br(b, done, again, susp);
  struct cb a = cb_at_end(again, b->loc);
  cb_store(&a, st->self, cb_field(&a, st->self, st->cbt, CB_AWAITED), 8);
  MlirValue rv;
  MlirValue cur = cb_load(&a, coro_promise_field(&a, st->self, st->S, 1),
                          st->S, coro_value_align(st->S));
  branch_unless_abnormal(st, &a, suspend(r, &a, cur, &rv), drive);
  struct cb s = cb_at_end(susp, b->loc);
  branch_unless_abnormal(st, &s, await_suspend(r, &s, aw), drive);
  struct cb d = cb_at_end(drive, b->loc);
  cb_store(&d, cb_null(&d), coro_promise_field(&d, aw, st->S, 0), 8);
  cb_br(&d, dcheck, 0, NULL);
  struct cb c = cb_at_end(dcheck, b->loc);
  MlirValue ended =
      cb_intrinsic(&c, "llvm.coro.done", 1, &aw, cb_int(c.ctx, 1));
  cb_cond_br(&c, ended, next, dres);
  struct cb e = cb_at_end(dres, b->loc);
  cb_val(&e, "llvm.intr.coro.resume", 1, &aw, (MlirType){NULL}, NULL);
  cb_br(&e, dcheck, 0, NULL);
}

static MlirLogicalResult rc_await(struct coro_fn *fn, MlirOperation op) {
  struct rc_fn *r = fn->abi_state;
  struct rc_state *st = &r->st;
  struct cb b = cb_before(op);
  MlirValue aw = mlirOperationGetOperand(op, 0);
  MlirBlock next, check;
  if (st->once) {
    next = coro_split_after(op);
    await_once(r, &b, op, aw, next);
  } else {
    MlirBlock susp = coro_await_split(&b, op, aw, &next, &check);
    struct cb s = cb_at_end(susp, b.loc);
    branch_unless_abnormal(st, &s, await_suspend(r, &s, aw), check);
  }
  MlirLogicalResult res = coro_await_result(op, aw, next);
  mlirOperationDestroy(op);
  return res;
}

static MlirLogicalResult rc_end(struct coro_fn *fn, MlirOperation op) {
  struct rc_fn *r = fn->abi_state;
  struct rc_state *st = &r->st;
  struct cb b = cb_before(op);
  MlirOperation ret = coro_end_return(op);
  if (mlirOperationIsNull(ret))
    return mlirLogicalResultFailure();
  MlirValue v = coro_zero(&b, st->S);
  if (mlirOperationGetNumOperands(op) == 2) {
    v = coro_published(&b, op, mlirOperationGetOperand(op, 1), st->S);
    if (mlirValueIsNull(v))
      return mlirLogicalResultFailure();
    /* The final value is readable with coro.promise once done. */
    cb_store(&b, v, coro_promise_field(&b, st->self, st->S, 1),
             coro_value_align(st->S));
  }
  cb_br(&b, st->end, 1, &v);
  mlirOperationDestroy(ret);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult rc_self(struct coro_fn *fn, MlirOperation op) {
  struct rc_fn *r = fn->abi_state;
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r->st.self);
  mlirOperationDestroy(op);
  return mlirLogicalResultSuccess();
}

static void rc_finish(struct coro_fn *fn) {
  struct rc_fn *r = fn->abi_state;
  if (!r)
    return;
  coro_str_free(&r->st.name);
  coro_str_free(&r->suspend_name);
  free(r);
}

static MlirLogicalResult rc_consumer(MlirOperation module, MlirOperation op) {
  (void)module;
  return coro_lower_consumer(op, "retcon");
}

static const struct coro_abi retcon_abi = {
    .name = "retcon",
    .prepare = rc_prepare,
    .lower_yield = rc_yield,
    .lower_await = rc_await,
    .lower_end = rc_end,
    .lower_self = rc_self,
    .finish = rc_finish,
    .lower_consumer = rc_consumer,
};

static const struct coro_abi retcon_once_abi = {
    .name = "retcon.once",
    .prepare = rc_once_prepare,
    .lower_yield = rc_yield,
    .lower_await = rc_await,
    .lower_end = rc_end,
    .lower_self = rc_self,
    .finish = rc_finish,
    .lower_consumer = rc_consumer,
};

MlirLogicalResult coro_convert_to_llvm_retcon_run(MlirOperation module) {
  return coro_abi_convert(module, &retcon_abi);
}

MlirLogicalResult coro_convert_to_llvm_retcon_once_run(MlirOperation module) {
  return coro_abi_convert(module, &retcon_once_abi);
}
