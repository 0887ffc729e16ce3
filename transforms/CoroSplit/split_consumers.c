/* split_consumers.c - the consumer intrinsics after --coro-split: every
 * handle is a frame whose header is HandleLayout.h's, so
 *   llvm.coro.resume(h)   calls the fastcc function at h + 0,
 *   llvm.coro.destroy(h)  calls the fastcc function at h + 8,
 *   llvm.coro.done(h)     is whether h + 0 holds null,
 *   llvm.coro.promise(p, align, from)  is p +/- (16 rounded up to align),
 *   llvm.coro.noop()      is the address of a module-local frame whose
 *                         resume and destroy return at once.
 * Resume and destroy of a handle straight from a call of a split coroutine
 * call its part directly; on the device (a module marked coro.device) any
 * other compares the header's pointer with every part and calls the one it
 * is, so that no call is indirect.
 * The noop frame is writable and as large as a header and a promise, so an
 * await wrapper that records its awaiter in the noop's promise writes into
 * memory of its own. Part of the --coro-split pass (coro_split.h). */
#include "coro-runtime/HandleLayout.h"
#include "dialect/contract.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/func.h"
#include "ir/parallel.h"
#include "ir/support.h"
#include "ir/types.h"
#include "transforms/CoroSplit/coro_shape.h"
#include "transforms/CoroSplit/coro_split.h"
#include "transforms/CoroSplit/split_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define NOOP_FRAME "__coro_noop_frame"
#define NOOP_FN "__coro_noop_resume"

struct consumers {
  MlirOperation module;
  struct split_cache_pool caches; /* lowerings on MLIR's threads */
  MlirSymbolTable table;
  const struct ir_ptrmap *split; /* the coroutines split, and their parts */
  bool have_noop;
  bool device;             /* the module is for the device (coro.device) */
  struct ir_ptrmap called; /* on the device: the functions called directly */
};

static bool ends_with(MlirStringRef s, const char *suffix) {
  size_t n = strlen(suffix);
  return s.length >= n && !memcmp(s.data + s.length - n, suffix, n);
}

MlirOperation coro_retcon_body(MlirSymbolTable table, MlirStringRef name) {
  struct coro_str ramp = {0};
  coro_str_append(&ramp, name.data, name.length);
  coro_str_appendz(&ramp, CORO_RETCON_RAMP);
  MlirOperation f =
      mlirSymbolTableLookup(table, mlirStringRefCreate(ramp.data, ramp.len));
  coro_str_free(&ramp);
  return f;
}

MlirOperation coro_retcon_maker(MlirSymbolTable table, MlirStringRef callee,
                                MlirStringRef *name, bool *elided) {
  *elided = ends_with(callee, CORO_PART_ELIDED);
  *name = mlirStringRefCreate(
      callee.data, callee.length - (*elided ? strlen(CORO_PART_ELIDED) : 0));
  return coro_retcon_body(table, *name);
}

/* Whether `name` is `P` + `suffix` for a retcon or retcon.once coroutine P
 * this split made (its body P.coro.ramp was split): the retcon
 * conversion's entries P.coro.resume, P.coro.destroy and P.coro.cleanup. */
static bool retcon_named(struct consumers *c, MlirStringRef name,
                         const char *suffix) {
  if (!ends_with(name, suffix))
    return false;
  MlirOperation f = coro_retcon_body(
      c->table, mlirStringRefCreate(name.data, name.length - strlen(suffix)));
  return !mlirOperationIsNull(f) && ir_ptrmap_find(c->split, f.ptr);
}

/* The entry `suffix` of the retcon coroutine P, as a symbol ref, when
 * `callee` is P or P.elided and P was split; null else. */
static MlirAttribute retcon_entry(struct consumers *c, MlirStringRef callee,
                                  const char *suffix) {
  MlirStringRef base;
  bool elided;
  MlirOperation body = coro_retcon_maker(c->table, callee, &base, &elided);
  if (mlirOperationIsNull(body) || !ir_ptrmap_find(c->split, body.ptr))
    return (MlirAttribute){NULL};
  struct coro_str target = {0};
  coro_str_append(&target, base.data, base.length);
  coro_str_appendz(&target, suffix);
  MlirStringRef t = mlirStringRefCreate(target.data, target.len);
  MlirAttribute sym =
      mlirOperationIsNull(mlirSymbolTableLookup(c->table, t))
          ? (MlirAttribute){NULL}
          : mlirFlatSymbolRefAttrGet(mlirOperationGetContext(c->module), t);
  coro_str_free(&target);
  return sym;
}

