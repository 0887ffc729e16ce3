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
 *       (ptr buffer, i1 abnormal[, R]) -> {ptr, S, ptr} (retcon) or S
 *       (once). Every suspension returns {continuation, published value,
 *       the handle to run next}: null after a yield, the awaited handle
 *       after an await; the end returns a null continuation (retcon) or,
 *       for retcon.once, the final result through coro.end.results.
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
 *            R   resume_slot;    the value coro.resume passes (i8 if none)
 *            [N x iALIGN] buffer } coro.buffer = array<i64: SIZE, ALIGN>
 *
 * The body reaches its own control block (coro.self, published final values,
 * awaits) at a fixed negative offset from the buffer. LLVM allows one
 * fallthrough coro.end per coroutine: every coro.end branches to one end
 * block. A value passed on resume travels through the resume slot.
 *
 * Every op is built with ir/ (nothing is parsed); the generated functions
 * are located at the coroutine, named after themselves (ir_generated_loc).
 * Symbol names are kept with their length: a coroutine's name may hold any
 * byte. */
#include "conversion/CoroToLLVMRetcon/convert_coro_to_llvm_retcon.h"
#include "conversion/CoroToNVVM/convert_coro_to_nvvm.h"
#include "conversion/common/abi.h"
#include "conversion/common/names.h"
#include "dialect/contract.h"
#include "dialect/handle_origin.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>

enum {
  DEFAULT_BUFFER_SIZE = 32,
  DEFAULT_BUFFER_ALIGN = 8,
  MAX_ALIGN = 16,
  FRAME_ALIGN = 64 /* frames LLVM allocates with malloc/free */
};

/* Control block fields (see the header comment). */
enum { CB_RESUME, CB_DESTROY, CB_PROMISE, CB_CONT, CB_SLOT, CB_BUFFER };

/* The names of the functions generated for a coroutine (owned). */
struct rc_names {
  struct coro_str ramp, resume, destroy, settle, proto, alloc, free;
  struct coro_str elided, cleanup; /* for calls --coro-elide marked */
};

struct rc_state {
  bool once;
  /* for the device (a module marked coro.device): the entries return the
   * handle to run next to the resume loop instead of tail-calling it */
  bool device;
  MlirType value_storage; /* S: how a published value is stored */
  /* R, the type a resume passes in, and RS, how it is stored (null: none) */
  MlirType resume_type, resume_storage;
  MlirType control_type; /* the control block struct */
  MlirType ret;          /* the ramp's result: {ptr, S, ptr} */
  MlirValue buf, self, hdl;
  MlirBlock end;                       /* ^end(%final: S): the one coro.end */
  long long buffer_size, buffer_align; /* coro.buffer, or the defaults */
  struct coro_allocator alloc;
  bool default_alloc;   /* malloc/free: frames from aligned_alloc */
  uint64_t frame_align; /* what aligned_alloc is asked for (frame_align) */
  struct coro_str name; /* the coroutine's symbol name */
  struct rc_names names;
  /* What coro.id.retcon(.once) is given to allocate and free frames: the
   * allocator pair, or the adapters generated for it. */
  MlirAttribute frame_alloc, frame_free;
};

/*===--- layout ------------------------------------------------------------*/

static MlirLogicalResult layout(struct coro_fn *fn, struct rc_state *st) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  const char *abi = st->once ? "retcon.once" : "retcon";
  st->value_storage = coro_value_storage(fn->func, fn->value_type, abi);
  if (mlirTypeIsNull(st->value_storage))
    return mlirLogicalResultFailure();
  st->resume_type =
      coro_resume_type(fn->func); /* the verifier made yields agree */
  if (!mlirTypeIsNull(st->resume_type)) {
    st->resume_storage = coro_storage_type(st->resume_type);
    if (mlirTypeIsNull(st->resume_storage))
      return coro_error_at(fn->func,
                           "the values this coroutine takes on resume "
                           "have a type the retcon ABIs cannot pass");
  }
  long long size = DEFAULT_BUFFER_SIZE, align = DEFAULT_BUFFER_ALIGN;
  MlirAttribute buffer = mlirOperationGetAttributeByName(
      fn->func, mlirStringRefCreateFromCString(CORO_BUFFER_ATTR));
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
  /* "elide": coro-elide has checked that every call's handle stays in
   * its caller, and marked the calls (place_elided) */
  MlirAttribute kind = mlirOperationGetAttributeByName(
      fn->func, mlirStringRefCreateFromCString(CORO_ALLOC_ATTR));
  if (!coro_alloc_is_heap(fn->func) &&
      !(mlirAttributeIsAString(kind) &&
        coro_ref_eq(mlirStringAttrGetValue(kind), "elide")))
    return coro_error_at(fn->func,
                         "the retcon ABIs support coro.alloc = \"heap\", "
                         "\"elide\" (or coro.alloc_fn/coro.free_fn), and "
                         "\"arena\" on the device");
  MlirType ptr = ir_ptr_type(ctx);
  /* A frame that does not fit the buffer is allocated, and LLVM keeps its
   * pointer in the buffer: the buffer holds at least one pointer, aligned
   * as one, whatever coro.buffer asks for. */
  size = st->buffer_size = size < 8 ? 8 : size;
  align = st->buffer_align = align < 8 ? 8 : align;
  MlirType buffer_type =
      mlirLLVMArrayTypeGet(ir_int_type(ctx, (unsigned)(align * 8)),
                           (unsigned)((size + align - 1) / align));
  MlirType slot = mlirTypeIsNull(st->resume_storage) ? ir_int_type(ctx, 8)
                                                     : st->resume_storage;
  MlirType fields[6] = {ptr, ptr,  coro_promise_type(ctx, st->value_storage),
                        ptr, slot, buffer_type};
  st->control_type = ir_struct_type(ctx, 6, fields);
  /* What a suspension yields: the published value and the handle to run
   * once it has suspended. Yielding that handle rather than leaving it in
   * the control block keeps a yield's resume from reading and clearing a
   * field: after a yield it is a constant null. */
  MlirType rf[3] = {ptr, st->value_storage, ptr};
  st->ret = ir_struct_type(ctx, 3, rf);
  return mlirLogicalResultSuccess();
}

/*===--- builders this file needs ------------------------------------------*/

/* The flat symbol ref naming `name` (any bytes). */
static MlirAttribute sym_of(MlirContext ctx, const struct coro_str *name) {
  return mlirFlatSymbolRefAttrGet(ctx,
                                  mlirStringRefCreate(name->data, name->len));
}

/* The coroutine's name followed by `suffix` (caller frees). */
static struct coro_str name_with(const struct rc_state *st,
                                 const char *suffix) {
  struct coro_str s = {0};
  coro_str_append(&s, st->name.data, st->name.len);
  coro_str_appendz(&s, suffix);
  return s;
}

/* %p = llvm.mlir.addressof @sym : !llvm.ptr */
static MlirValue addr_of(struct ir_builder *b, MlirAttribute sym) {
  MlirNamedAttribute a = ir_named(b->ctx, "global_name", sym);
  MlirType ptr = ir_ptr_type(b->ctx);
  return mlirOperationGetResult(
      ir_op(b, "llvm.mlir.addressof", 0, NULL, 1, &ptr, 1, &a, 0, NULL), 0);
}

/* %q = llvm.getelementptr %base[idx...] : (!llvm.ptr) -> !llvm.ptr, elem,
 * with `n` constant indices and without the noWrapFlags attribute that
 * ir/builder.c's GEPs set (MLIR 22 keeps it as a discardable attribute
 * beside the GEP's property, so it is printed): the ramp's GEPs, made by
 * ir/builder.c, always had it; the generated functions' never did. */
