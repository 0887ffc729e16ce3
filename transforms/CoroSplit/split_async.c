/* split_async.c - --coro-split for the async ABI (llvm.coro.id.async), the
 * split_abi entry split_abi_async.
 *
 * What LLVM's CoroSplit makes of such a coroutine, made here:
 *   - the frame lives in the async context the coroutine is given (its
 *     argument at the id's context index), after the context header: at
 *     the header's size aligned to the frame's alignment. The async
 *     function pointer record's context size (its member 1) becomes that
 *     offset plus the frame's size, aligned to the context's alignment, so
 *     a caller allocates a context the frame fits in;
 *   - the ramp, under the original name, runs to its first suspension;
 *   - each llvm.coro.suspend.async N ends its part in a must-tail call of
 *     its must-tail function (with the suspension's arguments) and a
 *     return; llvm.coro.async.resume, the suspension's resume function,
 *     is the address of continuation N;
 *   - continuation N, NAME.resume.N, takes the members of suspension N's
 *     result (a struct) as parameters, with the coroutine's calling
 *     convention: it finds its context by calling the suspension's
 *     projection function on the parameter at the suspension's context
 *     index, reloads what N keeps, and goes on with the parameters as the
 *     suspension's result;
 *   - llvm.coro.end.async ends in a must-tail call of its function (when
 *     it names one) and a return.
 * The context is never kept in the frame: each continuation projects it.
 * llvm.coro.async.size.replace, anywhere in the module, copies one
 * record's context size into another once every coroutine is split. */
#include "transforms/CoroSplit/split_internal.h"

#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

/*===--- the async function pointer record ----------------------------------*/

/* The llvm.return ending the initializer region of `global`, when it
 * returns one value; else null. */
static MlirOperation initializer_return(MlirOperation global) {
  MlirRegion r = mlirOperationGetRegion(global, 0);
  MlirBlock b =
      mlirRegionIsNull(r) ? (MlirBlock){NULL} : mlirRegionGetFirstBlock(r);
  MlirOperation ret =
      mlirBlockIsNull(b) ? (MlirOperation){NULL} : mlirBlockGetTerminator(b);
  return !mlirOperationIsNull(ret) && mlirOperationGetNumOperands(ret) == 1
             ? ret
             : (MlirOperation){NULL};
}

/* The llvm.insertvalue that sets member 1 (the context size) of the
 * record `global`'s initializer, or null. */
static MlirOperation size_insert(MlirOperation global) {
  MlirOperation ret = initializer_return(global);
  return mlirOperationIsNull(ret)
             ? ret
             : ir_insert_of(mlirOperationGetOperand(ret, 0), 1, NULL);
}

/* When no llvm.insertvalue of `global`'s initializer sets member 1 and the
 * initializer starts from a zero, undef or poison struct (LLVM's
 * `zeroinitializer` comes back from LLVM IR as llvm.mlir.zero), sets it to
 * 0 with one, so that the split has a member to write the size into. */
static void ensure_size_insert(MlirOperation global) {
  MlirOperation ret = initializer_return(global);
  if (mlirOperationIsNull(ret))
    return;
  MlirValue v = mlirOperationGetOperand(ret, 0), root;
  MlirType t = mlirValueGetType(v);
  if (!mlirOperationIsNull(ir_insert_of(v, 1, &root)) ||
      !mlirValueIsAOpResult(root) || !mlirTypeIsALLVMStructType(t) ||
      mlirLLVMStructTypeGetNumElementTypes(t) < 2 ||
      !mlirTypeIsAInteger(mlirLLVMStructTypeGetElementType(t, 1)))
    return;
  MlirOperation def = mlirOpResultGetOwner(root);
  if (!coro_op_named(def, "llvm.mlir.zero") &&
      !coro_op_named(def, "llvm.mlir.undef") &&
      !coro_op_named(def, "llvm.mlir.poison"))
    return;
  struct ir_builder at = ir_before(ret);
  MlirValue zero = ir_const_int(
      &at, mlirIntegerTypeGetWidth(mlirLLVMStructTypeGetElementType(t, 1)), 0);
  mlirOperationSetOperand(ret, 0, ir_insertvalue(&at, v, zero, 1));
}

/* The record `v` is the address of: an llvm.mlir.global of the module
 * whose type is a struct with an integer member 1, set by an
 * llvm.insertvalue of its initializer; null after an error at `user`. */