/* The function a resume (`destroy` false) or destroy of `h` calls when
 * `h` is the result of a direct call of a coroutine this split made: its
 * NAME.resume; NAME.destroy for a ramp's handle, NAME.cleanup for one
 * from NAME.elided (a frame its caller owns). A null attribute otherwise:
 * then the call goes through the header. Calling it directly is what
 * LLVM's CoroElide does after inlining; here it needs no inlining, and
 * LLVM can inline the resume function and promote the frame. */
static MlirAttribute direct_target(struct consumers *c, MlirValue h,
                                   bool destroy) {
  MlirAttribute none = {NULL};
  if (!mlirValueIsAOpResult(h))
    return none;
  MlirOperation call = mlirOpResultGetOwner(h);
  if (!coro_op_named(call, "llvm.call"))
    return none;
  MlirAttribute callee = ir_callee_attr(call);
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return none;
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(callee);
  bool from_elided = ends_with(name, CORO_PART_ELIDED);
  MlirStringRef base = mlirStringRefCreate(
      name.data, name.length - (from_elided ? strlen(CORO_PART_ELIDED) : 0));
  /* a retcon coroutine's handle is its control block, whose entries the
   * retcon conversion made */
  MlirAttribute entry = retcon_entry(c, name,
                                     !destroy      ? CORO_RETCON_RESUME
                                     : from_elided ? CORO_RETCON_CLEANUP
                                                   : CORO_RETCON_DESTROY);
  if (!mlirAttributeIsNull(entry))
    return entry;
  MlirOperation ramp = mlirSymbolTableLookup(c->table, base);
  if (mlirOperationIsNull(ramp) || !ir_ptrmap_find(c->split, ramp.ptr))
    return none;
  struct coro_str target = {0};
  coro_str_append(&target, base.data, base.length);
  coro_str_appendz(&target, !destroy      ? CORO_PART_RESUME
                            : from_elided ? CORO_PART_CLEANUP
                                          : CORO_PART_DESTROY);
  MlirOperation fn = mlirSymbolTableLookup(
      c->table, mlirStringRefCreate(target.data, target.len));
  MlirAttribute sym =
      !mlirOperationIsNull(fn) && ir_ptrmap_find(c->split, fn.ptr)
          ? mlirFlatSymbolRefAttrGet(
                mlirOperationGetContext(fn),
                mlirStringRefCreate(target.data, target.len))
          : none;
  coro_str_free(&target);
  return sym;
}