static MlirValue gep(struct ir_builder *b, MlirValue base, MlirType elem,
                     intptr_t n, const int32_t *idx) {
  MlirNamedAttribute a[2] = {
      ir_named(b->ctx, "elem_type", mlirTypeAttrGet(elem)),
      ir_named(b->ctx, "rawConstantIndices", ir_i32_array(b->ctx, n, idx))};
  MlirType ptr = ir_ptr_type(b->ctx);
  MlirOperation op =
      ir_op(b, "llvm.getelementptr", 1, &base, 1, &ptr, 2, a, 0, NULL);
  return mlirOperationGetResult(op, 0);
}

/* In the ramp: field `index` of the control block `ctl`. */
static MlirValue ctl_field(struct ir_builder *b, const struct rc_state *st,
                           MlirValue ctl, int index) {
  return ir_gep_field(b, ctl, st->control_type, index);
}

/* In the generated functions (GEPs without the noWrapFlags attribute):
 * field `index` of the control block `ctl`, `offset` bytes from `p`, and
 * the value field of the promise at `promise`. */
static MlirValue gen_field(struct ir_builder *b, const struct rc_state *st,
                           MlirValue ctl, int index) {
  int32_t idx[2] = {0, index};
  return gep(b, ctl, st->control_type, 2, idx);
}

static MlirValue gen_bytes(struct ir_builder *b, MlirValue p, int32_t offset) {
  return gep(b, p, ir_int_type(b->ctx, 8), 1, &offset);
}

static MlirValue gen_promise_value(struct ir_builder *b,
                                   const struct rc_state *st,
                                   MlirValue promise) {
  int32_t idx[2] = {0, 1};
  return gep(b, promise, coro_promise_type(b->ctx, st->value_storage), 2, idx);
}

/* The allocator or deallocator `sym` called on `arg` (func.call when
 * `is_func`): %p = call @alloc(%n) : (i64) -> !llvm.ptr, or
 * call @free(%p) : (!llvm.ptr) -> (). */
static MlirValue call_allocator(struct ir_builder *b, MlirAttribute sym,
                                bool is_func, MlirValue arg, bool alloc) {
  return ir_call(b, sym, is_func, 1, &arg,
                 alloc ? ir_ptr_type(b->ctx) : (MlirType){NULL});
}

/* Declares the vararg llvm.func `name` (result `result`) at the start of
 * the module unless a function of that name exists; false after an error
 * at a symbol of that name that is not a function. */
static bool declare_vararg(MlirOperation module, const struct coro_str *name,
                           MlirType result, MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirOperation op =
      coro_lookup_symbol(module, mlirStringRefCreate(name->data, name->len));
  if (!mlirOperationIsNull(op)) /* a function, or the error */
    return coro_declare_llvm_func(module, sym_of(ctx, name), result, 0, NULL,
                                  loc);
  struct ir_func_spec spec = {
      .name = coro_str_cstr(name), .result = result, .vararg = true};
  MlirOperation f = ir_llvm_func(module, &spec, true, loc);
  MlirBlock body = mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0));
  mlirOperationMoveBefore(f, mlirBlockGetFirstOperation(body));
  return true;
}

/* The llvm.func `spec` named `name`, appended to the module and located at
 * the coroutine as code generated under that name; `*loc` gets that
 * location. Returns its entry block (null for a declaration). */
static MlirBlock gen_func(struct coro_fn *fn, const struct coro_str *name,
                          struct ir_func_spec *spec, bool declaration,
                          MlirLocation *loc) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  *loc =
      ir_generated_loc(mlirOperationGetLocation(fn->func), coro_str_cstr(name));
  spec->name = coro_str_cstr(name);
  MlirOperation f = ir_llvm_func(fn->module, spec, declaration, *loc);
  /* The name again with its length: it may hold a NUL. */
  mlirOperationSetAttributeByName(
      f, mlirStringRefCreateFromCString("sym_name"),
      mlirStringAttrGet(ctx, mlirStringRefCreate(name->data, name->len)));
  return declaration ? (MlirBlock){NULL} : ir_func_entry(f);
}

/* The bodies of the generated functions, made once every coroutine of the
 * run is lowered (coro_defer_body): each reads the coroutine's state,
 * which rc_finish frees after them. */
enum body_kind {
  BODY_SETTLE,
  BODY_RESUME,
  BODY_DESTROY,
  BODY_ENTRY,
  BODY_ALLOC,
  BODY_FREE
};

struct rc_body {
  const struct rc_state *st;
  enum body_kind kind;
  MlirBlock entry;
  MlirLocation loc;
  bool flag; /* resume: %c is known; destroy: cleanup; entry: elided */
};

static void fill_body(void *job);

static void defer_body(struct coro_fn *fn, const struct rc_state *st,
                       enum body_kind kind, MlirBlock entry, MlirLocation loc,
                       bool flag) {
  struct rc_body *body = ir_xmalloc(sizeof *body);
  *body = (struct rc_body){st, kind, entry, loc, flag};
  coro_defer_body(fn, fill_body, body);
}

/* The continuations' parameters: (ptr buffer, i1 abnormal[, RS]). */
static intptr_t proto_args(const struct rc_state *st, MlirContext ctx,
                           MlirType args[3]) {
  args[0] = ir_ptr_type(ctx);
  args[1] = ir_int_type(ctx, 1);
  args[2] = st->resume_storage;
  return mlirTypeIsNull(st->resume_storage) ? 2 : 3;
}

/* What a continuation returns: {ptr, S, ptr} (retcon) or S (once). */
static MlirType cont_ret(const struct rc_state *st) {
  return st->once ? st->value_storage : st->ret;
}

/* %res = llvm.call %cont(%buf, %abnormal[, %r]) : !llvm.ptr, (proto) -> R */
static MlirValue call_cont(struct ir_builder *b, const struct rc_state *st,
                           MlirValue cont, MlirValue buf, MlirValue abnormal,
                           MlirValue r) {
  MlirValue args[3] = {buf, abnormal, r};
  MlirValue res = ir_call_indirect(b, cont, 0, 0, mlirValueIsNull(r) ? 2 : 3,
                                   args, cont_ret(st));
  /* route B calls the continuations it makes directly */
  mlirOperationSetAttributeByName(
      mlirOpResultGetOwner(res),
      mlirStringRefCreateFromCString(CORO_CONTINUATION_OF_ATTR),
      sym_of(b->ctx, &st->names.ramp));
  return res;
}

/*===--- generated functions -----------------------------------------------*/

static void names_init(struct rc_state *st) {
  st->names.ramp = name_with(st, CORO_RETCON_RAMP);
  st->names.resume = name_with(st, CORO_RETCON_RESUME);
  st->names.destroy = name_with(st, CORO_RETCON_DESTROY);
  st->names.settle = name_with(st, CORO_RETCON_SETTLE);
  st->names.proto = name_with(st, CORO_RETCON_PROTO);
  st->names.alloc = name_with(st, CORO_RETCON_ALLOC);
  st->names.free = name_with(st, CORO_RETCON_FREE);
}

static void release_names(struct rc_names *n) {
  struct coro_str *all[] = {&n->ramp,   &n->resume, &n->destroy,
                            &n->settle, &n->proto,  &n->alloc,
                            &n->free,   &n->elided, &n->cleanup};
  for (size_t i = 0; i < sizeof all / sizeof *all; ++i)
    coro_str_free(all[i]);
}

/* The settle function records a suspension (continuation and published
 * value) or the end; it returns the handle to run next (the awaited handle
 * after an await, the awaiter after the end) or null. %prev is the
 * continuation that ran (null from the ramp): the control block holds it
 * already, so a suspension that returns the same one stores nothing:
 *
 *   llvm.func internal @"gen.coro.settle"(%cb: !llvm.ptr,
 *                                         %res: !llvm.struct<(ptr, S, ptr)>,
 *                                         %prev: !llvm.ptr) -> !llvm.ptr {
 *     %c = llvm.extractvalue %res[0]
 *     llvm.cond_br (%c == null), ^fin, ^susp
 *   ^fin:                             // ended: the awaiter runs next
 *     cb.continuation = null
 *     cb.resume = null
 *     llvm.return cb.promise.continuation
 *   ^susp:                            // suspended: publish the value
 *     llvm.cond_br (%c == %prev), ^pub, ^new
 *   ^new:
 *     cb.continuation = %c
 *     llvm.br ^pub
 *   ^pub:
 *     cb.promise.value = llvm.extractvalue %res[1]
 *     llvm.return llvm.extractvalue %res[2]
 *   }
 *
 * Nothing before the branch but the test: once LLVM has inlined a known
 * continuation, each of its returns goes straight to its own side. Route
 * B calls a known continuation directly and passes it as %prev
 * (split_direct_continuation_calls), so a generator's loop, which
 * returns its own continuation, writes only its value. */
