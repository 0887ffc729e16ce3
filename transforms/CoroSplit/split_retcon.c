/* split_retcon.c - --coro-split for the returned-continuation ABIs
 * (llvm.coro.id.retcon and llvm.coro.id.retcon.once), the split_abi entry
 * split_abi_retcon.
 *
 * What LLVM's CoroSplit makes of such a coroutine, made here:
 *   - the ramp, under the original name, runs to its first suspension and
 *     returns {continuation, yielded values...} (the coroutine's result
 *     type); a continuation of null means it has ended;
 *   - one continuation per suspension, NAME.resume.N, of the prototype's
 *     type (ptr buffer, P...) -> R: it reloads what suspension N keeps, takes
 *     the suspension's result from P, and runs to the next suspension
 *     (returning that one's continuation and values) or to the end;
 *     retcon.once's one continuation returns the prototype's result, made
 *     of llvm.coro.end.results' values;
 *   - the frame has no header (each continuation knows where it resumes)
 *     and lives in the caller's buffer when it fits its size and
 *     alignment; otherwise the ramp allocates it with the id's allocator,
 *     keeps its address in the buffer's first word, and every end frees it
 *     with the deallocator.
 * The buffer is not kept in the frame: every continuation is passed it.
 * The analyses, layout, reloads and SSA repair are every ABI's
 * (coroutine.c, frame_access.c, reach.c, sweep.c). */
#include "dialect/contract.h"
#include "transforms/CoroSplit/split_internal.h"

#include "ir/func.h"
#include "ir/parallel.h"
#include "ir/support.h"
#include "ir/types.h"
#include "transforms/CoroSplit/coro_split.h"
#include "transforms/CoroSplit/frame_debug.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool starts_with_ptr(MlirType t) {
  if (mlirTypeIsALLVMStructType(t))
    return mlirLLVMStructTypeGetNumElementTypes(t) > 0 &&
           mlirTypeIsALLVMPointerType(mlirLLVMStructTypeGetElementType(t, 0));
  return mlirTypeIsALLVMPointerType(t);
}

/* What a suspension returns: the prototype's parameters after the buffer
 * (null for none, the one type, or a struct of them). */
static MlirType suspend_result(const struct split *sp) {
  intptr_t n = mlirLLVMFunctionTypeGetNumInputs(sp->retcon.cont_type);
  if (n <= 1)
    return (MlirType){NULL};
  if (n == 2)
    return mlirLLVMFunctionTypeGetInput(sp->retcon.cont_type, 1);
  MlirType *t = ir_xmalloc((size_t)n * sizeof *t);
  for (intptr_t i = 1; i < n; ++i)
    t[i - 1] = mlirLLVMFunctionTypeGetInput(sp->retcon.cont_type, i);
  MlirType s = mlirLLVMStructTypeLiteralGet(sp->ctx, n - 1, t, false);
  free(t);
  return s;
}

/*===--- checks -------------------------------------------------------------*/

static bool check_suspension(const struct split *sp, MlirOperation op) {
  MlirType rr = sp->retcon.ramp_result;
  intptr_t held = mlirTypeIsALLVMStructType(rr)
                      ? mlirLLVMStructTypeGetNumElementTypes(rr) - 1
                      : 0;
  intptr_t n = mlirOperationGetNumOperands(op);
  char buf[200];
  if (n != held) {
    snprintf(buf, sizeof buf,
             "llvm.coro.suspend.retcon yields %ld values where the "
             "coroutine's result holds %ld after the continuation",
             (long)n, (long)held);
    ir_emit_error(op, buf);
    return false;
  }
  for (intptr_t i = 0; i < n; ++i)
    if (!mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(op, i)),
                       mlirLLVMStructTypeGetElementType(rr, i + 1))) {
      snprintf(buf, sizeof buf,
               "value %ld that llvm.coro.suspend.retcon yields is not of "
               "the type the coroutine's result holds there",
               (long)i);
      ir_emit_error(op, buf);
      return false;
    }
  MlirType want = suspend_result(sp);
  if (mlirOperationGetNumResults(op) &&
      (mlirTypeIsNull(want) ||
       !mlirTypeEqual(mlirValueGetType(mlirOperationGetResult(op, 0)), want))) {
    ir_emit_error(
        op, "the result of llvm.coro.suspend.retcon is not the prototype's "
            "parameters after the buffer (one type, or a struct of them)");
    return false;
  }
  return true;
}

/* The values a retcon.once end returns (llvm.coro.end.results'), or none;
 * `res` null when the end takes none. */
static MlirOperation end_results(MlirOperation end) {
  if (mlirOperationGetNumOperands(end) < 3)
    return (MlirOperation){NULL};
  MlirValue tok = mlirOperationGetOperand(end, 2);
  MlirOperation def = mlirValueIsAOpResult(tok) ? mlirOpResultGetOwner(tok)
                                                : (MlirOperation){NULL};
  return !mlirOperationIsNull(def) && coro_intr_classify(def) == CI_END_RESULTS
             ? def
             : (MlirOperation){NULL};
}

/* The end's results make what the once continuation returns. */
static bool check_end(const struct split *sp, MlirOperation end) {
  MlirOperation res = end_results(end);
  if (sp->shape.abi == CORO_SHAPE_RETCON) {
    if (!mlirOperationIsNull(res)) {
      ir_emit_error(end,
                    "an llvm.coro.end of a retcon coroutine takes no results "
                    "(llvm.coro.end.results is retcon.once's)");
      return false;
    }
    return true;
  }
  int64_t unwind = 0;
  ir_const_int_value(mlirOperationGetOperand(end, 1), &unwind);
  if (unwind && mlirOperationIsNull(res))
    return true; /* it returns nothing */
  /* a fall-through end returns the prototype's result: nothing (void), the
   * one value of its type, or the members of its struct */
  MlirType rt = mlirLLVMFunctionTypeGetReturnType(sp->retcon.cont_type);
  intptr_t n = mlirOperationIsNull(res) ? 0 : mlirOperationGetNumOperands(res);
  bool ok;
  if (ir_type_is_void(rt) || n == 0)
    ok = ir_type_is_void(rt) && n == 0;
  else if (n == 1 &&
           mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(res, 0)), rt))
    ok = true;
  else {
    ok = mlirTypeIsALLVMStructType(rt) &&
         mlirLLVMStructTypeGetNumElementTypes(rt) == n;
    for (intptr_t i = 0; ok && i < n; ++i)
      ok = mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(res, i)),
                         mlirLLVMStructTypeGetElementType(rt, i));
  }
  if (!ok)
    ir_emit_error(end, "the values of llvm.coro.end.results do not make the "
                       "prototype's result, which the continuation returns");
  return ok;
}