/* @__coro_noop_resume and @__coro_noop_frame, made on first use. */
static bool make_noop(struct consumers *c, MlirLocation loc) {
  if (c->have_noop)
    return true;
  MlirContext ctx = mlirLocationGetContext(loc);
  const char *names[2] = {NOOP_FN, NOOP_FRAME};
  for (int i = 0; i < 2; ++i)
    if (!mlirOperationIsNull(mlirSymbolTableLookup(
            c->table, mlirStringRefCreateFromCString(names[i])))) {
      struct coro_str msg = {0};
      coro_str_appendz(&msg, "'");
      coro_str_appendz(&msg, names[i]);
      coro_str_appendz(&msg, "' is already a symbol of the module: "
                             "--coro-split needs that name for "
                             "llvm.coro.noop");
      mlirEmitError(loc, coro_str_cstr(&msg));
      coro_str_free(&msg);
      return false;
    }
  MlirType ptr = ir_ptr_type(ctx);
  struct ir_func_spec spec = {.name = NOOP_FN,
                              .result = c->device ? ptr : (MlirType){NULL},
                              .nargs = 1,
                              .args = &ptr,
                              .linkage = MlirLLVMLinkageInternal,
                              .cconv = MlirLLVMCConvFast};
  MlirOperation fn = ir_llvm_func(c->module, &spec, false, loc);
  struct ir_builder fb = ir_at_end(ir_func_entry(fn), loc);
  if (c->device) { /* on the device a part returns what to run next */
    MlirValue null = ir_null(&fb);
    ir_op(&fb, "llvm.return", 1, &null, 0, NULL, 0, NULL, 0, NULL);
  } else {
    ir_op(&fb, "llvm.return", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
  }
  mlirSymbolTableInsert(c->table, fn);

  /* { ptr resume, ptr destroy, [2 x i64] promise } */
  MlirType fields[3] = {ptr, ptr,
                        mlirLLVMArrayTypeGet(ir_int_type(ctx, 64), 2)};
  MlirType ty = ir_struct_type(ctx, 3, fields);
  MlirBlock init = mlirBlockCreate(0, NULL, NULL);
  struct ir_builder b = ir_at_end(init, loc);
  MlirValue agg = ir_zero(&b, ty), f = ir_addressof(&b, NOOP_FN);
  agg = ir_insertvalue(&b, agg, f, 0);
  agg = ir_insertvalue(&b, agg, f, 1);
  ir_op(&b, "llvm.return", 1, &agg, 0, NULL, 0, NULL, 0, NULL);
  MlirRegion region = mlirRegionCreate();
  mlirRegionAppendOwnedBlock(region, init);
  /* constant, as LLVM's own noop frame: nothing writes to it, and loads
   * of its resume pointer fold (a resume loop started on it vanishes) */
  MlirNamedAttribute attrs[5] = {
      ir_named(
          ctx, "sym_name",
          mlirStringAttrGet(ctx, mlirStringRefCreateFromCString(NOOP_FRAME))),
      ir_named(ctx, "global_type", mlirTypeAttrGet(ty)),
      ir_named(ctx, "linkage",
               mlirLLVMLinkageAttrGet(ctx, MlirLLVMLinkageInternal)),
      ir_named(ctx, "alignment", ir_i64_attr(ctx, CORO_HANDLE_PROMISE_OFFSET)),
      ir_named(ctx, "constant", mlirUnitAttrGet(ctx))};
  MlirOperationState st = mlirOperationStateGet(
      mlirStringRefCreateFromCString("llvm.mlir.global"), loc);
  mlirOperationStateAddAttributes(&st, 5, attrs);
  mlirOperationStateAddOwnedRegions(&st, 1, &region);
  MlirOperation global = mlirOperationCreate(&st);
  mlirBlockAppendOwnedOperation(
      mlirRegionGetFirstBlock(mlirOperationGetRegion(c->module, 0)), global);
  mlirSymbolTableInsert(c->table, global);
  c->have_noop = true;
  return true;
}

static uint64_t promise_offset(uint64_t align) {
  uint64_t a = align ? align : 1;
  return (CORO_HANDLE_PROMISE_OFFSET + a - 1) / a * a;
}

/* Whether `name` (which ends with `suffix`) less `suffix` names a function
 * some call calls directly. */
static bool base_called(struct consumers *c, MlirStringRef name,
                        const char *suffix) {
  MlirOperation f = mlirSymbolTableLookup(
      c->table, mlirStringRefCreate(name.data, name.length - strlen(suffix)));
  return !mlirOperationIsNull(f) && ir_ptrmap_find(&c->called, f.ptr);
}

/* The device's parts for a resume (NAME.resume) or a destroy (NAME.cleanup
 * for a frame in its caller, NAME.destroy for one from the arena) of every
 * coroutine split, the same entries of the retcon coroutines' control
 * blocks (NAME.coro.resume, .coro.cleanup, .coro.destroy), and the noop
 * coroutine's function. */
static void device_parts(struct consumers *c, bool destroy,
                         struct ir_opvec *parts) {
  MlirBlock body =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(c->module, 0));
  for (MlirOperation f = mlirBlockGetFirstOperation(body);
       !mlirOperationIsNull(f); f = mlirOperationGetNextInBlock(f)) {
    if (!coro_op_named(f, "llvm.func"))
      continue;
    MlirStringRef name = ir_sym_name(f);
    bool part = ir_ptrmap_find(c->split, f.ptr) &&
                ends_with(name, destroy ? CORO_PART_CLEANUP : CORO_PART_RESUME);
    /* NAME.destroy frees a frame its ramp allocated: on the device only a
     * coroutine whose ramp is called (one with arena frames) has one */
    if (!part && destroy && ir_ptrmap_find(c->split, f.ptr) &&
        ends_with(name, CORO_PART_DESTROY))
      part = base_called(c, name, CORO_PART_DESTROY);
    /* the same of the retcon coroutines: NAME.coro.destroy frees an arena
     * control block, which only a call of NAME makes */
    if (!part)
      part = retcon_named(c, name,
                          destroy ? CORO_RETCON_CLEANUP : CORO_RETCON_RESUME);
    if (!part && destroy && retcon_named(c, name, CORO_RETCON_DESTROY))
      part = base_called(c, name, CORO_RETCON_DESTROY);
    if (part || coro_ref_eq(name, NOOP_FN))
      ir_opvec_push(parts, f);
  }
}