static void emit_settle(struct coro_fn *fn, struct rc_state *st) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirType ptr = ir_ptr_type(ctx);
  MlirType args[3] = {ptr, st->ret, ptr};
  struct ir_func_spec spec = {.result = ptr,
                              .nargs = 3,
                              .args = args,
                              .linkage = MlirLLVMLinkageInternal};
  MlirLocation loc;
  MlirBlock entry = gen_func(fn, &st->names.settle, &spec, false, &loc);
  defer_body(fn, st, BODY_SETTLE, entry, loc, false);
}

static void fill_settle(const struct rc_state *st, MlirBlock entry,
                        MlirLocation loc) {
  MlirType ptr = ir_ptr_type(mlirLocationGetContext(loc));
  MlirValue ctl = mlirBlockGetArgument(entry, 0);
  MlirValue res = mlirBlockGetArgument(entry, 1);
  MlirValue prev = mlirBlockGetArgument(entry, 2);
  MlirBlock fin = ir_block_after(entry, 0, NULL, loc);
  MlirBlock susp = ir_block_after(fin, 0, NULL, loc);
  MlirBlock fresh = ir_block_after(susp, 0, NULL, loc);
  MlirBlock pub = ir_block_after(fresh, 0, NULL, loc);

  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue z = ir_null(&b);
  MlirValue c = ir_extractvalue(&b, res, 0, ptr);
  ir_cond_br(&b, ir_icmp(&b, IR_EQ, c, z), fin, susp);

  b = ir_at_end(fin, loc);
  ir_store(&b, z, gen_field(&b, st, ctl, CB_CONT), 0);
  ir_store(&b, z, gen_field(&b, st, ctl, CB_RESUME), 0);
  MlirValue pc = gen_bytes(&b, ctl, CORO_PROMISE_OFFSET);
  ir_return(&b, ir_load(&b, pc, ptr, 0));

  b = ir_at_end(susp, loc);
  ir_cond_br(&b, ir_icmp(&b, IR_EQ, c, prev), pub, fresh);

  b = ir_at_end(fresh, loc);
  ir_store(&b, c, gen_field(&b, st, ctl, CB_CONT), 0);
  ir_br(&b, pub, 0, NULL);

  b = ir_at_end(pub, loc);
  MlirValue v = ir_extractvalue(&b, res, 1, st->value_storage);
  MlirValue pp = gen_bytes(&b, ctl, CORO_PROMISE_OFFSET);
  ir_store(&b, v, gen_promise_value(&b, st, pp),
           coro_value_align(st->value_storage));
  ir_return(&b, ir_extractvalue(&b, res, 2, ptr));
}

/* Runs `next` (a handle, maybe null) by a tail call of its resume entry,
 * ending the function at `b` (in `here`):
 *
 *     llvm.cond_br (%next == null), ^ret, ^go
 *   ^go:
 *     llvm.call fastcc musttail %next.resume(%next)
 *     llvm.return
 *   ^ret:
 *     llvm.return
 *
 * On the device (no musttail) the entry returns `next` to the resume loop
 * that called it (coro_split.h's CORO_DEVICE_RUN). */
static void tail_resume(struct ir_builder *b, const struct rc_state *st,
                        MlirBlock here, MlirValue next) {
  if (st->device) {
    ir_return(b, next);
    return;
  }
  MlirType ptr = ir_ptr_type(b->ctx);
  MlirBlock go = ir_block_after(here, 0, NULL, b->loc);
  MlirBlock ret = ir_block_after(go, 0, NULL, b->loc);
  MlirValue z = ir_null(b);
  ir_cond_br(b, ir_icmp(b, IR_EQ, next, z), ret, go);
  struct ir_builder g = ir_at_end(go, b->loc);
  MlirValue fn = ir_load(&g, next, ptr, 0);
  ir_call_indirect(&g, fn, MlirLLVMCConvFast, 2 /* musttail */, 1, &next,
                   (MlirType){NULL});
  ir_return(&g, (MlirValue){NULL});
  struct ir_builder r = ir_at_end(ret, b->loc);
  ir_return(&r, (MlirValue){NULL});
}

/* A resume or destroy entry, `name`: an internal fastcc void(ptr) (on the
 * device ptr(ptr), returning the handle to run next), its body deferred
 * (`kind`, `flag`). */
static void entry_func(struct coro_fn *fn, struct rc_state *st,
                       const struct coro_str *name, enum body_kind kind,
                       bool flag) {
  MlirType ptr = ir_ptr_type(mlirOperationGetContext(fn->func));
  struct ir_func_spec spec = {.result = st->device ? ptr : (MlirType){NULL},
                              .nargs = 1,
                              .args = &ptr,
                              .linkage = MlirLLVMLinkageInternal,
                              .cconv = MlirLLVMCConvFast};
  MlirLocation loc;
  MlirBlock entry = gen_func(fn, name, &spec, false, &loc);
  defer_body(fn, st, kind, entry, loc, flag);
}

/* The body of a resume or destroy entry starts with %c = the continuation
 * (returned); `*b` points after it. */
static MlirValue entry_head(const struct rc_state *st, MlirBlock entry,
                            MlirLocation loc, struct ir_builder *b) {
  MlirType ptr = ir_ptr_type(mlirLocationGetContext(loc));
  *b = ir_at_end(entry, loc);
  MlirValue ctl = mlirBlockGetArgument(entry, 0);
  return ir_load(b, gen_field(b, st, ctl, CB_CONT), ptr, 0);
}

/* The resume entry runs the continuation normally, with the resume slot's
 * value, settles, and tail-calls whatever runs next:
 *
 *   llvm.func internal fastcc @"gen.coro.resume"(%cb: !llvm.ptr) {
 *     %c = cb.continuation
 *     %res = llvm.call %c(cb.buffer, false[, cb.resume_slot])
 *     %next = llvm.call @"gen.coro.settle"(%cb, %res, %c or null)
 *     tail-resume %next
 *   }
 *
 * retcon.once: the one continuation ran to the end, so it settles with a
 * null continuation (the final value is already in the promise). */
static void emit_resume(struct coro_fn *fn, struct rc_state *st) {
  /* Route B (and the device, which only it splits) calls a known
   * continuation directly and knows %c there; LLVM's split (route A) does
   * not: a null %prev, which costs nothing (the suspended side's %c is
   * never null), rather than %c kept across the call for a test that never
   * folds. */
  entry_func(fn, st, &st->names.resume, BODY_RESUME,
             st->device || coro_route_b(fn->func));
}

static void fill_resume(const struct rc_state *st, MlirBlock entry,
                        MlirLocation loc, bool prev_known) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType ptr = ir_ptr_type(ctx);
  struct ir_builder b;
  MlirValue c = entry_head(st, entry, loc, &b);
  MlirValue ctl = mlirBlockGetArgument(entry, 0);
  MlirValue buf = gen_field(&b, st, ctl, CB_BUFFER);
  MlirValue no = ir_const_int(&b, 1, 0);
  MlirValue r = {NULL};
  if (!mlirTypeIsNull(st->resume_storage))
    r = ir_load(&b, gen_field(&b, st, ctl, CB_SLOT), st->resume_storage, 0);
  MlirValue res = call_cont(&b, st, c, buf, no, r);
  if (st->once) {
    MlirValue n = ir_null(&b);
    MlirValue u = ir_val(&b, "llvm.mlir.undef", 0, NULL, st->ret);
    res = ir_insertvalue(&b, u, n, 0);
  }
  MlirValue prev = prev_known ? c : ir_null(&b);
  MlirValue sargs[3] = {ctl, res, prev};
  MlirValue next =
      ir_call(&b, sym_of(ctx, &st->names.settle), false, 3, sargs, ptr);
  tail_resume(&b, st, entry, next);
}