/* On the device a retcon frame that does not fit its buffer comes from the
 * thread's arena, when the coroutine takes its control blocks from there
 * (coro.alloc = "arena" made the arena's allocator the id's): its
 * NAME_frame_size, which the retcon conversion set to the control block's
 * size, then counts the frame and its arena record too. Otherwise (a
 * control block in its caller) it is an error: the device calls no other
 * allocator. */
static bool device_frame_from_arena(struct split *sp, MlirSymbolTable table,
                                    MlirOperation id) {
  MlirOperation a = ir_llvm_func_of(table, mlirOperationGetOperand(id, 4));
  bool arena = !mlirOperationIsNull(a) &&
               coro_ref_eq(ir_sym_name(a), CORO_ARENA_ALLOC) &&
               sp->layout.align <= CORO_ARENA_RECORD;
  const char *ramp = CORO_RETCON_RAMP;
  size_t k = strlen(ramp);
  struct coro_str n = {0};
  if (arena && sp->name.len > k &&
      !memcmp(sp->name.data + sp->name.len - k, ramp, k)) {
    coro_str_append(&n, sp->name.data, sp->name.len - k);
    coro_str_appendz(&n, CORO_FRAME_SIZE_SUFFIX);
  }
  MlirOperation g =
      n.len ? mlirSymbolTableLookup(table, mlirStringRefCreate(n.data, n.len))
            : (MlirOperation){NULL};
  coro_str_free(&n);
  MlirAttribute v = mlirOperationIsNull(g)
                        ? (MlirAttribute){NULL}
                        : mlirOperationGetAttributeByName(
                              g, mlirStringRefCreateFromCString("value"));
  if (!mlirAttributeIsNull(v) && mlirAttributeIsAInteger(v)) {
    uint64_t frame = (sp->layout.size + CORO_ARENA_RECORD - 1) /
                     CORO_ARENA_RECORD * CORO_ARENA_RECORD;
    int64_t total =
        mlirIntegerAttrGetValueInt(v) + CORO_ARENA_RECORD + (int64_t)frame;
    mlirOperationSetAttributeByName(
        g, mlirStringRefCreateFromCString("value"),
        mlirIntegerAttrGet(mlirAttributeGetType(v), total));
    return true;
  }
  char buf[400];
  snprintf(buf, sizeof buf,
           "on the device a retcon frame lives in the coroutine's buffer, "
           "and this one (%llu bytes, align %llu) does not fit it (%lld, "
           "align %lld): give the coroutine coro.buffer = array<i64: "
           "%llu, %llu>%s",
           (unsigned long long)sp->layout.size,
           (unsigned long long)sp->layout.align,
           (long long)sp->shape.buffer_size, (long long)sp->shape.buffer_align,
           (unsigned long long)sp->layout.size,
           (unsigned long long)(sp->layout.align < 8 ? 8 : sp->layout.align),
           sp->layout.align <= CORO_ARENA_RECORD
               ? ", or take its frames from the arena (coro.alloc = "
                 "\"arena\")"
               : "");
  ir_emit_error(id, buf);
  return false;
}

static bool retcon_prepare(struct split *sp, MlirSymbolTable table) {
  MlirOperation id = sp->shape.id;
  MlirOperation proto = ir_llvm_func_of(table, mlirOperationGetOperand(id, 3));
  sp->retcon.proto = proto;
  if (mlirOperationIsNull(proto)) {
    ir_emit_error(id,
                  "the prototype of llvm.coro.id.retcon must be the address of "
                  "an llvm.func of the module");
    return false;
  }
  sp->retcon.cont_type = ir_func_type(proto);
  if (mlirLLVMFunctionTypeGetNumInputs(sp->retcon.cont_type) < 1 ||
      !mlirTypeIsALLVMPointerType(
          mlirLLVMFunctionTypeGetInput(sp->retcon.cont_type, 0))) {
    ir_emit_error(
        id, "the prototype of a returned-continuation coroutine takes the "
            "buffer (a ptr) first");
    return false;
  }
  sp->retcon.ramp_result =
      mlirLLVMFunctionTypeGetReturnType(ir_func_type(sp->func));
  if (!starts_with_ptr(sp->retcon.ramp_result)) {
    ir_emit_error(sp->func,
                  "a returned-continuation coroutine returns its "
                  "continuation: a ptr, or a struct whose first member is "
                  "one");
    return false;
  }
  if (sp->shape.abi == CORO_SHAPE_RETCON &&
      !mlirTypeEqual(sp->retcon.ramp_result,
                     mlirLLVMFunctionTypeGetReturnType(sp->retcon.cont_type))) {
    ir_emit_error(id, "the prototype of a retcon coroutine returns what the "
                      "coroutine returns (each continuation returns the next)");
    return false;
  }
  for (size_t i = 0; i < sp->shape.nsusp; ++i)
    if (!check_suspension(sp, sp->shape.susp[i].suspend))
      return false;
  for (size_t i = 0; i < sp->shape.nintr; ++i)
    if (sp->shape.intr[i].kind == CI_END &&
        !check_end(sp, sp->shape.intr[i].op))
      return false;
  sp->retcon.inline_frame =
      sp->layout.size <= (uint64_t)sp->shape.buffer_size &&
      sp->layout.align <= (uint64_t)sp->shape.buffer_align;
  sp->retcon.alloc_size = ir_int_type(sp->ctx, 64);
  if (sp->retcon.inline_frame)
    return true;
  if (sp->device && !device_frame_from_arena(sp, table, id))
    return false;
  MlirValue alloc = mlirOperationGetOperand(id, 4);
  MlirValue dealloc = mlirOperationGetOperand(id, 5);
  if (mlirValueIsAOpResult(alloc) &&
      coro_op_named(mlirOpResultGetOwner(alloc), "llvm.mlir.zero")) {
    char buf[200];
    snprintf(buf, sizeof buf,
             "the frame (%llu bytes, align %llu) does not fit the buffer "
             "(%lld, align %lld) and llvm.coro.id.retcon gives no allocator",
             (unsigned long long)sp->layout.size,
             (unsigned long long)sp->layout.align,
             (long long)sp->shape.buffer_size,
             (long long)sp->shape.buffer_align);
    ir_emit_error(id, buf);
    return false;
  }
  MlirOperation a = ir_llvm_func_of(table, alloc),
                d = ir_llvm_func_of(table, dealloc);
  if (!mlirOperationIsNull(a)) {
    MlirType t = ir_func_type(a);
    if (mlirLLVMFunctionTypeGetNumInputs(t) != 1 ||
        !mlirTypeIsAInteger(mlirLLVMFunctionTypeGetInput(t, 0)) ||
        !mlirTypeIsALLVMPointerType(mlirLLVMFunctionTypeGetReturnType(t))) {
      ir_emit_error(id, "the allocator of llvm.coro.id.retcon takes a size (an "
                        "integer) and returns a ptr");
      return false;
    }
    sp->retcon.alloc_size = mlirLLVMFunctionTypeGetInput(t, 0);
  }
  if (!mlirOperationIsNull(d) &&
      (mlirLLVMFunctionTypeGetNumInputs(ir_func_type(d)) != 1 ||
       !mlirTypeIsALLVMPointerType(
           mlirLLVMFunctionTypeGetInput(ir_func_type(d), 0)))) {
    ir_emit_error(id,
                  "the deallocator of llvm.coro.id.retcon takes the frame (a "
                  "ptr)");
    return false;
  }
  return true;
}