void split_compare_chain(struct ir_builder *b, MlirValue fn,
                         const struct ir_opvec *fns, int cconv, intptr_t n,
                         const MlirValue *args, MlirType result,
                         MlirBlock join) {
  MlirLocation loc = b->loc;
  for (size_t i = 0; i < fns->n; ++i) {
    MlirStringRef name = ir_sym_name(fns->v[i]);
    MlirValue addr = ir_addressof_ref(b, name);
    MlirValue same = ir_icmp(b, IR_EQ, fn, addr);
    MlirBlock call = ir_block_after(b->block, 0, NULL, loc);
    MlirBlock next = ir_block_after(call, 0, NULL, loc);
    ir_cond_br(b, same, call, next);
    struct ir_builder cb = ir_at_end(call, loc);
    MlirValue r = ir_call_cc(&cb, mlirFlatSymbolRefAttrGet(b->ctx, name), cconv,
                             0, n, args, result);
    bool pass = mlirBlockGetNumArguments(join) > 0;
    ir_br(&cb, join, pass, &r);
    *b = ir_at_end(next, loc);
  }
}

/* The compare chain over `parts` (each call on `h` returning the handle to
 * run next, passed on to `join` when it takes it); a pointer that is none
 * of them traps. The device module is a closed world, so the list is
 * complete, and no call is indirect. */