/* The destroy entry resumes a suspended coroutine abnormally (it runs its
 * cleanup to coro.end), then frees the control block (the cleanup entry,
 * of a control block in its caller's memory, does not):
 *
 *   llvm.func internal fastcc @"gen.coro.destroy"(%cb: !llvm.ptr) {
 *     %c = cb.continuation
 *     llvm.cond_br (%c != null), ^run, ^free
 *   ^run:
 *     llvm.call %c(cb.buffer, true[, zero])
 *     llvm.br ^free
 *   ^free:
 *     call @free(%cb)
 *     llvm.return
 *   } */
static void emit_destroy(struct coro_fn *fn, struct rc_state *st,
                         bool cleanup) {
  entry_func(fn, st, cleanup ? &st->names.cleanup : &st->names.destroy,
             BODY_DESTROY, cleanup);
}

static void fill_destroy(const struct rc_state *st, MlirBlock entry,
                         MlirLocation loc, bool cleanup) {
  struct ir_builder b;
  MlirValue c = entry_head(st, entry, loc, &b);
  MlirValue ctl = mlirBlockGetArgument(entry, 0);
  MlirBlock run = ir_block_after(entry, 0, NULL, b.loc);
  MlirBlock free_blk = ir_block_after(run, 0, NULL, b.loc);
  MlirValue z = ir_null(&b);
  ir_cond_br(&b, ir_icmp(&b, IR_NE, c, z), run, free_blk);

  struct ir_builder r = ir_at_end(run, b.loc);
  MlirValue buf = gen_field(&r, st, ctl, CB_BUFFER);
  MlirValue yes = ir_const_int(&r, 1, 1);
  MlirValue rv = {NULL};
  if (!mlirTypeIsNull(st->resume_storage))
    rv = ir_zero(&r, st->resume_storage);
  call_cont(&r, st, c, buf, yes, rv);
  ir_br(&r, free_blk, 0, NULL);

  struct ir_builder f = ir_at_end(free_blk, b.loc);
  if (!cleanup)
    call_allocator(&f, st->alloc.free_fn, st->alloc.free_is_func, ctl, false);
  ir_return(&f, st->device ? ir_null(&f) : (MlirValue){NULL});
}

/* How an op can ask its frame for an alignment: an `alignment` attribute
 * (llvm.alloca, memref.alloca), an alloca's element type, a result's type
 * (a value live across a suspension is a frame field of that type). */
static MlirWalkResult note_align(MlirOperation op, void *data) {
  uint64_t *align = data, size, a;
  MlirAttribute at = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("alignment"));
  if (!mlirAttributeIsNull(at) && mlirAttributeIsAInteger(at) &&
      mlirIntegerAttrGetValueInt(at) > 0 &&
      (uint64_t)mlirIntegerAttrGetValueInt(at) > *align)
    *align = (uint64_t)mlirIntegerAttrGetValueInt(at);
  MlirAttribute et = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("elem_type"));
  if (!mlirAttributeIsNull(et) && mlirAttributeIsAType(et) &&
      ir_type_layout(mlirTypeAttrGetValue(et), &size, &a) && a > *align)
    *align = a;
  for (intptr_t i = 0; i < mlirOperationGetNumResults(op); ++i)
    if (ir_type_layout(mlirValueGetType(mlirOperationGetResult(op, i)), &size,
                       &a) &&
        a > *align)
      *align = a;
  return MlirWalkResultAdvance;
}

/* The alignment a frame of `func` may need: FRAME_ALIGN, or more where an
 * alloca or a value of the body asks for more. LLVM lays the frame out
 * for its fields' alignments and gives the allocator only the size, so
 * the allocator must give the most any field asks for (an alloca aligned
 * to 4096 was misaligned at -O0 under both routes). */
static uint64_t frame_align(MlirOperation func) {
  uint64_t align = FRAME_ALIGN;
  mlirOperationWalk(func, note_align, &align, MlirWalkPreOrder);
  return align;
}

/* The frame allocator coro.id.retcon gets for frames that do not fit the
 * buffer (too big, or aligned above it). LLVM passes only the size, so
 * with malloc/free the frame comes from aligned_alloc, aligned to
 * A = frame_align (at least 64, enough for any vector up to 512 bits):
 *
 *   llvm.func internal @"gen.coro.alloc"(%n: i64) -> !llvm.ptr {
 *     llvm.return llvm.call @aligned_alloc(A, (%n + A - 1) & -A)
 *   }
 *
 * and an allocator that is a func.func gets an llvm.func adapter
 * (coro.id.retcon takes function pointers):
 *
 *   llvm.func internal @"gen.coro.alloc"(%n: i64) -> !llvm.ptr {
 *     llvm.return func.call @alloc_fn(%n)
 *   } */
static void emit_frame_alloc(struct coro_fn *fn, struct rc_state *st) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  if (!st->default_alloc && !st->alloc.alloc_is_func) {
    st->frame_alloc = st->alloc.alloc_fn;
    return;
  }
  st->frame_alloc = sym_of(ctx, &st->names.alloc);
  MlirType ptr = ir_ptr_type(ctx), i64 = ir_int_type(ctx, 64);
  struct ir_func_spec spec = {.result = ptr,
                              .nargs = 1,
                              .args = &i64,
                              .linkage = MlirLLVMLinkageInternal};
  MlirLocation loc;
  MlirBlock entry = gen_func(fn, &st->names.alloc, &spec, false, &loc);
  defer_body(fn, st, BODY_ALLOC, entry, loc, false);
}

static void fill_alloc(const struct rc_state *st, MlirBlock entry,
                       MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType ptr = ir_ptr_type(ctx);
  MlirValue n = mlirBlockGetArgument(entry, 0);
  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue p;
  if (st->default_alloc) {
    long long al = (long long)st->frame_align;
    MlirValue a = ir_const_int(&b, 64, al);
    MlirValue m = ir_const_int(&b, 64, al - 1);
    MlirValue up = ir_binop(&b, "add", n, m);
    MlirValue low = ir_const_int(&b, 64, -al);
    MlirValue args[2] = {a, ir_binop(&b, "and", up, low)};
    p = ir_call(&b, ir_sym_ref(ctx, "aligned_alloc"), false, 2, args, ptr);
  } else {
    p = call_allocator(&b, st->alloc.alloc_fn, true, n, true);
  }
  ir_return(&b, p);
}

/* The frame deallocator: free_fn itself, or for a func.func an adapter
 *
 *   llvm.func internal @"gen.coro.free"(%p: !llvm.ptr) {
 *     func.call @free_fn(%p)
 *     llvm.return
 *   } */
static void emit_frame_free(struct coro_fn *fn, struct rc_state *st) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  if (!st->alloc.free_is_func) {
    st->frame_free = st->alloc.free_fn;
    return;
  }
  st->frame_free = sym_of(ctx, &st->names.free);
  MlirType ptr = ir_ptr_type(ctx);
  struct ir_func_spec spec = {
      .nargs = 1, .args = &ptr, .linkage = MlirLLVMLinkageInternal};
  MlirLocation loc;
  MlirBlock entry = gen_func(fn, &st->names.free, &spec, false, &loc);
  defer_body(fn, st, BODY_FREE, entry, loc, false);
}

static void fill_free(const struct rc_state *st, MlirBlock entry,
                      MlirLocation loc) {
  struct ir_builder b = ir_at_end(entry, loc);
  call_allocator(&b, st->alloc.free_fn, true, mlirBlockGetArgument(entry, 0),
                 false);
  ir_return(&b, (MlirValue){NULL});
}