/* NAME.resume.N */
static struct coro_str name_of_cont(MlirStringRef coro, size_t i) {
  char sfx[32];
  snprintf(sfx, sizeof sfx, ".resume.%zu", i);
  struct coro_str n = {0};
  coro_str_append(&n, coro.data, coro.length);
  coro_str_appendz(&n, sfx);
  return n;
}

struct coro_str split_cont_name(const struct split *sp, size_t i) {
  return name_of_cont(mlirStringRefCreate(sp->name.data, sp->name.len), i);
}

bool split_conts_check_names(struct split *sp, MlirSymbolTable table,
                             bool elide) {
  (void)elide;
  for (size_t i = 0; i < sp->shape.nsusp; ++i) {
    struct coro_str n = split_cont_name(sp, i);
    if (!split_name_free(sp, table, &n))
      return false;
  }
  return true;
}

/*===--- the variants -------------------------------------------------------*/

/* The ramp's frame, at coro.begin: the buffer, or memory from the
 * allocator whose address the buffer keeps. */
static void retcon_ramp_frame(struct variant_state *vs) {
  struct split *sp = vs->sp;
  MlirValue storage = vs->shape.storage;
  if (sp->retcon.inline_frame) {
    vs->frame = storage;
    return;
  }
  struct ir_builder b = ir_before(vs->shape.begin);
  MlirValue size =
      ir_const_int(&b, mlirIntegerTypeGetWidth(sp->retcon.alloc_size),
                   (long long)sp->layout.size);
  vs->frame = ir_call_through(&b, mlirOperationGetOperand(vs->shape.id, 4), 1,
                              &size, sp->ptr);
  ir_store(&b, vs->frame, storage, 8);
}

/* A continuation is entered with the prototype's parameters: the buffer
 * first, which stands for the storage wherever the body used it. */
static void retcon_clone_entry(struct variant_state *vs) {
  struct split *sp = vs->sp;
  intptr_t n = mlirLLVMFunctionTypeGetNumInputs(sp->retcon.cont_type);
  MlirType *types = ir_xmalloc((size_t)(n + 1) * sizeof *types);
  for (intptr_t i = 0; i < n; ++i)
    types[i] = mlirLLVMFunctionTypeGetInput(sp->retcon.cont_type, i);
  split_entry_block(vs, n, types);
  free(types);
  MlirValue buffer = mlirBlockGetArgument(vs->dispatch, 0);
  mlirValueReplaceAllUsesOfWith(vs->shape.storage, buffer);
  if (sp->retcon.inline_frame) {
    vs->frame = buffer;
    return;
  }
  struct ir_builder b = ir_at_end(vs->dispatch, sp->loc);
  vs->frame = ir_load(&b, buffer, sp->ptr, 8);
}

void split_cont_finish_entry(struct variant_state *vs) {
  struct ir_builder b = ir_at_end(vs->dispatch, vs->sp->loc);
  ir_br(&b, vs->landing[vs->cont], 0, NULL);
}

/* The landing of the continuation after suspension `i`: reloads, then the
 * suspension's result made of the parameters, then where it resumes. */
static MlirBlock make_landing(struct variant_state *vs, size_t i) {
  struct split *sp = vs->sp;
  MlirOperation susp = vs->shape.susp[i].suspend;
  MlirLocation loc = mlirOperationGetLocation(susp);
  MlirBlock l = ir_new_block(mlirOperationGetRegion(vs->fn, 0), 0, NULL, loc);
  struct ir_builder b = ir_at_end(l, loc);
  split_reload_kept(vs, i, &b);
  if (mlirOperationGetNumResults(susp)) {
    MlirValue r = mlirOperationGetResult(susp, 0);
    MlirType t = mlirValueGetType(r);
    intptr_t n = mlirLLVMFunctionTypeGetNumInputs(sp->retcon.cont_type);
    MlirValue v = mlirBlockGetArgument(vs->dispatch, 1);
    if (n > 2) {
      v = ir_val(&b, "llvm.mlir.poison", 0, NULL, t);
      for (intptr_t k = 1; k < n; ++k)
        v = ir_insertvalue(&b, v, mlirBlockGetArgument(vs->dispatch, k),
                           (int)k - 1);
    }
    mlirValueReplaceAllUsesOfWith(r, v);
    ir_map_value(vs->map, mlirOperationGetResult(sp->shape.susp[i].suspend, 0),
                 v);
  }
  MlirOperation br = mlirOperationGetNextInBlock(susp);
  ir_br(&b, mlirOperationGetSuccessor(br, 0), 0, NULL);
  return l;
}

void split_return_at(MlirOperation from, MlirValue v) {
  MlirBlock block = mlirOperationGetBlock(from);
  MlirLocation loc = mlirOperationGetLocation(from);
  split_erase_from(from);
  struct ir_builder e = ir_at_end(block, loc);
  ir_return(&e, v);
}

/* A suspension returns its continuation and the values it yields. */
static void retcon_suspend(struct variant_state *vs, size_t i) {
  struct split *sp = vs->sp;
  if (vs->v == V_CONT && i == vs->cont)
    vs->landing[i] = make_landing(vs, i);
  if (!vs->live[i])
    return; /* its block dies unreached */
  MlirOperation susp = vs->shape.susp[i].suspend;
  split_store_kept(vs, i, susp);
  struct ir_builder b = ir_before(susp);
  if (vs->v == V_CONT && sp->shape.abi == CORO_SHAPE_ONCE) {
    /* a yield-once coroutine never suspends twice */
    MlirBlock block = mlirOperationGetBlock(susp);
    split_erase_from(susp);
    struct ir_builder e = ir_at_end(block, b.loc);
    ir_unreachable(&e);
    return;
  }
  struct coro_str n = split_cont_name(sp, i);
  MlirValue v = ir_addressof(&b, coro_str_cstr(&n));
  coro_str_free(&n);
  if (mlirTypeIsALLVMStructType(sp->retcon.ramp_result)) {
    MlirValue agg =
        ir_val(&b, "llvm.mlir.poison", 0, NULL, sp->retcon.ramp_result);
    agg = ir_insertvalue(&b, agg, v, 0);
    for (intptr_t k = 0; k < mlirOperationGetNumOperands(susp); ++k)
      agg =
          ir_insertvalue(&b, agg, mlirOperationGetOperand(susp, k), (int)k + 1);
    v = agg;
  }
  split_return_at(susp, v);
}