static void compare_chain(struct ir_builder *b, MlirValue fn, MlirValue h,
                          const struct ir_opvec *parts, MlirBlock join) {
  split_compare_chain(b, fn, parts, MlirLLVMCConvFast, 1, &h,
                      ir_ptr_type(b->ctx), join);
  ir_op(b, "llvm.intr.trap", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
  ir_op(b, "llvm.unreachable", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
}

/* On the device, the destroy of a handle of unknown origin (`op`, whose
 * destroy pointer `fn` was loaded from the header) by the compare chain. */
static bool dispatch_destroy(struct consumers *c, MlirOperation op, MlirValue h,
                             MlirValue fn) {
  if (!make_noop(c, mlirOperationGetLocation(op)))
    return false;
  struct ir_opvec parts = {0};
  device_parts(c, true, &parts);
  MlirBlock join = ir_split_after(op);
  struct ir_builder b = ir_before(op);
  compare_chain(&b, fn, h, &parts, join);
  free(parts.v);
  return true;
}

/* void CORO_DEVICE_RUN(ptr h): while h is not null, h = what resuming h
 * returns (the compare chain over every NAME.resume). Symmetric transfer
 * on the device in O(1) stack: a part returns the next handle to this loop
 * instead of tail-calling it (NVPTX has no musttail). */
static bool make_device_run(struct consumers *c) {
  MlirLocation loc = mlirOperationGetLocation(c->module);
  if (!mlirOperationIsNull(mlirSymbolTableLookup(
          c->table, mlirStringRefCreateFromCString(CORO_DEVICE_RUN)))) {
    mlirEmitError(loc, "'" CORO_DEVICE_RUN "' is already a symbol of the "
                       "module: --coro-split needs that name for the "
                       "device's resume loop");
    return false;
  }
  if (!make_noop(c, loc))
    return false;
  MlirType ptr = ir_ptr_type(mlirLocationGetContext(loc));
  struct ir_func_spec spec = {.name = CORO_DEVICE_RUN,
                              .nargs = 1,
                              .args = &ptr,
                              .linkage = MlirLLVMLinkageInternal};
  MlirOperation fn = ir_llvm_func(c->module, &spec, false, loc);
  mlirSymbolTableInsert(c->table, fn);
  MlirBlock entry = ir_func_entry(fn);
  MlirBlock loop = ir_block_after(entry, 1, &ptr, loc);
  MlirBlock disp = ir_block_after(loop, 0, NULL, loc);
  MlirBlock done = ir_block_after(disp, 0, NULL, loc);
  struct ir_builder e = ir_at_end(entry, loc);
  MlirValue h0 = mlirBlockGetArgument(entry, 0);
  ir_br(&e, loop, 1, &h0);
  struct ir_builder l = ir_at_end(loop, loc);
  MlirValue h = mlirBlockGetArgument(loop, 0);
  ir_cond_br(&l, ir_icmp(&l, IR_EQ, h, ir_null(&l)), done, disp);
  struct ir_builder d = ir_at_end(disp, loc);
  MlirValue resume = ir_load(&d, h, ptr, 8);
  struct ir_opvec parts = {0};
  device_parts(c, false, &parts);
  compare_chain(&d, resume, h, &parts, loop);
  free(parts.v);
  struct ir_builder r = ir_at_end(done, loc);
  ir_op(&r, "llvm.return", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
  return true;
}

static MlirWalkResult note_called(MlirOperation op, void *user) {
  struct consumers *c = user;
  if (!coro_op_named(op, "llvm.call"))
    return MlirWalkResultAdvance;
  MlirAttribute callee = ir_callee_attr(op);
  if (!mlirAttributeIsNull(callee) && mlirAttributeIsAFlatSymbolRef(callee)) {
    MlirOperation f =
        mlirSymbolTableLookup(c->table, mlirFlatSymbolRefAttrGetValue(callee));
    if (!mlirOperationIsNull(f))
      ir_ptrmap_put(&c->called, f.ptr, (void *)1);
  }
  return MlirWalkResultAdvance;
}

/* The lowering of `op`, an invoked resume or destroy, ends its block as
 * `op` did: the last call the lowering made becomes an invoke with `op`'s
 * destinations (a branch to the normal one when it made none). */
static void end_as_invoked(MlirOperation op) {
  MlirOperation last = {NULL};
  for (MlirOperation it = mlirBlockGetFirstOperation(mlirOperationGetBlock(op));
       !mlirOperationEqual(it, op); it = mlirOperationGetNextInBlock(it))
    if (coro_op_named(it, "llvm.call"))
      last = it;
  if (!mlirOperationIsNull(last)) {
    ir_call_to_invoke(last, op);
    return;
  }
  intptr_t first, count;
  ir_successor_operands(op, 0, &first, &count);
  MlirValue *args = ir_xmalloc((size_t)(count + 1) * sizeof *args);
  for (intptr_t i = 0; i < count; ++i)
    args[i] = mlirOperationGetOperand(op, first + i);
  struct ir_builder b = ir_before(op);
  ir_br(&b, mlirOperationGetSuccessor(op, 0), count, args);
  free(args);
}

static bool lower(struct consumers *c, MlirOperation op, enum coro_intr k) {
  struct ir_builder b = ir_before(op);
  MlirType ptr = ir_ptr_type(b.ctx);
  MlirValue h = mlirOperationGetNumOperands(op) ? mlirOperationGetOperand(op, 0)
                                                : (MlirValue){NULL};
  MlirValue r = {NULL};
  switch (k) {
  case CI_RESUME:
  case CI_DESTROY: {
    MlirAttribute direct = direct_target(c, h, k == CI_DESTROY);
    /* on the device a resume runs the resume loop: on what the direct
     * call hands over, or on the handle itself */
    bool loop = c->device && k == CI_RESUME;
    MlirValue run_on = h;
    if (!mlirAttributeIsNull(direct))
      run_on = ir_call_cc(&b, direct, MlirLLVMCConvFast, 0, 1, &h,
                          c->device ? ptr : (MlirType){NULL});
    if (loop)
      ir_call(&b,
              mlirFlatSymbolRefAttrGet(
                  b.ctx, mlirStringRefCreateFromCString(CORO_DEVICE_RUN)),
              false, 1, &run_on, (MlirType){NULL});
    if (loop || !mlirAttributeIsNull(direct))
      break;
    MlirValue slot =
        k == CI_RESUME ? h : ir_gep_bytes(&b, h, CORO_HANDLE_DESTROY_OFFSET);
    MlirValue fn = ir_load(&b, slot, ptr, 8);
    if (c->device) {
      if (!dispatch_destroy(c, op, h, fn))
        return false;
      break;
    }
    /* A destroy is never a sibling call (notail): the memory-indirect
     * jump would need the handle in a scratch register at a loop's exit,
     * and LLVM's register allocator then copies the handle between that
     * register and a callee-saved one around every resume of the loop (a
     * generator's consumer: two instructions a value). A destroy runs once
     * a coroutine; its call and return cost that once. */
    ir_call_indirect(&b, fn, MlirLLVMCConvFast,
                     k == CI_DESTROY ? 3 /* notail */ : 0, 1, &h,
                     (MlirType){NULL});
    break;
  }
  case CI_DONE: {
    MlirValue resume = ir_load(&b, h, ptr, 8); /* in order, not as args */
    r = ir_icmp(&b, IR_EQ, resume, ir_null(&b));
  } break;
  case CI_PROMISE: {
    int64_t align, from;
    if (mlirOperationGetNumOperands(op) != 3 ||
        !ir_const_int_value(mlirOperationGetOperand(op, 1), &align) ||
        !ir_const_int_value(mlirOperationGetOperand(op, 2), &from) ||
        align <= 0 || align > (1 << 20)) {
      ir_emit_error(op, "llvm.coro.promise needs a constant alignment and "
                        "direction");
      return false;
    }
    int64_t off = (int64_t)promise_offset((uint64_t)align);
    r = ir_gep_bytes(&b, h, (int)(from ? -off : off));
    break;
  }
  case CI_PREPARE_RETCON:
    /* only LLVM's CoroSplit needs the hint: the function itself */
    if (mlirOperationGetNumOperands(op) != 1) {
      ir_emit_error(op, "llvm.coro.prepare.retcon takes the function");
      return false;
    }
    r = h;
    break;
  /* What a split ramp keeps (LLVM's keeps its id, for elision) and
   * hand-written split code names, lowered as LLVM's CoroCleanup lowers
   * them: the id goes, an allocation is always made, begin is its memory,
   * free its frame, subfn.addr a load of the resume (0) or destroy (1)
   * entry. */
  case CI_ID:
  case CI_ID_RETCON:
  case CI_ID_RETCON_ONCE:
  case CI_ID_ASYNC:
    r = ir_none_token(&b);
    break;
  case CI_ALLOC:
    r = ir_const_int(&b, 1, 1);
    break;
  case CI_BEGIN:
  case CI_FREE:
    if (mlirOperationGetNumOperands(op) != 2) {
      ir_emit_error(op, k == CI_BEGIN ? "llvm.coro.begin takes the id and the "
                                        "frame's memory"
                                      : "llvm.coro.free takes the id and the "
                                        "frame");
      return false;
    }
    r = mlirOperationGetOperand(op, 1);
    break;
  case CI_SUBFN_ADDR: {
    int64_t index;
    if (mlirOperationGetNumOperands(op) != 2 ||
        !ir_const_int_value(mlirOperationGetOperand(op, 1), &index) ||
        (index != 0 && index != 1)) {
      ir_emit_error(op, "llvm.coro.subfn.addr takes a handle and the constant "
                        "index of its resume (0) or destroy (1) entry");
      return false;
    }
    r = ir_load(&b, index ? ir_gep_bytes(&b, h, CORO_HANDLE_DESTROY_OFFSET) : h,
                ptr, 8);
    break;
  }
  case CI_NOOP:
    if (!make_noop(c, mlirOperationGetLocation(op)))
      return false;
    r = ir_addressof(&b, NOOP_FRAME);
    break;
  default: {
    struct coro_str msg = {0};
    MlirStringRef n = coro_intr_name(op);
    coro_str_appendz(&msg, n.length && n.data[0] == 'c' ? "'llvm." : "'");
    coro_str_append(&msg, n.data, n.length);
    coro_str_appendz(&msg, "' outside a coroutine --coro-split splits (an "
                           "llvm.func marked passthrough = "
                           "[\"presplitcoroutine\"])");
    ir_emit_error(op, coro_str_cstr(&msg));
    coro_str_free(&msg);
    return false;
  }
  }
  if (!mlirValueIsNull(r))
    mlirValueReplaceAllUsesOfWith(mlirOperationGetResult(op, 0), r);
  if (coro_op_named(op, "llvm.invoke"))
    end_as_invoked(op);
  mlirOperationDestroy(op);
  return true;
}

/* Lowers `op` (of kind `k`, in a function that is a coroutine of another
 * ABI when `other`) if it is for the split to lower; else notes the name
 * it calls in `called`. */
static bool lower_or_keep(struct consumers *c, MlirOperation op,
                          enum coro_intr k, bool other,
                          struct ir_ptrmap *called) {
  bool consumer = k == CI_RESUME || k == CI_DESTROY || k == CI_DONE ||
                  k == CI_PROMISE || k == CI_NOOP || k == CI_PREPARE_RETCON;
  if (consumer || !other)
    return lower(c, op, k);
  split_note_callee(called, op);
  return true;
}

void split_note_callee(struct ir_ptrmap *called, MlirOperation op) {
  if (!coro_op_named(op, "llvm.call"))
    return;
  MlirAttribute a = ir_callee_attr(op);
  if (!mlirAttributeIsNull(a) && mlirAttributeIsAFlatSymbolRef(a))
    ir_ptrmap_put(called,
                  mlirIdentifierGet(mlirOperationGetContext(op),
                                    mlirFlatSymbolRefAttrGetValue(a))
                      .ptr,
                  (void *)1);
}

/* What -O2's pre-split simplification inferred about a function while
 * coroutine intrinsics hid what it touches (llvm.coro.promise does not
 * read memory, and LLVM does not relate the pointer it returns to its
 * operand): an argument whose promise the function loads or stores came
 * out `readnone` and not captured. Lowered to pointer arithmetic and
 * loads, those claims would be false, and LLVM would move the frame's
 * accesses across the calls. Drops them from `fn`'s arguments, and its
 * memory effects. */
static void drop_memory_attrs(MlirOperation fn) {
  static const char *const keys[] = {"llvm.readnone", "llvm.readonly",
                                     "llvm.writeonly", "llvm.nocapture",
                                     "llvm.captures"};
  MlirContext ctx = mlirOperationGetContext(fn);
  mlirOperationRemoveAttributeByName(
      fn, mlirStringRefCreateFromCString("memory_effects"));
  MlirStringRef args_key = mlirStringRefCreateFromCString("arg_attrs");
  MlirAttribute args = mlirOperationGetAttributeByName(fn, args_key);
  if (mlirAttributeIsNull(args) || !mlirAttributeIsAArray(args))
    return;
  intptr_t n = mlirArrayAttrGetNumElements(args);
  MlirAttribute *dicts = ir_xcalloc((size_t)n + 1, sizeof *dicts);
  for (intptr_t i = 0; i < n; ++i) {
    MlirAttribute d = mlirArrayAttrGetElement(args, i);
    intptr_t m = mlirDictionaryAttrGetNumElements(d);
    MlirNamedAttribute *kept = ir_xcalloc((size_t)m + 1, sizeof *kept);
    intptr_t nk = 0;
    for (intptr_t j = 0; j < m; ++j) {
      MlirNamedAttribute a = mlirDictionaryAttrGetElement(d, j);
      MlirStringRef name = mlirIdentifierStr(a.name);
      bool drop = false;
      for (size_t k = 0; k < sizeof keys / sizeof *keys; ++k)
        drop |=
            mlirStringRefEqual(name, mlirStringRefCreateFromCString(keys[k]));
      if (!drop)
        kept[nk++] = a;
    }
    dicts[i] = mlirDictionaryAttrGet(ctx, nk, kept);
    free(kept);
  }
  mlirOperationSetAttributeByName(fn, args_key,
                                  mlirArrayAttrGet(ctx, n, dicts));
  free(dicts);
}

/* The intrinsics of one piece of the module's functions, in order: each
 * function's, from the scan (`left`) or found again in a function changed
 * since. Gathered, then lowered, on MLIR's threads: a lowering changes only
 * its function, and reads the others. */
struct consumer_piece {
  struct ir_opvec ops, fn_of;
  struct ir_ptrmap called;
  bool ok, noop;
};

struct consumer_pieces {
  struct consumers *c;
  const struct split_leftovers *left;
  struct ir_ptrmap first; /* function -> 1 + its first in left->intr */
  struct ir_pieces pieces;
  struct consumer_piece *piece;
};

static void gather_op(struct consumer_piece *p, MlirOperation op,
                      MlirOperation fn) {
  ir_opvec_push(&p->ops, op);
  ir_opvec_push(&p->fn_of, fn);
  p->noop |= coro_intr_classify(op) == CI_NOOP;
}

static void gather_consumers(size_t k, void *user) {
  struct consumer_pieces *all = user;
  struct consumer_piece *p = &all->piece[k];
  const struct split_leftovers *left = all->left;
  size_t begin, end;
  ir_piece(&all->pieces, k, &begin, &end);
  for (size_t i = begin; i < end; ++i) {
    MlirOperation fn = all->pieces.op[i];
    if (!ir_ptrmap_find(&left->changed, fn.ptr)) {
      for (size_t j = (size_t)ir_ptrmap_find(&all->first, fn.ptr);
           j && j <= left->intr.n &&
           mlirOperationEqual(left->intr_fn.v[j - 1], fn);
           ++j)
        gather_op(p, left->intr.v[j - 1], fn);
      continue;
    }
    for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(fn, 0));
         ir_op_walk_next(&w);)
      if (coro_intr_classify(w.op) != CI_NONE)
        gather_op(p, w.op, fn);
  }
}

/* Lowers the intrinsics of piece `k` in order, each function's memory
 * claims dropped after its last. */
static void lower_piece(struct consumers *c, struct consumer_piece *p,
                        struct ir_ptrmap *called) {
  p->ok = true;
  bool other = false;
  for (size_t i = 0; i < p->ops.n; ++i) {
    MlirOperation op = p->ops.v[i];
    /* a coroutine of another ABI, left for LLVM: only its consumer ops */
    if (i == 0 || !mlirOperationEqual(p->fn_of.v[i], p->fn_of.v[i - 1]))
      other = ir_passthrough_has(p->fn_of.v[i], "presplitcoroutine");
    p->ok &= lower_or_keep(c, op, coro_intr_classify(op), other, called);
    if (i + 1 == p->ops.n ||
        !mlirOperationEqual(p->fn_of.v[i + 1], p->fn_of.v[i]))
      drop_memory_attrs(p->fn_of.v[i]);
  }
}

static void lower_consumers(size_t k, void *user) {
  struct consumer_pieces *all = user;
  struct consumer_piece *p = &all->piece[k];
  struct ir_op_cache *cache = split_cache_take(&all->c->caches);
  lower_piece(all->c, p, &p->called);
  split_cache_give(&all->c->caches, cache);
}

bool coro_split_lower_consumers(MlirOperation module, MlirSymbolTable table,
                                const struct ir_ptrmap *split,
                                const struct split_leftovers *left,
                                struct ir_ptrmap *called) {
  struct consumers c = {.module = module,
                        .table = table,
                        .split = split,
                        .device = coro_module_is_device(module)};
  if (c.device)
    mlirOperationWalk(module, note_called, &c, MlirWalkPreOrder);
  struct consumer_pieces all = {.c = &c, .left = left};
  for (size_t j = left->intr.n; j-- > 0;)
    ir_ptrmap_put(&all.first, left->intr_fn.v[j].ptr, (void *)(j + 1));
  ir_func_pieces_init(&all.pieces, module);
  size_t n = all.pieces.n;
  all.piece = ir_xcalloc(n + 1, sizeof *all.piece);
  MlirContext ctx = mlirOperationGetContext(module);
  ir_parallel_for(ctx, n, gather_consumers, &all);
  /* The noop frame, the one symbol a lowering adds, is made before the
   * lowerings go on threads; when its name is taken (an error, at the
   * first llvm.coro.noop) or on the device (whose lowerings add more),
   * they run on this thread, in order. */
  MlirOperation first_noop = {NULL};
  for (size_t k = 0; k < n && mlirOperationIsNull(first_noop); ++k)
    for (size_t i = 0; all.piece[k].noop && i < all.piece[k].ops.n; ++i)
      if (coro_intr_classify(all.piece[k].ops.v[i]) == CI_NOOP) {
        first_noop = all.piece[k].ops.v[i];
        break;
      }
  bool serial = c.device;
  if (!serial && !mlirOperationIsNull(first_noop)) {
    serial = !mlirOperationIsNull(mlirSymbolTableLookup(
                 table, mlirStringRefCreateFromCString(NOOP_FN))) ||
             !mlirOperationIsNull(mlirSymbolTableLookup(
                 table, mlirStringRefCreateFromCString(NOOP_FRAME)));
    if (!serial)
      make_noop(&c, mlirOperationGetLocation(first_noop));
  }
  bool ok = true;
  if (serial) {
    for (size_t k = 0; k < n; ++k) {
      lower_piece(&c, &all.piece[k], called);
      ok &= all.piece[k].ok;
    }
  } else {
    split_cache_pool_init(&c.caches, ctx, n);
    ir_parallel_for(ctx, n, lower_consumers, &all);
    split_cache_pool_free(&c.caches);
  }
  for (size_t k = 0; k < n; ++k) {
    struct consumer_piece *p = &all.piece[k];
    if (!serial)
      ok &= p->ok;
    ir_ptrmap_merge(called, &p->called);
    ir_ptrmap_free(&p->called);
    free(p->ops.v);
    free(p->fn_of.v);
  }
  free(all.piece);
  free(all.pieces.op);
  ir_ptrmap_free(&all.first);
  if (ok && c.device)
    ok = make_device_run(&c);
  ir_ptrmap_free(&c.called);
  return ok;
}