/* The prototype of the continuations, a declaration only:
 *
 *   llvm.func private @"gen.coro.proto"(!llvm.ptr, i1[, RS])
 *       -> !llvm.struct<(ptr, S)>        (retcon.once: -> S)
 *
 * then the frame allocator and deallocator. */
static void emit_decls(struct coro_fn *fn, struct rc_state *st) {
  MlirType args[3];
  intptr_t n = proto_args(st, mlirOperationGetContext(fn->func), args);
  struct ir_func_spec spec = {.result = cont_ret(st),
                              .nargs = n,
                              .args = args,
                              .visibility = "private"};
  MlirLocation loc;
  gen_func(fn, &st->names.proto, &spec, true, &loc);
  emit_frame_alloc(fn, st);
  emit_frame_free(fn, st);
}

/* The coroutine's name becomes an ordinary function that allocates and
 * initializes the control block, runs the ramp on its buffer, settles and
 * runs an awaited handle:
 *
 *   func.func @gen(args) -> !llvm.ptr {
 *     %cb = call @alloc_fn(sizeof control block)   (measured: see below)
 *     cb.resume = @"gen.coro.resume", cb.destroy = @"gen.coro.destroy"
 *     cb.promise = {null, zero}
 *     %res = func.call @"gen.coro.ramp"(cb.buffer, args)
 *     %next = llvm.call @"gen.coro.settle"(%cb, %res, null)
 *     llvm.cond_br (%next == null), ^ret, ^go
 *   ^go:
 *     llvm.intr.coro.resume %next
 *     llvm.br ^ret
 *   ^ret:
 *     func.return %cb
 *   } */
static void emit_entry(struct coro_fn *fn, struct rc_state *st, MlirType fty,
                       const struct coro_str *visibility, bool elided) {
  const struct coro_str *name = elided ? &st->names.elided : &st->name;
  MlirLocation loc =
      ir_generated_loc(mlirOperationGetLocation(fn->func), coro_str_cstr(name));
  MlirBlock entry = coro_entry_func(fn->module, name, fty, visibility, loc);
  if (!elided) /* NAME.elided takes the caller's memory first */
    coro_move_signature_attrs(fn->func, mlirBlockGetParentOperation(entry));
  defer_body(fn, st, BODY_ENTRY, entry, loc, elided);
}

static void fill_entry(const struct rc_state *st, MlirBlock entry,
                       MlirLocation loc, bool elided) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType ptr = ir_ptr_type(ctx), i8 = ir_int_type(ctx, 8);
  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue z = ir_null(&b);
  MlirValue ctl;
  if (elided) { /* the caller's memory, first argument */
    ctl = mlirBlockGetArgument(entry, 0);
  } else {
    /* sizeof(control block), measured from a stack address rather than as
     * a constant expression (see emit_begin). */
    MlirValue one = ir_const_int(&b, 64, 1);
    MlirNamedAttribute et = ir_named(ctx, "elem_type", mlirTypeAttrGet(i8));
    MlirValue probe = mlirOperationGetResult(
        ir_op(&b, "llvm.alloca", 1, &one, 1, &ptr, 1, &et, 0, NULL), 0);
    int32_t past = 1;
    MlirValue end = gep(&b, probe, st->control_type, 1, &past);
    MlirValue e = ir_ptrtoint(&b, end, 64);
    MlirValue p = ir_ptrtoint(&b, probe, 64);
    MlirValue size = ir_binop(&b, "sub", e, p);
    ctl = call_allocator(&b, st->alloc.alloc_fn, st->alloc.alloc_is_func, size,
                         true);
  }

  MlirValue rf = addr_of(&b, sym_of(ctx, &st->names.resume));
  MlirValue df = addr_of(
      &b, sym_of(ctx, elided ? &st->names.cleanup : &st->names.destroy));
  ir_store(&b, rf, gen_field(&b, st, ctl, CB_RESUME), 0);
  ir_store(&b, df, gen_field(&b, st, ctl, CB_DESTROY), 0);
  MlirValue pc = gen_bytes(&b, ctl, CORO_PROMISE_OFFSET);
  ir_store(&b, z, pc, 0);
  MlirValue v0 = ir_zero(&b, st->value_storage);
  ir_store(&b, v0, gen_promise_value(&b, st, pc),
           coro_value_align(st->value_storage));

  intptr_t first = elided ? 1 : 0, n = mlirBlockGetNumArguments(entry) - first;
  MlirValue *args = ir_xmalloc((size_t)(n + 1) * sizeof *args);
  args[0] = gen_field(&b, st, ctl, CB_BUFFER);
  for (intptr_t i = 0; i < n; ++i)
    args[i + 1] = mlirBlockGetArgument(entry, first + i);
  MlirValue res =
      ir_call(&b, sym_of(ctx, &st->names.ramp), true, n + 1, args, st->ret);
  free(args);
  /* the control block holds no continuation yet */
  MlirValue sargs[3] = {ctl, res, ir_null(&b)};
  MlirValue next =
      ir_call(&b, sym_of(ctx, &st->names.settle), false, 3, sargs, ptr);

  MlirBlock go = ir_block_after(entry, 0, NULL, loc);
  MlirBlock ret = ir_block_after(go, 0, NULL, loc);
  ir_cond_br(&b, ir_icmp(&b, IR_EQ, next, z), ret, go);
  b = ir_at_end(go, loc);
  ir_val(&b, "llvm.intr.coro.resume", 1, &next, (MlirType){NULL});
  ir_br(&b, ret, 0, NULL);
  b = ir_at_end(ret, loc);
  ir_op(&b, "func.return", 1, &ctl, 0, NULL, 0, NULL, 0, NULL);
}

/*===--- the ramp ----------------------------------------------------------*/

/* Replaces coro.begin with coro.id.retcon(.once) and coro.begin, and
 * computes the control block's address from the buffer. */
static void emit_begin(struct coro_fn *fn, struct rc_state *st) {
  struct ir_builder b = ir_before(fn->begin);
  MlirContext ctx = b.ctx;
  MlirValue ops[6];
  ops[0] = ir_const_int(&b, 32, st->buffer_size);
  ops[1] = ir_const_int(&b, 32, st->buffer_align);
  ops[2] = st->buf;
  ops[3] = addr_of(&b, sym_of(ctx, &st->names.proto));
  ops[4] = addr_of(&b, st->frame_alloc);
  ops[5] = addr_of(&b, st->frame_free);
  MlirValue id = ir_intrinsic(
      &b, st->once ? "llvm.coro.id.retcon.once" : "llvm.coro.id.retcon", 6, ops,
      ir_token_type(ctx));
  MlirValue bops[2] = {id, ir_null(&b)};
  st->hdl = ir_val(&b, "llvm.intr.coro.begin", 2, bops, ir_ptr_type(ctx));
  /* self = buf - offsetof(buffer), computed from buf rather than from a
   * null base: a constant expression would be folded while translating to
   * LLVM IR, with whatever data layout the module has then. */
  MlirValue buffer = ctl_field(&b, st, st->buf, CB_BUFFER);
  MlirValue from = ir_ptrtoint(&b, st->buf, 64);
  MlirValue to = ir_ptrtoint(&b, buffer, 64);
  MlirValue neg = ir_binop(&b, "sub", from, to);
  st->self = ir_gep_index(&b, st->buf, ir_int_type(ctx, 8), neg);
  mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(fn->begin, 0), st->self);
  mlirOperationDestroy(fn->begin);
}

/* The one end block: ^end(%final: S) -> coro.end (with coro.end.results
 * for retcon.once); CoroSplit turns it into the ABI's return. */