static MlirOperation record_of(MlirSymbolTable table, MlirValue v,
                               MlirOperation user) {
  MlirAttribute a = ir_symbol_addressed(v);
  MlirOperation g =
      mlirAttributeIsNull(a)
          ? (MlirOperation){NULL}
          : mlirSymbolTableLookup(table, mlirFlatSymbolRefAttrGetValue(a));
  bool ok = !mlirOperationIsNull(g) && coro_op_named(g, "llvm.mlir.global");
  if (ok) {
    ensure_size_insert(g);
    MlirType t = mlirTypeAttrGetValue(mlirOperationGetAttributeByName(
        g, mlirStringRefCreateFromCString("global_type")));
    ok = mlirTypeIsALLVMStructType(t) &&
         mlirLLVMStructTypeGetNumElementTypes(t) >= 2 &&
         mlirTypeIsAInteger(mlirLLVMStructTypeGetElementType(t, 1)) &&
         !mlirOperationIsNull(size_insert(g));
  }
  if (!ok) {
    ir_emit_error(user,
                  "the async function pointer record must be the address of "
                  "an llvm.mlir.global of the module, a struct whose member 1 "
                  "(the context size) its initializer sets with "
                  "llvm.insertvalue");
    return (MlirOperation){NULL};
  }
  return g;
}

/* Sets the record's context size to `size`. */
static void set_context_size_to(MlirOperation global, uint64_t size) {
  MlirOperation ins = size_insert(global);
  MlirValue old = mlirOperationGetOperand(ins, 1);
  struct ir_builder b = ir_before(ins);
  MlirValue v = ir_const_int(&b, mlirIntegerTypeGetWidth(mlirValueGetType(old)),
                             (long long)size);
  mlirOperationSetOperand(ins, 1, v);
  MlirOperation def = mlirValueIsAOpResult(old) ? mlirOpResultGetOwner(old)
                                                : (MlirOperation){NULL};
  if (!mlirOperationIsNull(def) &&
      mlirOpOperandIsNull(mlirValueGetFirstUse(old)))
    split_erase(def);
}

/*===--- checks -------------------------------------------------------------*/

/* The calling convention of the llvm.func `fn` (ccc: null). */
static MlirAttribute cconv_of(MlirOperation fn) {
  MlirAttribute cc = mlirOperationGetAttributeByName(
      fn, mlirStringRefCreateFromCString("CConv"));
  MlirContext ctx = mlirOperationGetContext(fn);
  return mlirAttributeIsNull(cc) ||
                 mlirAttributeEqual(cc, mlirLLVMCConvAttrGet(ctx, 0))
             ? (MlirAttribute){NULL}
             : cc;
}

/* Whether LLVM can make a call of `callee` from a function of calling
 * convention `a` (null: ccc) and type `caller` musttail: the same calling
 * convention, and the same prototype unless that convention is tailcc or
 * swifttailcc (which guarantee tail calls between any prototypes). */
static bool can_musttail(MlirContext ctx, MlirAttribute a, MlirType caller,
                         MlirOperation callee) {
  MlirAttribute b = cconv_of(callee);
  if (mlirAttributeIsNull(a) != mlirAttributeIsNull(b) ||
      (!mlirAttributeIsNull(a) && !mlirAttributeEqual(a, b)))
    return false;
  if (!mlirAttributeIsNull(a) &&
      (mlirAttributeEqual(a, mlirLLVMCConvAttrGet(ctx, MlirLLVMCConvTail)) ||
       mlirAttributeEqual(a,
                          mlirLLVMCConvAttrGet(ctx, MlirLLVMCConvSwiftTail))))
    return true;
  return mlirTypeEqual(caller, ir_func_type(callee));
}

/* The parameters of continuation `i` of `sp`: the members of suspension
 * i's result (owned; *n of them). */
static MlirType *cont_params(const struct split *sp, size_t i, intptr_t *n) {
  MlirType st =
      mlirValueGetType(mlirOperationGetResult(sp->shape.susp[i].suspend, 0));
  *n = mlirLLVMStructTypeGetNumElementTypes(st);
  MlirType *args = ir_xmalloc((size_t)(*n + 1) * sizeof *args);
  for (intptr_t k = 0; k < *n; ++k)
    args[k] = mlirLLVMStructTypeGetElementType(st, k);
  return args;
}