static void retcon_begin(struct variant_state *vs, MlirOperation op) {
  split_replace_result(op, vs->frame);
  split_erase(op);
}

/* What an end returns: a null continuation, or in a retcon.once
 * continuation the prototype's result made of the end's values. */
static MlirValue end_value(struct variant_state *vs, struct ir_builder *b,
                           MlirOperation end) {
  struct split *sp = vs->sp;
  bool once_cont = vs->v == V_CONT && sp->shape.abi == CORO_SHAPE_ONCE;
  MlirType rt = once_cont
                    ? mlirLLVMFunctionTypeGetReturnType(sp->retcon.cont_type)
                    : sp->retcon.ramp_result;
  if (ir_type_is_void(rt))
    return (MlirValue){NULL};
  MlirOperation res = once_cont ? end_results(end) : (MlirOperation){NULL};
  intptr_t n = mlirOperationIsNull(res) ? 0 : mlirOperationGetNumOperands(res);
  if (n == 1 &&
      mlirTypeEqual(mlirValueGetType(mlirOperationGetOperand(res, 0)), rt))
    return mlirOperationGetOperand(res, 0);
  if (!once_cont && !mlirTypeIsALLVMStructType(rt))
    return ir_null(b);
  MlirValue agg = ir_val(b, "llvm.mlir.poison", 0, NULL, rt);
  if (!once_cont)
    return ir_insertvalue(b, agg, ir_null(b), 0);
  for (intptr_t k = 0; k < n; ++k)
    agg = ir_insertvalue(b, agg, mlirOperationGetOperand(res, k), (int)k);
  return agg;
}

/* An end frees a frame the allocator gave, then returns (a fall-through
 * end) or goes on (an unwind end). */
static void retcon_end(struct variant_state *vs, MlirOperation op) {
  struct split *sp = vs->sp;
  struct ir_builder b = ir_before(op);
  int64_t unwind = 0;
  ir_const_int_value(mlirOperationGetOperand(op, 1), &unwind);
  if (mlirOperationGetNumResults(op))
    split_replace_result(
        op, ir_const_int(&b, 1, vs->v == V_CONT)); /* "in a continuation" */
  if (!sp->retcon.inline_frame)
    ir_call_through(&b, mlirOperationGetOperand(vs->shape.id, 5), 1, &vs->frame,
                    (MlirType){NULL});
  MlirOperation res = end_results(op);
  if (unwind) {
    split_erase(op);
  } else {
    MlirValue v = end_value(vs, &b, op);
    split_return_at(op, v);
  }
  if (!mlirOperationIsNull(res) &&
      mlirOpOperandIsNull(mlirValueGetFirstUse(mlirOperationGetResult(res, 0))))
    split_erase(res);
}

bool split_make_cont(struct split *sp, MlirSymbolTable table, size_t i,
                     MlirType result, intptr_t nargs, const MlirType *args,
                     MlirAttribute cconv) {
  struct coro_str n = split_cont_name(sp, i);
  struct ir_func_spec spec = {.name = coro_str_cstr(&n),
                              .result = result,
                              .nargs = nargs,
                              .args = args,
                              .linkage = MlirLLVMLinkageInternal};
  MlirOperation fn = ir_llvm_func(sp->module, &spec, true,
                                  ir_generated_loc(sp->loc, "resume"));
  coro_str_free(&n);
  split_inherit_attributes(sp, fn);
  if (!mlirAttributeIsNull(cconv))
    mlirOperationSetAttributeByName(fn, mlirStringRefCreateFromCString("CConv"),
                                    cconv);
  return split_clone_part(sp, table, fn, V_CONT, i);
}

/* NAME.resume.N for every suspension N, of the prototype's type and
 * calling convention. */
static bool retcon_make_parts(struct split *sp, MlirSymbolTable table) {
  intptr_t nargs = mlirLLVMFunctionTypeGetNumInputs(sp->retcon.cont_type);
  MlirType *args = ir_xmalloc((size_t)nargs * sizeof *args);
  for (intptr_t k = 0; k < nargs; ++k)
    args[k] = mlirLLVMFunctionTypeGetInput(sp->retcon.cont_type, k);
  MlirType rt = mlirLLVMFunctionTypeGetReturnType(sp->retcon.cont_type);
  MlirAttribute cconv = mlirOperationGetAttributeByName(
      sp->retcon.proto, mlirStringRefCreateFromCString("CConv"));
  bool ok = true;
  for (size_t i = 0; i < sp->shape.nsusp && ok; ++i) {
    ok = split_make_cont(sp, table, i,
                         ir_type_is_void(rt) ? (MlirType){NULL} : rt, nargs,
                         args, cconv);
  }
  free(args);
  return ok;
}

const struct split_abi split_abi_retcon = {
    .name = "retcon",
    .suspend_returns = true,
    .prepare = retcon_prepare,
    .check_names = split_conts_check_names,
    .make_parts = retcon_make_parts,
    .ramp_frame = retcon_ramp_frame,
    .clone_entry = retcon_clone_entry,
    .finish_entry = split_cont_finish_entry,
    .suspend = retcon_suspend,
    .begin = retcon_begin,
    .end = retcon_end,
};

/*===--- calls of the continuations -----------------------------------------*/

void split_continuations(MlirSymbolTable table, MlirStringRef coro,
                         struct ir_opvec *out) {
  for (size_t i = 0;; ++i) {
    struct coro_str n = name_of_cont(coro, i);
    MlirOperation fn =
        mlirSymbolTableLookup(table, mlirStringRefCreate(n.data, n.len));
    coro_str_free(&n);
    if (mlirOperationIsNull(fn))
      return;
    ir_opvec_push(out, fn);
  }
}

/* The calling convention of `op` (a call or a function) among those the
 * conversions use (C, fastcc, swifttailcc), or -1. */
static int cconv_of(MlirOperation op) {
  static const int known[] = {MlirLLVMCConvC, MlirLLVMCConvFast,
                              MlirLLVMCConvSwiftTail};
  MlirContext ctx = mlirOperationGetContext(op);
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("CConv"));
  if (mlirAttributeIsNull(a))
    return MlirLLVMCConvC;
  for (size_t i = 0; i < sizeof known / sizeof *known; ++i)
    if (mlirAttributeEqual(a, mlirLLVMCConvAttrGet(ctx, known[i])))
      return known[i];
  return -1;
}

/* The op before `op` in its block (null for the first). */
static MlirOperation op_before(MlirOperation op) {
  MlirOperation prev = {NULL};
  for (MlirOperation o = mlirBlockGetFirstOperation(mlirOperationGetBlock(op));
       !mlirOperationEqual(o, op); o = mlirOperationGetNextInBlock(o))
    prev = o;
  return prev;
}