static void emit_end_block(struct coro_fn *fn, struct rc_state *st) {
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  MlirContext ctx = mlirLocationGetContext(loc);
  st->end = ir_new_block(mlirOperationGetRegion(fn->func, 0), 1,
                         &st->value_storage, loc);
  struct ir_builder b = ir_at_end(st->end, loc);
  MlirValue tok;
  if (st->once) {
    MlirValue v = mlirBlockGetArgument(st->end, 0);
    tok = ir_call_vararg(&b, ir_sym_ref(ctx, "llvm.coro.end.results"), 1, &v,
                         ir_token_type(ctx));
  } else {
    tok = ir_none_token(&b);
  }
  MlirValue eops[3] = {st->hdl, ir_const_int(&b, 1, 0), tok};
  ir_intrinsic(&b, "llvm.coro.end", 3, eops, (MlirType){NULL});
  /* CoroSplit replaces what follows coro.end with the ABI's return. Before
   * it runs, the ramp must still look like it returns something opaque:
   * with `unreachable` here, interprocedural passes that run before
   * CoroSplit (IPSCCP) conclude the ramp never returns and fold its
   * callers' use of the result to undef. */
  MlirValue opaque = ir_load(&b, st->buf, st->ret, 8);
  ir_op(&b, "func.return", 1, &opaque, 0, NULL, 0, NULL, 0, NULL);
}

/* What llvm.coro.suspend.retcon returns: i1 abnormal, or {i1, RS}. */
static MlirType suspend_result(MlirContext ctx, const struct rc_state *st) {
  if (mlirTypeIsNull(st->resume_storage))
    return ir_int_type(ctx, 1);
  MlirType f[2] = {ir_int_type(ctx, 1), st->resume_storage};
  return ir_struct_type(ctx, 2, f);
}

/* Declares the vararg intrinsics the ramp calls:
 *
 *   llvm.func @llvm.coro.suspend.retcon.<mangled>(...) -> i1 / {i1, RS}
 *   llvm.func @llvm.coro.end.results(...) -> !llvm.token   (retcon.once) */
static MlirLogicalResult declare_intrinsics(struct coro_fn *fn,
                                            struct rc_state *st,
                                            struct coro_str *suspend_name) {
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  MlirType rt = suspend_result(ctx, st);
  coro_str_appendz(suspend_name, "llvm.coro.suspend.retcon.");
  if (!coro_mangle_type(rt, suspend_name))
    return coro_error_at(fn->func, "the values this coroutine takes on resume "
                                   "have a type the retcon ABIs cannot pass");
  bool ok = declare_vararg(fn->module, suspend_name, rt, loc);
  if (st->once) {
    struct coro_str results = {0};
    coro_str_appendz(&results, "llvm.coro.end.results");
    ok &= declare_vararg(fn->module, &results, ir_token_type(ctx), loc);
    coro_str_free(&results);
  }
  return ok ? mlirLogicalResultSuccess() : mlirLogicalResultFailure();
}

/* The function type (ptr, the inputs of `fty`) -> result. */
static MlirType with_ptr_first(MlirType fty, MlirType result) {
  MlirContext ctx = mlirTypeGetContext(fty);
  intptr_t n = mlirFunctionTypeGetNumInputs(fty);
  MlirType *in = ir_xmalloc((size_t)(n + 1) * sizeof *in);
  in[0] = ir_ptr_type(ctx);
  for (intptr_t i = 0; i < n; ++i)
    in[i + 1] = mlirFunctionTypeGetInput(fty, i);
  MlirType t = mlirFunctionTypeGet(ctx, n + 1, in, 1, &result);
  free(in);
  return t;
}

/* The function-like op at the top of `module` that holds `op`. */
static MlirOperation caller_of(MlirOperation op, MlirOperation module) {
  MlirOperation f = op;
  for (MlirOperation p = mlirOperationGetParentOperation(f);
       !mlirOperationIsNull(p) && !mlirOperationEqual(p, module);
       p = mlirOperationGetParentOperation(p))
    f = p;
  return f;
}

/* Where the caller's control blocks go: after its coroutine's begin when it
 * is one (so that a block a suspension keeps lives in its frame), else at
 * the start of its entry block. */
static struct ir_builder control_block_site(MlirOperation caller,
                                            MlirLocation loc) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(caller, 0));
  MlirOperation at = mlirBlockGetFirstOperation(entry);
  for (MlirOperation op = at; !mlirOperationIsNull(op);
       op = mlirOperationGetNextInBlock(op))
    if (coro_op_named(op, "coro.begin") ||
        coro_op_named(op, "llvm.intr.coro.begin")) {
      at = mlirOperationGetNextInBlock(op);
      break;
    }
  struct ir_builder b =
      mlirOperationIsNull(at) ? ir_at_end(entry, loc) : ir_before(at);
  b.loc = loc;
  return b;
}

/* The calls --coro-elide marked (fn->elided_calls): each gets a control
 * block in its caller's memory (an alloca in the caller's entry block,
 * in its frame when the caller is a coroutine that keeps it across a
 * suspension) and calls NAME.elided, the entry that runs the coroutine on
 * it; the block's destroy entry, NAME.coro.cleanup, frees nothing:
 *
 *   %cb = llvm.alloca 1 x control block
 *   %h = func.call @"gen.elided"(%cb, args) */
static MlirLogicalResult place_elided(struct coro_fn *fn, struct rc_state *st,
                                      MlirType fty) {
  static const char *const suffixes[] = {CORO_PART_ELIDED, CORO_RETCON_CLEANUP,
                                         NULL};
  if (mlirLogicalResultIsFailure(
          coro_names_unused(fn->module, &st->name, "retcon", suffixes)))
    return mlirLogicalResultFailure();
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirType ptr = ir_ptr_type(ctx);
  st->names.elided = name_with(st, CORO_PART_ELIDED);
  st->names.cleanup = name_with(st, CORO_RETCON_CLEANUP);
  emit_destroy(fn, st, true);
  /* NAME.elided(ptr control block, args) -> ptr */
  MlirType eft = with_ptr_first(fty, ptr);
  struct coro_str visibility = {0};
  coro_str_appendz(&visibility, "private");
  emit_entry(fn, st, eft, &visibility, true);
  coro_str_free(&visibility);
  MlirAttribute callee = sym_of(ctx, &st->names.elided);
  for (size_t i = 0; i < fn->elided_calls.n; ++i) {
    MlirOperation call = fn->elided_calls.v[i];
    MlirLocation loc = mlirOperationGetLocation(call);
    struct ir_builder site =
        control_block_site(caller_of(call, fn->module), loc);
    MlirValue one = ir_const_int(&site, 64, 1);
    MlirNamedAttribute et =
        ir_named(ctx, "elem_type", mlirTypeAttrGet(st->control_type));
    MlirValue cb = mlirOperationGetResult(
        ir_op(&site, "llvm.alloca", 1, &one, 1, &ptr, 1, &et, 0, NULL), 0);
    intptr_t na = mlirOperationGetNumOperands(call);
    MlirValue *args = ir_xmalloc((size_t)(na + 1) * sizeof *args);
    args[0] = cb;
    for (intptr_t k = 0; k < na; ++k)
      args[k + 1] = mlirOperationGetOperand(call, k);
    struct ir_builder b = ir_before(call);
    MlirValue h = ir_call(&b, callee, true, na + 1, args,
                          mlirValueGetType(mlirOperationGetResult(call, 0)));
    free(args);
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(call, 0), h);
    mlirOperationDestroy(call);
  }
  return mlirLogicalResultSuccess();
}

struct rc_fn {
  struct rc_state st;
  struct coro_str suspend_name; /* the mangled llvm.coro.suspend.retcon.* */
};

/* The symbols the lowering adds for a coroutine, after its name. */
static const char *const retcon_suffixes[] = {
    CORO_RETCON_RAMP,    CORO_RETCON_RESUME,
    CORO_RETCON_DESTROY, CORO_RETCON_SETTLE,
    CORO_RETCON_PROTO,   CORO_RETCON_ALLOC,
    CORO_RETCON_FREE,    NULL};