/* Whether every part of the coroutine `sp` can call `callee` musttail:
 * the ramp, and each continuation, void(the members of its suspension's
 * result) in the coroutine's calling convention. */
static bool parts_can_musttail(const struct split *sp, MlirOperation callee) {
  MlirContext ctx = mlirOperationGetContext(sp->func);
  MlirAttribute cc = cconv_of(sp->func);
  bool ok = can_musttail(ctx, cc, ir_func_type(sp->func), callee);
  for (size_t i = 0; ok && i < sp->shape.nsusp; ++i) {
    intptr_t n;
    MlirType *args = cont_params(sp, i, &n);
    ok = can_musttail(ctx, cc,
                      ir_llvm_func_type(ctx, (MlirType){NULL}, n, args, false),
                      callee);
    free(args);
  }
  return ok;
}

/* Whether `fn` is a function of one block ending in a return of nothing,
 * which inline_single_block can put in a call's place. */
static bool single_block(MlirOperation fn) {
  MlirRegion body = mlirOperationGetRegion(fn, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(body);
  if (mlirBlockIsNull(entry) ||
      !mlirBlockIsNull(mlirBlockGetNextInRegion(entry)))
    return false;
  MlirOperation ret = mlirBlockGetTerminator(entry);
  return !mlirOperationIsNull(ret) && coro_op_named(ret, "llvm.return") &&
         mlirOperationGetNumOperands(ret) == 0;
}

/* The ops of the single_block function `fn` but its return, copied before
 * `at` with `args` (as many as its arguments) for its arguments: LLVM's
 * CoroSplit inlines every must-tail function so. */
static void inline_single_block(MlirOperation fn, intptr_t n,
                                const MlirValue *args, MlirOperation at) {
  MlirBlock entry = mlirRegionGetFirstBlock(mlirOperationGetRegion(fn, 0));
  MlirOperation ret = mlirBlockGetTerminator(entry);
  assert(mlirBlockGetNumArguments(entry) == n && "checked: check_tail_call");
  struct ir_map m = {0};
  for (intptr_t k = 0; k < n; ++k)
    ir_map_value(&m, mlirBlockGetArgument(entry, k), args[k]);
  MlirBlock block = mlirOperationGetBlock(at);
  for (MlirOperation op = mlirBlockGetFirstOperation(entry);
       !mlirOperationEqual(op, ret); op = mlirOperationGetNextInBlock(op))
    ir_clone_op(op, &m, block, at);
  ir_map_free(&m);
}

/* The function a must-tail call goes to takes exactly `args`' types. */
static bool check_tail_call(const struct split *sp, MlirSymbolTable table,
                            MlirOperation op, intptr_t first,
                            const char *what) {
  char buf[400];
  MlirOperation fn = ir_llvm_func_of(table, mlirOperationGetOperand(op, first));
  if (mlirOperationIsNull(fn)) {
    snprintf(buf, sizeof buf,
             "the must-tail function of %s must be the address of an "
             "llvm.func of the module",
             what);
    ir_emit_error(op, buf);
    return false;
  }
  MlirType t = ir_func_type(fn);
  intptr_t n = mlirOperationGetNumOperands(op) - first - 1;
  bool ok = mlirLLVMFunctionTypeGetNumInputs(t) == n &&
            ir_type_is_void(mlirLLVMFunctionTypeGetReturnType(t));
  for (intptr_t i = 0; ok && i < n; ++i)
    ok = mlirTypeEqual(
        mlirLLVMFunctionTypeGetInput(t, i),
        mlirValueGetType(mlirOperationGetOperand(op, first + 1 + i)));
  if (!ok) {
    snprintf(buf, sizeof buf,
             "the must-tail function of %s returns nothing and takes the "
             "arguments after it, of their types (%ld)",
             what, (long)n);
    ir_emit_error(op, buf);
  } else if (!single_block(fn) && !parts_can_musttail(sp, fn)) {
    snprintf(buf, sizeof buf,
             "the must-tail function of %s cannot be called musttail from "
             "the coroutine's parts (another calling convention, or another "
             "prototype than theirs and neither tailcc nor swifttailcc), nor "
             "put in the call's place (it has more than one block)",
             what);
    ir_emit_error(op, buf);
    ok = false;
  }
  return ok;
}

static bool check_suspension(const struct split *sp, MlirSymbolTable table,
                             MlirOperation op) {
  int64_t index;
  if (mlirOperationGetNumOperands(op) < 4 ||
      !ir_const_int_value(mlirOperationGetOperand(op, 0), &index)) {
    ir_emit_error(op,
                  "llvm.coro.suspend.async takes the constant index of the "
                  "context among the resume function's parameters, the resume "
                  "function (llvm.coro.async.resume), the context projection "
                  "function, the must-tail function and its arguments");
    return false;
  }
  MlirValue resume = mlirOperationGetOperand(op, 1);
  if (!mlirValueIsAOpResult(resume) ||
      coro_intr_classify(mlirOpResultGetOwner(resume)) != CI_ASYNC_RESUME) {
    ir_emit_error(op,
                  "the resume function of llvm.coro.suspend.async must be the "
                  "result of llvm.coro.async.resume");
    return false;
  }
  MlirOperation proj = ir_llvm_func_of(table, mlirOperationGetOperand(op, 2));
  MlirType pt =
      mlirOperationIsNull(proj) ? (MlirType){NULL} : ir_func_type(proj);
  if (mlirTypeIsNull(pt) || mlirLLVMFunctionTypeGetNumInputs(pt) != 1 ||
      !mlirTypeIsALLVMPointerType(mlirLLVMFunctionTypeGetInput(pt, 0)) ||
      !mlirTypeIsALLVMPointerType(mlirLLVMFunctionTypeGetReturnType(pt))) {
    ir_emit_error(
        op, "the context projection function of llvm.coro.suspend.async "
            "must be the address of an llvm.func of the module taking one "
            "ptr and returning a ptr");
    return false;
  }
  MlirType rt = mlirOperationGetNumResults(op) == 1
                    ? mlirValueGetType(mlirOperationGetResult(op, 0))
                    : (MlirType){NULL};
  if (mlirTypeIsNull(rt) || !mlirTypeIsALLVMStructType(rt) || index < 0 ||
      index >= mlirLLVMStructTypeGetNumElementTypes(rt) ||
      !mlirTypeIsALLVMPointerType(
          mlirLLVMStructTypeGetElementType(rt, index))) {
    ir_emit_error(
        op, "llvm.coro.suspend.async returns the resume function's "
            "parameters as a struct, whose member at the context index is "
            "a ptr");
    return false;
  }
  return check_tail_call(sp, table, op, 3, "llvm.coro.suspend.async");
}

static bool async_prepare(struct split *sp, MlirSymbolTable table) {
  MlirOperation id = sp->shape.id;
  MlirOperation record = record_of(table, mlirOperationGetOperand(id, 3), id);
  if (mlirOperationIsNull(record))
    return false;
  if (!ir_type_is_void(
          mlirLLVMFunctionTypeGetReturnType(ir_func_type(sp->func)))) {
    ir_emit_error(sp->func,
                  "an async coroutine returns nothing: its parts end in "
                  "tail calls");
    return false;
  }
  for (size_t i = 0; i < sp->shape.nsusp; ++i)
    if (!check_suspension(sp, table, sp->shape.susp[i].suspend))
      return false;
  for (size_t i = 0; i < sp->shape.nintr; ++i) {
    MlirOperation op = sp->shape.intr[i].op;
    if (sp->shape.intr[i].kind == CI_END_ASYNC &&
        mlirOperationGetNumOperands(op) > 2 &&
        !check_tail_call(sp, table, op, 2, "llvm.coro.end.async"))
      return false;
  }
  uint64_t ctx_align = (uint64_t)sp->shape.buffer_align;
  sp->async.frame_offset =
      ir_align_to((uint64_t)sp->shape.buffer_size, sp->layout.align);
  set_context_size_to(
      record, ir_align_to(sp->async.frame_offset + sp->layout.size, ctx_align));
  return true;
}

/*===--- the variants -------------------------------------------------------*/

static void async_ramp_frame(struct variant_state *vs) {
  struct ir_builder b = ir_before(vs->shape.begin);
  vs->frame =
      ir_gep_bytes(&b, vs->shape.storage, (int)vs->sp->async.frame_offset);
}

/* The struct suspension `i` returns. */
static MlirType suspend_struct(const struct variant_state *vs, size_t i) {
  return mlirValueGetType(mlirOperationGetResult(vs->shape.susp[i].suspend, 0));
}

/* A continuation is entered with the members of its suspension's result;
 * its context is the projection of the one at the context index, and
 * stands for the storage wherever the body used it. */
static void async_clone_entry(struct variant_state *vs) {
  struct split *sp = vs->sp;
  MlirOperation susp = vs->shape.susp[vs->cont].suspend;
  MlirType st = suspend_struct(vs, vs->cont);
  intptr_t n = mlirLLVMStructTypeGetNumElementTypes(st);
  MlirType *types = ir_xmalloc((size_t)(n + 1) * sizeof *types);
  for (intptr_t i = 0; i < n; ++i)
    types[i] = mlirLLVMStructTypeGetElementType(st, i);
  split_entry_block(vs, n, types);
  free(types);
  int64_t index = 0;
  ir_const_int_value(mlirOperationGetOperand(susp, 0), &index);
  MlirOperation proj =
      ir_llvm_func_of(sp->table, mlirOperationGetOperand(susp, 2));
  struct ir_builder b = ir_at_end(vs->dispatch, sp->loc);
  MlirValue arg = mlirBlockGetArgument(vs->dispatch, index);
  MlirValue ctx = ir_call_func(&b, proj, 0, 1, &arg);
  mlirValueReplaceAllUsesOfWith(vs->shape.storage, ctx);
  vs->frame = ir_gep_bytes(&b, ctx, (int)sp->async.frame_offset);
}

/* The landing of the continuation after suspension `i`: reloads, then the
 * suspension's result made of the parameters, then where it resumes. */
static MlirBlock make_landing(struct variant_state *vs, size_t i) {
  MlirOperation susp = vs->shape.susp[i].suspend;
  MlirLocation loc = mlirOperationGetLocation(susp);
  MlirBlock l = ir_new_block(mlirOperationGetRegion(vs->fn, 0), 0, NULL, loc);
  struct ir_builder b = ir_at_end(l, loc);
  split_reload_kept(vs, i, &b);
  MlirValue r = mlirOperationGetResult(susp, 0);
  MlirValue v = ir_val(&b, "llvm.mlir.poison", 0, NULL, mlirValueGetType(r));
  for (intptr_t k = 0; k < mlirBlockGetNumArguments(vs->dispatch); ++k)
    v = ir_insertvalue(&b, v, mlirBlockGetArgument(vs->dispatch, k), (int)k);
  mlirValueReplaceAllUsesOfWith(r, v);
  ir_map_value(vs->map,
               mlirOperationGetResult(vs->sp->shape.susp[i].suspend, 0), v);
  MlirOperation br = mlirOperationGetNextInBlock(susp);
  ir_br(&b, mlirOperationGetSuccessor(br, 0), 0, NULL);
  return l;
}

/* Ends a part at `from` with a must-tail call of the function operand
 * `first` of `op` names, on the operands after it, and a return. Where
 * LLVM cannot make that call musttail (a swiftcc dispatch function of
 * another prototype than the part's), the function's body goes there
 * instead, as LLVM's CoroSplit inlines it (check_tail_call saw that it
 * can). */
static void tail_call_return(struct variant_state *vs, MlirOperation op,
                             intptr_t first, MlirOperation from) {
  MlirOperation fn =
      ir_llvm_func_of(vs->sp->table, mlirOperationGetOperand(op, first));
  intptr_t n = mlirOperationGetNumOperands(op) - first - 1;
  MlirValue *args = ir_xmalloc((size_t)(n + 1) * sizeof *args);
  for (intptr_t k = 0; k < n; ++k)
    args[k] = mlirOperationGetOperand(op, first + 1 + k);
  if (can_musttail(mlirOperationGetContext(fn), cconv_of(vs->fn),
                   ir_func_type(vs->fn), fn)) {
    struct ir_builder b = ir_before(from);
    ir_call_func(&b, fn, 2 /* musttail */, n, args);
  } else {
    inline_single_block(fn, n, args, from);
  }
  free(args);
  split_return_at(from, (MlirValue){NULL});
}

/* A suspension tail-calls its must-tail function and returns; its resume
 * function is continuation `i`. */
static void async_suspend(struct variant_state *vs, size_t i) {
  struct split *sp = vs->sp;
  MlirOperation susp = vs->shape.susp[i].suspend;
  MlirValue resume = mlirOperationGetOperand(susp, 1);
  if (vs->v == V_CONT && i == vs->cont)
    vs->landing[i] = make_landing(vs, i);
  if (mlirValueIsAOpResult(resume) &&
      coro_intr_classify(mlirOpResultGetOwner(resume)) == CI_ASYNC_RESUME) {
    MlirOperation def = mlirOpResultGetOwner(resume);
    struct ir_builder b = ir_before(def);
    struct coro_str n = split_cont_name(sp, i);
    split_replace_result(def, ir_addressof(&b, coro_str_cstr(&n)));
    coro_str_free(&n);
    split_erase(def);
  }
  if (!vs->live[i])
    return; /* its block dies unreached */
  split_store_kept(vs, i, susp);
  tail_call_return(vs, susp, 3, susp);
}

static void async_begin(struct variant_state *vs, MlirOperation op) {
  split_replace_result(op, vs->frame);
  split_erase(op);
}

/* A fall-through end tail-calls its function (when it names one) and
 * returns; an unwind end goes on. */
static void async_end(struct variant_state *vs, MlirOperation op) {
  int64_t unwind = 0;
  ir_const_int_value(mlirOperationGetOperand(op, 1), &unwind);
  if (mlirOperationGetNumResults(op)) {
    struct ir_builder b = ir_before(op);
    split_replace_result(op, ir_const_int(&b, 1, vs->v == V_CONT));
  }
  if (unwind) {
    split_erase(op);
    return;
  }
  if (coro_intr_classify(op) == CI_END_ASYNC &&
      mlirOperationGetNumOperands(op) > 2) {
    tail_call_return(vs, op, 2, op);
    return;
  }
  split_return_at(op, (MlirValue){NULL});
}

/* NAME.resume.N for every suspension N: void(the members of N's result),
 * in the coroutine's calling convention. */
static bool async_make_parts(struct split *sp, MlirSymbolTable table) {
  MlirAttribute cconv = mlirOperationGetAttributeByName(
      sp->func, mlirStringRefCreateFromCString("CConv"));
  bool ok = true;
  for (size_t i = 0; i < sp->shape.nsusp && ok; ++i) {
    intptr_t nargs;
    MlirType *args = cont_params(sp, i, &nargs);
    ok = split_make_cont(sp, table, i, (MlirType){NULL}, nargs, args, cconv);
    free(args);
  }
  return ok;
}

const struct split_abi split_abi_async = {
    .name = "async",
    .suspend_returns = true,
    .prepare = async_prepare,
    .check_names = split_conts_check_names,
    .make_parts = async_make_parts,
    .ramp_frame = async_ramp_frame,
    .clone_entry = async_clone_entry,
    .finish_entry = split_cont_finish_entry,
    .suspend = async_suspend,
    .begin = async_begin,
    .end = async_end,
};

/*===--- llvm.coro.async.size.replace ---------------------------------------*/

bool split_async_size_replace(MlirSymbolTable table,
                              const struct split_leftovers *left) {
  bool ok = true;
  for (size_t i = 0; i < left->size_replace.n; ++i) {
    MlirOperation op = left->size_replace.v[i];
    if (mlirOperationGetNumOperands(op) != 2) {
      ir_emit_error(op, "llvm.coro.async.size.replace takes two async function "
                        "pointer records");
      ok = false;
      continue;
    }
    MlirOperation dst = record_of(table, mlirOperationGetOperand(op, 0), op);
    MlirOperation src =
        mlirOperationIsNull(dst)
            ? dst
            : record_of(table, mlirOperationGetOperand(op, 1), op);
    if (mlirOperationIsNull(src)) {
      ok = false;
      continue;
    }
    int64_t size;
    if (!ir_const_int_value(mlirOperationGetOperand(size_insert(src), 1),
                            &size)) {
      ir_emit_error(op, "the context size of the source record of "
                        "llvm.coro.async.size.replace is not a constant");
      ok = false;
      continue;
    }
    set_context_size_to(dst, (uint64_t)size);
    MlirValue used[2] = {mlirOperationGetOperand(op, 0),
                         mlirOperationGetOperand(op, 1)};
    split_erase(op);
    for (int k = 0; k < 2; ++k)
      if ((k == 0 || !mlirValueEqual(used[0], used[1])) &&
          mlirValueIsAOpResult(used[k]) &&
          mlirOpOperandIsNull(mlirValueGetFirstUse(used[k])))
        split_erase(mlirOpResultGetOwner(used[k]));
  }
  return ok;
}