/* The address of the function a direct call `call` calls, made before it;
 * null when `call` is no direct llvm.call. */
static MlirValue callee_address(MlirOperation call) {
  if (mlirOperationIsNull(call) || !coro_op_named(call, "llvm.call"))
    return (MlirValue){NULL};
  MlirAttribute callee = ir_callee_attr(call);
  if (mlirAttributeIsNull(callee) || !mlirAttributeIsAFlatSymbolRef(callee))
    return (MlirValue){NULL};
  struct ir_builder b = ir_before(call);
  return ir_addressof_ref(&b, mlirFlatSymbolRefAttrGetValue(callee));
}

/* The block of region `r` that holds `op`, at any depth (null when none). */
static MlirBlock block_in(MlirRegion r, MlirOperation op) {
  for (MlirBlock b = mlirOperationGetBlock(op); !mlirBlockIsNull(b);) {
    if (mlirRegionEqual(mlirBlockGetParentRegion(b), r))
      return b;
    MlirOperation parent = mlirBlockGetParentOperation(b);
    if (mlirOperationIsNull(parent))
      break;
    b = mlirOperationGetBlock(parent);
  }
  return (MlirBlock){NULL};
}

/* Whether what runs from `join` on (the blocks it reaches) reads `v`. */
static bool reached_reads(MlirBlock join, MlirValue v) {
  MlirRegion r = mlirBlockGetParentRegion(join);
  struct ir_ptrmap seen = {0};
  struct ir_blockvec work = {0};
  ir_reachable_blocks(join, &work, &seen);
  bool reads = false;
  for (MlirOpOperand u = mlirValueGetFirstUse(v);
       !reads && !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u)) {
    MlirBlock b = block_in(r, mlirOpOperandGetOwner(u));
    reads = !mlirBlockIsNull(b) && ir_ptrmap_find(&seen, b.ptr);
  }
  free(work.v);
  ir_ptrmap_free(&seen);
  return reads;
}

/* Through `b`: compares the continuation `f` with each of `conts` but the
 * last (which it then is: said to LLVM) and tail-calls the entered form of
 * the one it is on the task `h`:
 *   llvm.call fastcc musttail @"C.entered"(%h); llvm.return */
static void entered_chain(struct ir_builder *b, MlirValue f, MlirValue h,
                          const struct ir_opvec *conts,
                          const struct ir_opvec *entered) {
  MlirLocation loc = b->loc;
  for (size_t i = 0; i < conts->n; ++i) {
    MlirValue addr = ir_addressof_ref(b, ir_sym_name(conts->v[i]));
    MlirValue same = ir_icmp(b, IR_EQ, f, addr);
    struct ir_builder cb = *b;
    MlirBlock next = (MlirBlock){NULL};
    if (i + 1 < conts->n) {
      MlirBlock call = ir_block_after(b->block, 0, NULL, loc);
      next = ir_block_after(call, 0, NULL, loc);
      ir_cond_br(b, same, call, next);
      cb = ir_at_end(call, loc);
    } else {
      ir_assume(b, same);
    }
    ir_call_cc(&cb,
               mlirFlatSymbolRefAttrGet(b->ctx, ir_sym_name(entered->v[i])),
               MlirLLVMCConvFast, 2, 1, &h, (MlirType){NULL});
    ir_return(&cb, (MlirValue){NULL});
    if (!mlirBlockIsNull(next))
      *b = ir_at_end(next, loc);
  }
}

/* Replaces the indirect call `op` by a test of its callee against each of
 * `conts` but the last and a direct call of the one it is. When what
 * follows the call reads its result or its callee, it is copied after each
 * direct call (tail duplication), with the callee known there: LLVM
 * specializes each copy to what that continuation returns, so a resume
 * entry that ran a yield's continuation does not test for a handle to run
 * next that only an await names, and the settling that compares the
 * continuation a suspension returns with the one that ran (the retcon
 * conversion's NAME.coro.settle) stores nothing when they are the same
 * function. A tail that reads neither (a destroy entry's free and return,
 * an async resume entry's look at its handoff slot) is the same after
 * every call, and the direct calls share it. */
static void call_directly(MlirOperation op, const struct ir_opvec *conts,
                          const struct ir_opvec *entered, int cconv) {
  MlirLocation loc = mlirOperationGetLocation(op);
  /* an indirect call: the callee is operand 0, the arguments follow; a
   * call of the entered forms (CORO_ENTERED_ATTR): the task is operand 0,
   * the continuation operand 1, and the entered form takes the task */
  intptr_t at = entered ? 1 : 0;
  MlirBlock join = ir_split_after(op);
  bool result = mlirOperationGetNumResults(op) > 0;
  MlirType rt = {NULL};
  bool duplicate = false;
  if (result) {
    MlirValue old = mlirOperationGetResult(op, 0);
    rt = mlirValueGetType(old);
    duplicate = !mlirOpOperandIsNull(mlirValueGetFirstUse(old));
    mlirValueReplaceAllUsesOfWith(old, mlirBlockAddArgument(join, rt, loc));
  }
  MlirValue callee = mlirOperationGetOperand(op, at);
  duplicate = duplicate || reached_reads(join, callee);
  intptr_t nargs = entered ? 1 : mlirOperationGetNumOperands(op) - 1;
  MlirValue *args = ir_xmalloc((size_t)(nargs + 1) * sizeof *args);
  for (intptr_t k = 0; k < nargs; ++k)
    args[k] = mlirOperationGetOperand(op, entered ? 0 : k + 1);
  struct ir_builder b = ir_at_end(mlirOperationGetBlock(op), loc);
  mlirOperationRemoveFromParent(op);
  /* the callee is one of `conts` (the attribute says so): the last needs no
   * test */
  if (entered) {
    entered_chain(&b, callee, args[0], conts, entered);
    free(args);
    ir_erase_unreachable(mlirBlockGetParentRegion(join));
    mlirOperationDestroy(op);
    return;
  }
  struct ir_opvec tested = {conts->v, conts->n - 1, conts->n - 1};
  split_compare_chain(&b, callee, &tested, cconv, nargs, args, rt, join);
  MlirStringRef last = ir_sym_name(conts->v[conts->n - 1]);
  /* the callee is the last when it is none of the others: said to LLVM,
   * which then knows it inside the inlined continuation too (the tested
   * ones it knows from their branches) */
  ir_assume(&b, ir_icmp(&b, IR_EQ, callee, ir_addressof_ref(&b, last)));
  MlirValue v = ir_call_cc(&b, mlirFlatSymbolRefAttrGet(b.ctx, last), cconv, 0,
                           nargs, args, rt);
  free(args);
  ir_br(&b, join, result, &v);
  if (!duplicate) {
    mlirOperationDestroy(op);
    return;
  }
  /* every direct call's branch to `join` goes to a copy of it, where the
   * callee is that call's function */
  MlirRegion region = mlirBlockGetParentRegion(join);
  struct ir_opvec to_join = {0};
  for (MlirBlock k = mlirRegionGetFirstBlock(region); !mlirBlockIsNull(k);
       k = mlirBlockGetNextInRegion(k)) {
    MlirOperation t = mlirBlockGetTerminator(k);
    if (!mlirOperationIsNull(t) && mlirOperationGetNumSuccessors(t) == 1 &&
        mlirBlockEqual(mlirOperationGetSuccessor(t, 0), join))
      ir_opvec_push(&to_join, t);
  }
  for (size_t i = 0; i < to_join.n; ++i) {
    struct ir_map m = {0};
    MlirValue known = callee_address(op_before(to_join.v[i]));
    if (!mlirValueIsNull(known))
      ir_map_value(&m, callee, known);
    mlirOperationSetSuccessor(to_join.v[i], 0, ir_clone_reachable(join, &m));
    ir_map_free(&m);
    if (!mlirValueIsNull(known) &&
        mlirOpOperandIsNull(mlirValueGetFirstUse(known)))
      mlirOperationDestroy(mlirOpResultGetOwner(known));
  }
  free(to_join.v);
  /* the original, reached by no branch now */
  ir_erase_unreachable(region);
  mlirOperationDestroy(op);
}