static MlirLogicalResult rc_prepare_common(struct coro_fn *fn, bool once) {
  struct rc_fn *r = ir_xcalloc(1, sizeof *r);
  struct rc_state *st = &r->st;
  fn->abi_state = r;
  st->once = once;
  st->device = coro_module_is_device(fn->module);
  MlirContext ctx = mlirOperationGetContext(fn->func);
  MlirLocation loc = mlirOperationGetLocation(fn->func);
  MlirStringRef symkey = mlirStringRefCreateFromCString("sym_name");
  MlirStringRef name =
      mlirStringAttrGetValue(mlirOperationGetAttributeByName(fn->func, symkey));
  coro_str_append(&st->name, name.data, name.length);
  if (mlirLogicalResultIsFailure(layout(fn, st)) ||
      mlirLogicalResultIsFailure(coro_names_unused(
          fn->module, &st->name, "retcon", retcon_suffixes)) ||
      mlirLogicalResultIsFailure(coro_allocator_get(
          fn->module, fn->func, "malloc", "free", &st->alloc)) ||
      mlirLogicalResultIsFailure(declare_intrinsics(fn, st, &r->suspend_name)))
    return mlirLogicalResultFailure();
  st->default_alloc = st->alloc.is_default;
  if (st->default_alloc)
    st->frame_align = frame_align(fn->func);
  MlirType i64s[2] = {ir_int_type(ctx, 64), ir_int_type(ctx, 64)};
  if (st->default_alloc &&
      !coro_declare_llvm_func(fn->module, ir_sym_ref(ctx, "aligned_alloc"),
                              ir_ptr_type(ctx), 2, i64s, loc))
    return mlirLogicalResultFailure();

  /* on the device the host sizes an arena by NAME_frame_size: a frame of
   * a retcon coroutine lives in its control block's buffer (the split adds
   * one that does not fit when it comes from the arena, and rejects it
   * otherwise). Before anything that must be freed on a failure. */
  uint64_t cb_size, cb_align;
  if (st->device) {
    if (!ir_type_layout(st->control_type, &cb_size, &cb_align))
      return coro_error_at(fn->func, "the size of this coroutine's control "
                                     "block is unknown (its value types)");
    if (!coro_frame_size_global(
            fn->module, (MlirSymbolTable){NULL},
            mlirStringRefCreate(st->name.data, st->name.len), cb_size, loc))
      return mlirLogicalResultFailure();
  }

  /* The coroutine's type and visibility become the entry function's. */
  MlirStringRef ftkey = mlirStringRefCreateFromCString("function_type");
  MlirType fty =
      mlirTypeAttrGetValue(mlirOperationGetAttributeByName(fn->func, ftkey));

  /* The coroutine itself becomes the private ramp (ptr buffer, args) ->
   * {ptr, S, ptr}. */
  struct coro_str visibility =
      coro_rename_private(fn->func, &st->name, CORO_RETCON_RAMP);
  mlirOperationSetAttributeByName(
      fn->func, ftkey, mlirTypeAttrGet(with_ptr_first(fty, st->ret)));

  /* The entry, the thunks and what they need, after the module's
   * functions. */
  names_init(st);
  emit_decls(fn, st);
  emit_settle(fn, st);
  emit_resume(fn, st);
  emit_destroy(fn, st, false);
  emit_entry(fn, st, fty, &visibility, false);
  coro_str_free(&visibility);
  if (fn->elided_calls.n &&
      mlirLogicalResultIsFailure(place_elided(fn, st, fty)))
    return mlirLogicalResultFailure();

  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(fn->func, 0));
  st->buf = mlirBlockInsertArgument(entry, 0, ir_ptr_type(ctx), loc);

  emit_begin(fn, st);
  emit_end_block(fn, st);
  /* noinline: LLVM leaves coro.id.retcon and coro.begin in a split ramp
   * until CoroCleanup, so a split ramp inlined into a coroutine not yet
   * split gives that coroutine a second coro.begin, which CoroSplit
   * rejects (a fatal error). */
  coro_mark_lowered_body(fn->func);
  /* its continuations' addresses reach only call_cont's marked calls */
  mlirOperationSetAttributeByName(
      fn->func, mlirStringRefCreateFromCString(CORO_CONTINUATION_STATE_ATTR),
      mlirUnitAttrGet(ctx));
  return mlirLogicalResultSuccess();
}

static MlirLogicalResult rc_prepare(struct coro_fn *fn) {
  return rc_prepare_common(fn, false);
}
static MlirLogicalResult rc_once_prepare(struct coro_fn *fn) {
  return rc_prepare_common(fn, true);
}

/* suspend.retcon(value, next): publishes `v` and names `next` (a handle, or
 * null for none) as what runs once the coroutine has suspended; returns
 * (abnormal, resume value or null). */
static MlirValue suspend(struct rc_fn *r, struct ir_builder *b, MlirValue v,
                         MlirValue next, MlirValue *resume_value) {
  struct rc_state *st = &r->st;
  MlirContext ctx = b->ctx;
  MlirValue ops[2] = {v, next};
  MlirValue res = ir_call_vararg(b, sym_of(ctx, &r->suspend_name), 2, ops,
                                 suspend_result(ctx, st));
  *resume_value = (MlirValue){NULL};
  if (mlirTypeIsNull(st->resume_storage))
    return res;
  *resume_value = ir_extractvalue(b, res, 1, st->resume_storage);
  return ir_extractvalue(b, res, 0, ir_int_type(ctx, 1));
}

/* Branches to `dest` normally and to the end block when `abnormal`. */
static void branch_unless_abnormal(struct rc_state *st, struct ir_builder *b,
                                   MlirValue abnormal, MlirBlock dest) {
  MlirValue zero = ir_zero(b, st->value_storage);
  ir_cond_br_args(b, abnormal, st->end, 1, &zero, dest, 0, NULL);
}

static MlirLogicalResult rc_yield(struct coro_fn *fn, MlirOperation op) {
  struct rc_fn *r = fn->abi_state;
  struct rc_state *st = &r->st;
  struct ir_builder b = ir_before(op);
  MlirValue v = mlirOperationGetNumOperands(op)
                    ? coro_published(&b, op, mlirOperationGetOperand(op, 0),
                                     st->value_storage)
                    : ir_zero(&b, st->value_storage);
  if (mlirValueIsNull(v))
    return mlirLogicalResultFailure();
  MlirValue rv;
  MlirValue abnormal = suspend(r, &b, v, ir_null(&b), &rv);
  if (mlirOperationGetNumResults(op) == 2)
    mlirValueReplaceAllUsesOfWith(
        mlirOperationGetResult(op, 1),
        coro_from_storage(&b, rv,
                          mlirValueGetType(mlirOperationGetResult(op, 1))));
  bool flag_unused =
      mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(op, 0)));
  coro_yield_continue(&b, op, abnormal, st->end,
                      flag_unused ? ir_zero(&b, st->value_storage)
                                  : (MlirValue){NULL});
  return mlirLogicalResultSuccess();
}

/* Whether awaiting `aw` can never continue: it is this coroutine's own
 * handle or coro.noop's (the verifier rejects both when it can see them). */
static MlirValue await_never(struct rc_state *st, struct ir_builder *b,
                             MlirValue aw) {
  MlirValue nop =
      ir_intrinsic(b, "llvm.coro.noop", 0, NULL, ir_ptr_type(b->ctx));
  MlirValue is_self = ir_icmp(b, IR_EQ, aw, st->self);
  MlirValue is_nop = ir_icmp(b, IR_EQ, aw, nop);
  return ir_binop(b, "or", is_self, is_nop);
}

/* Records this coroutine as the awaited handle `aw`'s continuation
 * (coro_publish_awaiter); then
 * suspends, publishing nothing new (the current value again), with `aw` as
 * what runs next. Returns the abnormal flag. An await that can never
 * continue records nothing and only suspends, with nothing to run next:
 * the coroutine stays suspended there, and no frame is written. `*b` ends
 * in a new block. */
static MlirValue await_suspend(struct rc_fn *r, struct ir_builder *b,
                               MlirValue aw) {
  struct rc_state *st = &r->st;
  MlirValue never = await_never(st, b, aw);
  MlirBlock link = ir_block_after(b->block, 0, NULL, b->loc);
  MlirBlock join =
      ir_block_after(link, 1, (MlirType[]){ir_ptr_type(b->ctx)}, b->loc);
  MlirValue z = ir_null(b);
  ir_cond_br_args(b, never, join, 1, &z, link, 0, NULL);
  *b = ir_at_end(link, b->loc);
  MlirBlock go = ir_block_after(link, 0, NULL, b->loc);
  MlirBlock ended = ir_block_after(go, 0, NULL, b->loc);
  coro_publish_awaiter(b, st->device, aw, st->self, go, ended);
  *b = ir_at_end(go, b->loc);
  ir_br(b, join, 1, &aw);
  /* a scheduled task that ended since coro.done said otherwise: its entry
   * must not be called; this coroutine runs next */
  *b = ir_at_end(ended, b->loc);
  ir_br(b, join, 1, &st->self);
  *b = ir_at_end(join, b->loc);
  MlirValue cur =
      ir_load(b, coro_promise_field(b, st->self, st->value_storage, 1),
              st->value_storage, coro_value_align(st->value_storage));
  MlirValue rv;
  return suspend(r, b, cur, mlirBlockGetArgument(join, 0), &rv);
}

/* retcon.once: every path suspends exactly once (LLVM miscompiles a ramp
 * that reaches coro.end), so awaiting a finished coroutine suspends too,
 * with itself as what runs next; and once resumed, the coroutine drives
 * `aw` to its end itself (resume until done, with no continuation, so
 * that `aw`'s end does not transfer back into this running coroutine). */
static void await_once(struct rc_fn *r, struct ir_builder *b, MlirOperation op,
                       MlirValue aw, MlirBlock next) {
  struct rc_state *st = &r->st;
  MlirType i1 = ir_int_type(b->ctx, 1);
  MlirBlock here = mlirOperationGetBlock(op);
  MlirBlock drive = ir_block_after(here, 0, NULL, b->loc);
  MlirBlock dres = ir_block_after(here, 0, NULL, b->loc);
  MlirBlock dcheck = ir_block_after(here, 0, NULL, b->loc);
  MlirBlock susp = ir_block_after(here, 0, NULL, b->loc);
  MlirBlock again = ir_block_after(here, 0, NULL, b->loc);
  MlirValue done = ir_intrinsic(b, "llvm.coro.done", 1, &aw, i1);
  ir_cond_br(b, done, again, susp);
  struct ir_builder a = ir_at_end(again, b->loc);
  MlirValue rv;
  MlirValue cur =
      ir_load(&a, coro_promise_field(&a, st->self, st->value_storage, 1),
              st->value_storage, coro_value_align(st->value_storage));
  branch_unless_abnormal(st, &a, suspend(r, &a, cur, st->self, &rv), drive);
  struct ir_builder s = ir_at_end(susp, b->loc);
  branch_unless_abnormal(st, &s, await_suspend(r, &s, aw), drive);
  struct ir_builder d = ir_at_end(drive, b->loc);
  /* it suspended once already, so an await that can never continue (on
   * itself or coro.noop) cannot stay suspended: trap rather than resume a
   * running coroutine or spin on the noop one */
  MlirBlock trap = ir_block_after(drive, 0, NULL, b->loc);
  MlirBlock go = ir_block_after(trap, 0, NULL, b->loc);
  ir_cond_br(&d, await_never(st, &d, aw), trap, go);
  struct ir_builder t = ir_at_end(trap, b->loc);
  ir_val(&t, "llvm.intr.trap", 0, NULL, (MlirType){NULL});
  ir_val(&t, "llvm.unreachable", 0, NULL, (MlirType){NULL});
  d = ir_at_end(go, b->loc);
  MlirValue null = ir_null(&d); /* built in order: C leaves argument order */
  ir_store(&d, null, coro_promise_field(&d, aw, st->value_storage, 0), 8);
  ir_br(&d, dcheck, 0, NULL);
  struct ir_builder c = ir_at_end(dcheck, b->loc);
  MlirValue ended = ir_intrinsic(&c, "llvm.coro.done", 1, &aw, i1);
  ir_cond_br(&c, ended, next, dres);
  struct ir_builder e = ir_at_end(dres, b->loc);
  ir_val(&e, "llvm.intr.coro.resume", 1, &aw, (MlirType){NULL});
  ir_br(&e, dcheck, 0, NULL);
}

static MlirLogicalResult rc_await(struct coro_fn *fn, MlirOperation op) {
  struct rc_fn *r = fn->abi_state;
  struct rc_state *st = &r->st;
  struct ir_builder b = ir_before(op);
  MlirValue aw = mlirOperationGetOperand(op, 0);
  MlirBlock next, check;
  if (st->once) {
    next = ir_split_after(op);
    await_once(r, &b, op, aw, next);
  } else {
    MlirBlock susp = coro_await_split(&b, op, aw, &next, &check);
    struct ir_builder s = ir_at_end(susp, b.loc);
    branch_unless_abnormal(st, &s, await_suspend(r, &s, aw), check);
  }
  MlirLogicalResult res = coro_await_result(op, aw, next);
  mlirOperationDestroy(op);
  return res;
}

static MlirLogicalResult rc_end(struct coro_fn *fn, MlirOperation op) {
  struct rc_fn *r = fn->abi_state;
  struct rc_state *st = &r->st;
  struct ir_builder b = ir_before(op);
  MlirOperation ret = coro_end_return(op);
  if (mlirOperationIsNull(ret))
    return mlirLogicalResultFailure();
  MlirValue v = ir_zero(&b, st->value_storage);
  if (mlirOperationGetNumOperands(op) == 2) {
    v = coro_published(&b, op, mlirOperationGetOperand(op, 1),
                       st->value_storage);
    if (mlirValueIsNull(v))
      return mlirLogicalResultFailure();
    /* The final value is readable with coro.promise once done. */
    ir_store(&b, v, coro_promise_field(&b, st->self, st->value_storage, 1),
             coro_value_align(st->value_storage));
  }
  ir_br(&b, st->end, 1, &v);
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

static void fill_body(void *job) {
  const struct rc_body *body = job;
  switch (body->kind) {
  case BODY_SETTLE:
    fill_settle(body->st, body->entry, body->loc);
    break;
  case BODY_RESUME:
    fill_resume(body->st, body->entry, body->loc, body->flag);
    break;
  case BODY_DESTROY:
    fill_destroy(body->st, body->entry, body->loc, body->flag);
    break;
  case BODY_ENTRY:
    fill_entry(body->st, body->entry, body->loc, body->flag);
    break;
  case BODY_ALLOC:
    fill_alloc(body->st, body->entry, body->loc);
    break;
  case BODY_FREE:
    fill_free(body->st, body->entry, body->loc);
    break;
  }
}

static void rc_finish(struct coro_fn *fn) {
  struct rc_fn *r = fn->abi_state;
  if (!r)
    return;
  coro_str_free(&r->st.name);
  release_names(&r->st.names);
  coro_str_free(&r->suspend_name);
  free(r);
}

static const struct coro_abi retcon_abi = {
    .name = "retcon",
    .prepare = rc_prepare,
    .lower_yield = rc_yield,
    .lower_await = rc_await,
    .lower_end = rc_end,
    .lower_self = rc_self,
    .finish = rc_finish,
};

static const struct coro_abi retcon_once_abi = {
    .name = "retcon.once",
    .prepare = rc_once_prepare,
    .lower_yield = rc_yield,
    .lower_await = rc_await,
    .lower_end = rc_end,
    .lower_self = rc_self,
    .finish = rc_finish,
};

MlirLogicalResult coro_convert_to_llvm_retcon_run(MlirOperation module) {
  return coro_abi_convert(module, &retcon_abi);
}

MlirLogicalResult coro_convert_to_llvm_retcon_once_run(MlirOperation module) {
  return coro_abi_convert(module, &retcon_once_abi);
}