/* A retcon coroutine's continuation addresses serve as its state: its
 * parts return them, the retcon conversion's control block keeps them and
 * its marked calls (now compare chains) test them. When the ramp says
 * that nothing else reads them (CORO_CONTINUATION_STATE_ATTR) and every
 * marked call of the coroutine is direct, nothing calls one through its
 * address, and a number does the same work: continuation k becomes
 * inttoptr(k + 1) (null stays the end). LLVM then sees no address taken,
 * and drops each continuation once it has inlined it everywhere, where an
 * address kept every one alive beside its inlined copies. The
 * continuations are this pass's own, so their only addresses are those
 * the parts and the compare chains make: `fns` lists where they are (each
 * once). */
struct state_numbers {
  MlirSymbolTable table;
  const struct ir_ptrmap *number; /* continuation -> k + 1 */
  struct ir_opvec found;          /* addresses of continuations */
  uintptr_t *k;                   /* and each one's number */
  size_t cap;
};

static MlirWalkResult find_continuation_address(MlirOperation op, void *user) {
  struct state_numbers *s = user;
  if (mlirOperationGetNumResults(op) != 1)
    return MlirWalkResultAdvance;
  MlirOperation fn = ir_llvm_func_of(s->table, mlirOperationGetResult(op, 0));
  uintptr_t k = mlirOperationIsNull(fn)
                    ? 0
                    : (uintptr_t)ir_ptrmap_find(s->number, fn.ptr);
  if (!k)
    return MlirWalkResultAdvance;
  if (s->found.n == s->cap) {
    s->cap = s->cap ? 2 * s->cap : 16;
    s->k = ir_xrealloc(s->k, s->cap * sizeof *s->k);
  }
  s->k[s->found.n] = k;
  ir_opvec_push(&s->found, op);
  return MlirWalkResultAdvance;
}

/* The functions whose continuation addresses become numbers, one by one
 * on MLIR's threads (a function's rewrite changes it alone). */
struct numbering {
  MlirSymbolTable table;
  const struct ir_ptrmap *number;
  const struct ir_opvec *fns;
  struct split_cache_pool caches;
};

static void number_in(size_t i, void *user) {
  struct numbering *n = user;
  struct ir_op_cache *cache = split_cache_take(&n->caches);
  struct state_numbers s = {.table = n->table, .number = n->number};
  mlirOperationWalk(n->fns->v[i], find_continuation_address, &s,
                    MlirWalkPreOrder);
  for (size_t j = 0; j < s.found.n; ++j) {
    MlirOperation op = s.found.v[j];
    struct ir_builder b = ir_before(op);
    MlirValue c = ir_const_int(&b, 64, (long long)s.k[j]);
    MlirValue old = mlirOperationGetResult(op, 0);
    MlirValue v = ir_val(&b, "llvm.inttoptr", 1, &c, mlirValueGetType(old));
    mlirValueReplaceAllUsesOfWith(old, v);
    mlirOperationDestroy(op);
  }
  free(s.found.v);
  free(s.k);
  split_cache_give(&n->caches, cache);
}

static void number_continuations(MlirContext ctx, MlirSymbolTable table,
                                 const struct ir_ptrmap *number,
                                 const struct ir_opvec *fns) {
  struct numbering n = {.table = table, .number = number, .fns = fns};
  split_cache_pool_init(&n.caches, ctx, fns->n);
  ir_parallel_for(ctx, fns->n, number_in, &n);
  split_cache_pool_free(&n.caches);
}

/* The function `op` is in. */
static MlirOperation enclosing_func(MlirOperation op) {
  MlirOperation fn = mlirOperationGetParentOperation(op);
  while (!mlirOperationIsNull(fn) && !coro_op_named(fn, "llvm.func"))
    fn = mlirOperationGetParentOperation(fn);
  return fn;
}

/* A marked call that becomes direct: its continuations (`at`..`at` + `n`
 * of all of them), its calling convention and whether it calls their
 * entered forms (at the same places of those). */
struct direct_call {
  MlirOperation op;
  size_t at, n;
  int cc;
  bool entered;
};

/* The entered form of the async continuation `cont` (CORO_ENTERED_ATTR):
 * a fastcc copy NAME.entered, which a resume entry tail-calls, in which
 * each tail call of a dispatch function D is a call of D's entered form E:
 * a tail call when E has the copy's prototype (it runs what D left
 * itself), else a call, followed, when E returns a handle, by a tail call
 * of that handle's resume entry when it is not null. Null when `cont` is
 * not a swifttailcc function of one pointer, or calls a function with an
 * entered form other than as its tail call, or tail-calls one without
 * (`made` remembers each answer: the copy, or 1 for none). */
static MlirOperation entered_form(MlirSymbolTable table, MlirOperation cont,
                                  struct ir_ptrmap *made) {
  void *known = ir_ptrmap_find(made, cont.ptr);
  if (known)
    return known == (void *)1 ? (MlirOperation){NULL} : (MlirOperation){known};
  ir_ptrmap_put(made, cont.ptr, (void *)1);
  MlirContext ctx = mlirOperationGetContext(cont);
  MlirType t = ir_func_type(cont), ptr = ir_ptr_type(ctx);
  MlirType void_type = mlirLLVMVoidTypeGet(ctx);
  if (cconv_of(cont) != MlirLLVMCConvSwiftTail ||
      mlirLLVMFunctionTypeGetNumInputs(t) != 1 ||
      !mlirTypeIsALLVMPointerType(mlirLLVMFunctionTypeGetInput(t, 0)) ||
      !mlirTypeEqual(mlirLLVMFunctionTypeGetReturnType(t), void_type))
    return (MlirOperation){NULL};
  MlirOperation copy = mlirOperationClone(cont);
  MlirStringRef tail_key = mlirStringRefCreateFromCString("TailCallKind");
  MlirAttribute musttail = mlirAttributeParseGet(
      ctx, mlirStringRefCreateFromCString("#llvm.tailcallkind<musttail>"));
  /* the tail calls to rewrite, each with its entered form */
  struct ir_opvec calls = {0}, forms = {0};
  bool ok = true;
  for (struct ir_op_walk w = ir_op_walk_start(mlirOperationGetRegion(copy, 0));
       ok && ir_op_walk_next(&w);) {
    if (!coro_op_named(w.op, "llvm.call"))
      continue;
    MlirAttribute kind = mlirOperationGetAttributeByName(w.op, tail_key);
    bool tail =
        !mlirAttributeIsNull(kind) && mlirAttributeEqual(kind, musttail);
    MlirAttribute callee = ir_callee_attr(w.op);
    MlirOperation d = mlirAttributeIsNull(callee)
                          ? (MlirOperation){NULL}
                          : mlirSymbolTableLookup(
                                table, mlirFlatSymbolRefAttrGetValue(callee));
    MlirAttribute e =
        mlirOperationIsNull(d)
            ? (MlirAttribute){NULL}
            : mlirOperationGetDiscardableAttributeByName(
                  d, mlirStringRefCreateFromCString(CORO_ENTERED_ATTR));
    if (mlirAttributeIsNull(e)) {
      ok = !tail; /* a tail call of what has no entered form */
      continue;
    }
    MlirOperation ef =
        mlirAttributeIsAFlatSymbolRef(e)
            ? mlirSymbolTableLookup(table, mlirFlatSymbolRefAttrGetValue(e))
            : (MlirOperation){NULL};
    MlirType rt = mlirOperationIsNull(ef) || !coro_op_named(ef, "llvm.func")
                      ? (MlirType){NULL}
                      : mlirLLVMFunctionTypeGetReturnType(ir_func_type(ef));
    MlirOperation next = mlirOperationGetNextInBlock(w.op);
    ok = tail && !mlirTypeIsNull(rt) && cconv_of(ef) == MlirLLVMCConvFast &&
         (mlirTypeEqual(rt, ptr) || mlirTypeEqual(rt, void_type)) &&
         !mlirOperationIsNull(next) && coro_op_named(next, "llvm.return");
    ir_opvec_push(&calls, w.op);
    ir_opvec_push(&forms, ef);
  }
  for (size_t i = 0; ok && i < calls.n; ++i) {
    MlirOperation call = calls.v[i];
    struct ir_builder b = ir_before(call);
    intptr_t n = mlirOperationGetNumOperands(call);
    MlirValue *args = ir_xmalloc((size_t)(n + 1) * sizeof *args);
    for (intptr_t k = 0; k < n; ++k)
      args[k] = mlirOperationGetOperand(call, k);
    MlirType et = ir_func_type(forms.v[i]);
    bool handle = mlirTypeEqual(mlirLLVMFunctionTypeGetReturnType(et), ptr);
    /* the copy's prototype: fastcc void(ptr) */
    bool same = !handle && n == 1 &&
                mlirTypeIsALLVMPointerType(mlirLLVMFunctionTypeGetInput(et, 0));
    MlirValue r =
        ir_call_cc(&b, mlirFlatSymbolRefAttrGet(ctx, ir_sym_name(forms.v[i])),
                   MlirLLVMCConvFast, same ? 2 : 0, n, args,
                   handle ? ptr : (MlirType){NULL});
    free(args);
    if (handle) {
      /* a handle to run next: its resume entry (CORO_HANDLE_RESUME_OFFSET,
       * 0), tail-called; none: the return */
      MlirBlock ret = ir_split_after(call);
      MlirBlock run = ir_block_after(ret, 0, NULL, b.loc);
      ir_cond_br(&b, ir_icmp(&b, IR_EQ, r, ir_null(&b)), ret, run);
      struct ir_builder rb = ir_at_end(run, b.loc);
      ir_call_indirect(&rb, ir_load(&rb, r, ptr, 0), MlirLLVMCConvFast, 2, 1,
                       &r, (MlirType){NULL});
      ir_return(&rb, (MlirValue){NULL});
    }
    mlirOperationDestroy(call);
  }
  free(calls.v);
  free(forms.v);
  if (!ok) {
    mlirOperationDestroy(copy);
    return (MlirOperation){NULL};
  }
  MlirStringRef name = ir_sym_name(cont);
  struct coro_str n = {0};
  coro_str_append(&n, name.data, name.length);
  coro_str_appendz(&n, ".entered");
  mlirOperationSetAttributeByName(
      copy, mlirStringRefCreateFromCString("sym_name"),
      mlirStringAttrGet(ctx, mlirStringRefCreate(n.data, n.len)));
  coro_str_free(&n);
  mlirOperationSetAttributeByName(copy, mlirStringRefCreateFromCString("CConv"),
                                  mlirLLVMCConvAttrGet(ctx, MlirLLVMCConvFast));
  mlirOperationSetAttributeByName(
      copy, mlirStringRefCreateFromCString("linkage"),
      mlirLLVMLinkageAttrGet(ctx, MlirLLVMLinkageInternal));
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(cont), cont, copy);
  mlirSymbolTableInsert(table, copy); /* renamed if the name is taken */
  /* with debug info, a subprogram of its own (LLVM allows one a function) */
  MlirAttribute sp = frame_debug_subprogram(cont);
  if (!mlirAttributeIsNull(sp))
    frame_debug_attach(copy, sp, (MlirAttribute){NULL});
  ir_ptrmap_put(made, cont.ptr, copy.ptr);
  return copy;
}

/* The direct calls of each function, made on MLIR's threads: a function's
 * calls are rewritten in order by one thread, and a rewrite changes only
 * its function (the continuations are only named). */
struct direct_calls {
  const struct direct_call *call;
  const size_t *start; /* function i's calls: call[start[i] .. start[i+1]) */
  const MlirOperation *conts;
  const MlirOperation *entered; /* their entered forms, where called */
  struct split_cache_pool caches;
};

static void direct_calls_of(size_t i, void *user) {
  struct direct_calls *d = user;
  struct ir_op_cache *cache = split_cache_take(&d->caches);
  for (size_t k = d->start[i]; k < d->start[i + 1]; ++k) {
    const struct direct_call *c = &d->call[k];
    struct ir_opvec conts = {(MlirOperation *)d->conts + c->at, c->n, c->n};
    struct ir_opvec entered = {(MlirOperation *)d->entered + c->at, c->n, c->n};
    call_directly(c->op, &conts, c->entered ? &entered : NULL, c->cc);
  }
  split_cache_give(&d->caches, cache);
}

void split_direct_continuation_calls(MlirOperation module,
                                     MlirSymbolTable table,
                                     struct split_leftovers *left,
                                     const struct ir_ptrmap *retcon) {
  struct ir_opvec conts = {0}, all_conts = {0}, all_entered = {0};
  struct ir_ptrmap made = {0}; /* entered forms */
  const struct ir_opvec calls = left->marked;
  MlirStringRef key = mlirStringRefCreateFromCString(CORO_CONTINUATION_OF_ATTR);
  /* the device has no indirect call: every continuation is tested */
  bool device = coro_module_is_device(module);
  /* each retcon coroutine with marked calls: 1 while all are direct, 2
   * once one is not; the functions whose calls became direct (`seen`
   * gives each one's place in `where`, plus one), and those calls with
   * the place of their function */
  struct ir_ptrmap state = {0}, seen = {0};
  struct ir_opvec ramps = {0}, where = {0};
  struct direct_call *direct_calls =
      ir_xmalloc((calls.n ? calls.n : 1) * sizeof *direct_calls);
  size_t *fn_of = ir_xmalloc((calls.n ? calls.n : 1) * sizeof *fn_of);
  size_t ndirect = 0;
  for (size_t i = 0; i < calls.n; ++i) {
    MlirOperation op = calls.v[i];
    MlirAttribute ramp = mlirOperationGetAttributeByName(op, key);
    mlirOperationRemoveAttributeByName(op, key);
    conts.n = 0;
    MlirOperation body = {NULL};
    if (mlirAttributeIsAFlatSymbolRef(ramp)) {
      MlirStringRef name = mlirFlatSymbolRefAttrGetValue(ramp);
      split_continuations(table, name, &conts);
      body = mlirSymbolTableLookup(table, name);
    }
    /* an indirect call (its callee is operand 0), of continuations called
     * the way it calls; or a direct one of two operands (the task and the
     * continuation), in fastcc as the entered forms are */
    int cc = cconv_of(op);
    bool entered = !mlirAttributeIsNull(ir_callee_attr(op));
    bool direct = conts.n && (device || conts.n <= CORO_DIRECT_CONTINUATIONS) &&
                  cc >= 0 &&
                  (!entered || (cc == MlirLLVMCConvFast &&
                                mlirOperationGetNumOperands(op) == 2));
    size_t first = all_entered.n;
    for (size_t k = 0; direct && k < conts.n; ++k) {
      if (!entered) {
        direct = cconv_of(conts.v[k]) == cc;
        continue;
      }
      MlirOperation e = entered_form(table, conts.v[k], &made);
      direct = !mlirOperationIsNull(e);
      if (direct)
        ir_opvec_push(&all_entered, e);
    }
    MlirOperation fn = enclosing_func(op);
    if (!mlirOperationIsNull(body) && ir_ptrmap_find(retcon, body.ptr)) {
      uintptr_t was = (uintptr_t)ir_ptrmap_find(&state, body.ptr);
      if (!was)
        ir_opvec_push(&ramps, body);
      ir_ptrmap_put(&state, body.ptr,
                    (void *)(uintptr_t)(direct && was != 2 ? 1 : 2));
    }
    if (direct) {
      ir_ptrmap_put(&left->changed, fn.ptr, (void *)1);
      uintptr_t place = (uintptr_t)ir_ptrmap_find(&seen, fn.ptr);
      if (!place) {
        ir_opvec_push(&where, fn);
        place = where.n;
        ir_ptrmap_put(&seen, fn.ptr, (void *)place);
      }
      direct_calls[ndirect] = (struct direct_call){.op = op,
                                                   .at = all_conts.n,
                                                   .n = conts.n,
                                                   .cc = cc,
                                                   .entered = entered};
      fn_of[ndirect++] = place - 1;
      for (size_t k = 0; k < conts.n; ++k) {
        ir_opvec_push(&all_conts, conts.v[k]);
        if (!entered) /* kept in step with all_conts */
          ir_opvec_push(&all_entered, conts.v[k]);
      }
    } else {
      all_entered.n = first; /* those of a call that stays */
    }
  }
  ir_ptrmap_free(&made);
  /* the direct calls grouped by function, each function's in order */
  size_t nfn = where.n;
  size_t *start = ir_xcalloc(nfn + 2, sizeof *start);
  for (size_t k = 0; k < ndirect; ++k)
    ++start[fn_of[k] + 2];
  for (size_t i = 2; i < nfn + 2; ++i)
    start[i] += start[i - 1];
  struct direct_call *grouped =
      ir_xmalloc((ndirect ? ndirect : 1) * sizeof *grouped);
  for (size_t k = 0; k < ndirect; ++k)
    grouped[start[fn_of[k] + 1]++] = direct_calls[k];
  struct direct_calls d = {.call = grouped,
                           .start = start,
                           .conts = all_conts.v,
                           .entered = all_entered.v};
  MlirContext ctx = mlirOperationGetContext(module);
  split_cache_pool_init(&d.caches, ctx, nfn);
  ir_parallel_for(ctx, nfn, direct_calls_of, &d);
  split_cache_pool_free(&d.caches);
  free(grouped);
  free(start);
  free(fn_of);
  free(direct_calls);
  free(all_conts.v);
  free(all_entered.v);
  struct ir_ptrmap number = {0};
  for (size_t i = 0; i < ramps.n; ++i) {
    if ((uintptr_t)ir_ptrmap_find(&state, ramps.v[i].ptr) != 1)
      continue;
    conts.n = 0;
    split_continuations(table, ir_sym_name(ramps.v[i]), &conts);
    for (size_t k = 0; k < conts.n; ++k) {
      ir_ptrmap_put(&number, conts.v[k].ptr, (void *)(uintptr_t)(k + 1));
      if (!ir_ptrmap_find(&seen, conts.v[k].ptr)) {
        ir_ptrmap_put(&seen, conts.v[k].ptr, (void *)1);
        ir_opvec_push(&where, conts.v[k]);
      }
    }
    if (!ir_ptrmap_find(&seen, ramps.v[i].ptr)) {
      ir_ptrmap_put(&seen, ramps.v[i].ptr, (void *)1);
      ir_opvec_push(&where, ramps.v[i]);
    }
  }
  if (number.n)
    number_continuations(ctx, table, &number, &where);
  ir_ptrmap_free(&number);
  ir_ptrmap_free(&state);
  ir_ptrmap_free(&seen);
  free(ramps.v);
  free(where.v);
  free(conts.v);
}
