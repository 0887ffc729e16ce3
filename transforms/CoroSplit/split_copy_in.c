/* split_copy_in.c - memory the ramp fills before llvm.coro.begin, copied
 * into the frame after it, as LLVM's CoroFrame does.
 *
 * Two shapes of clang's pre-split IR put into memory what the coroutine
 * body reads after its suspensions, before the frame exists:
 *   - a by-value aggregate parameter passed in registers is stored into an
 *     alloca at the function's start; the alloca, live across
 *     suspensions, moves into the frame, but its stores run before
 *     llvm.coro.begin;
 *   - a `byval` pointer parameter points to the caller's copy, which is
 *     gone once the ramp returns: the frame must keep the bytes, not the
 *     pointer.
 * For the first, the uses before llvm.coro.begin go to a new alloca of the
 * ramp (which never lives across a suspension) and the frame's alloca is
 * filled from it right after llvm.coro.begin; for the second, the uses at
 * or after llvm.coro.begin go to a new alloca filled from the parameter
 * there, which the analyses then keep in the frame when it is live across
 * a suspension. Either way the analyses must be computed again.
 *
 * What cannot be copied is an error at the use: an alloca whose address
 * escapes before llvm.coro.begin (stored, passed to a call other than
 * llvm.memcpy, memmove or memset, or a pointer derived from it and used
 * after llvm.coro.begin), since the copy would leave that address behind. */
#include "ir/builder.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"
#include "transforms/CoroSplit/frame_layout.h"
#include "transforms/CoroSplit/split_internal.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdlib.h>

struct copy_in {
  struct split *sp;
  bool *before; /* [cfg.n]: blocks before coro.begin's */
  MlirBlock begin_block;
  struct ir_builder at; /* right after llvm.coro.begin */
};

/* Whether `op` runs before llvm.coro.begin. */
static bool early(const struct copy_in *c, MlirOperation op) {
  return split_runs_before_begin(c->sp, c->before, op);
}

static void copy_bytes(struct ir_builder *b, MlirValue dst, MlirValue src,
                       uint64_t size) {
  MlirValue ops[3] = {dst, src, ir_const_int(b, 64, (long long)size)};
  MlirNamedAttribute vol = ir_named(
      b->ctx, "isVolatile", mlirIntegerAttrGet(ir_int_type(b->ctx, 1), 0));
  ir_op(b, "llvm.intr.memcpy", 3, ops, 0, NULL, 1, &vol, 0, NULL);
}

/* Whether `op` dominates llvm.coro.begin: it is in the entry block or
 * before llvm.coro.begin in its block (what a copy made after
 * llvm.coro.begin may use). */
static bool dominates_begin(const struct copy_in *c, MlirOperation op) {
  MlirBlock b = mlirOperationGetBlock(op);
  return mlirBlockEqual(b, c->begin_block) ||
         mlirBlockEqual(b, mlirRegionGetFirstBlock(
                               mlirOperationGetRegion(c->sp->func, 0)));
}

static void escape_error(MlirOperation user) {
  ir_emit_error(user, "this use of an alloca the coroutine keeps in its "
                      "frame runs before llvm.coro.begin and lets its "
                      "address escape: the frame does not exist yet, and a "
                      "copy of the alloca would leave the address behind");
}

/* Whether the early use of a pointer into the alloca by `user` at operand
 * `at` can go to the ramp's copy: a load, a store to it, a lifetime
 * marker, llvm.memcpy/memmove/memset, or a pointer derived from it (an
 * llvm.getelementptr) whose own early uses can, and whose later uses a
 * copy of it after llvm.coro.begin can serve. An error at the use when
 * not. */
static bool early_use_ok(const struct copy_in *c, MlirOperation user,
                         intptr_t at) {
  if (coro_op_named(user, "llvm.getelementptr") && at == 0) {
    bool ok = true, late = false;
    MlirValue r = mlirOperationGetResult(user, 0);
    for (MlirOpOperand u = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(u);
         u = mlirOpOperandGetNextUse(u)) {
      MlirOperation o = mlirOpOperandGetOwner(u);
      if (early(c, o))
        ok &= early_use_ok(c, o, (intptr_t)mlirOpOperandGetOperandNumber(u));
      else
        late = true;
    }
    if (ok && late && !dominates_begin(c, user)) {
      escape_error(user);
      return false;
    }
    return ok;
  }
  if (ir_is_memory_access(user, at))
    return true;
  escape_error(user);
  return false;
}

/* The pointer `early_v` (into the ramp's copy, made before llvm.coro.begin)
 * keeps its early uses; its GEPs' uses from llvm.coro.begin on go to copies
 * of those GEPs made after llvm.coro.begin on `late_v` (the frame's). */
static void split_derived(struct copy_in *c, MlirValue early_v,
                          MlirValue late_v) {
  for (MlirOpOperand u = mlirValueGetFirstUse(early_v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation g = mlirOpOperandGetOwner(u);
    if (!coro_op_named(g, "llvm.getelementptr") ||
        mlirOpOperandGetOperandNumber(u) != 0 || !early(c, g))
      continue;
    MlirValue r = mlirOperationGetResult(g, 0);
    MlirValue late_r = {NULL};
    for (MlirOpOperand v = mlirValueGetFirstUse(r); !mlirOpOperandIsNull(v);) {
      MlirOperation o = mlirOpOperandGetOwner(v);
      intptr_t at = (intptr_t)mlirOpOperandGetOperandNumber(v);
      v = mlirOpOperandGetNextUse(v);
      if (early(c, o))
        continue;
      if (mlirValueIsNull(late_r)) {
        MlirOperation copy = mlirOperationClone(g);
        mlirOperationSetOperand(copy, 0, late_v);
        ir_insert(&c->at, copy);
        late_r = mlirOperationGetResult(copy, 0);
      }
      mlirOperationSetOperand(o, at, late_r);
    }
    if (!mlirValueIsNull(late_r))
      split_derived(c, r, late_r);
  }
}

/* Moves the early uses of the frame alloca `op` to a new alloca of the
 * ramp, copied into `op` after llvm.coro.begin; false after errors. */
static bool copy_alloca(struct copy_in *c, MlirOperation op, bool *changed) {
  MlirValue a = mlirOperationGetResult(op, 0);
  bool any = false, ok = true;
  for (MlirOpOperand u = mlirValueGetFirstUse(a); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (mlirOperationEqual(user, c->sp->shape.id) || !early(c, user))
      continue;
    any = true;
    ok &= early_use_ok(c, user, (intptr_t)mlirOpOperandGetOperandNumber(u));
  }
  MlirType elem;
  uint64_t size, align;
  if (!any || !ok || !frame_alloca_layout(op, &elem, &size, &align))
    return ok;
  MlirOperation copy = mlirOperationClone(op);
  mlirBlockInsertOwnedOperationAfter(mlirOperationGetBlock(op), op, copy);
  MlirValue early_a = mlirOperationGetResult(copy, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(a); !mlirOpOperandIsNull(u);) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t at = (intptr_t)mlirOpOperandGetOperandNumber(u);
    u = mlirOpOperandGetNextUse(u);
    if (!mlirOperationEqual(user, c->sp->shape.id) && early(c, user))
      mlirOperationSetOperand(user, at, early_a);
  }
  copy_bytes(&c->at, a, early_a, size);
  split_derived(c, early_a, a);
  *changed = true;
  return true;
}

/* Gives the byval argument `arg` (of type `t`) a copy the coroutine reads
 * at and after llvm.coro.begin, filled there. */
static bool copy_byval(struct copy_in *c, MlirValue arg, MlirType t,
                       unsigned align) {
  bool late = false;
  for (MlirOpOperand u = mlirValueGetFirstUse(arg);
       !late && !mlirOpOperandIsNull(u); u = mlirOpOperandGetNextUse(u))
    late = !early(c, mlirOpOperandGetOwner(u));
  uint64_t size, natural;
  if (!late || !ir_type_layout(t, &size, &natural))
    return false;
  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(c->sp->func, 0));
  struct ir_builder e = ir_before(mlirBlockGetFirstOperation(entry));
  e.loc = mlirValueGetLocation(arg);
  MlirValue a =
      ir_alloca(&e, ir_const_int(&e, 64, 1), t, align ? align : natural);
  for (MlirOpOperand u = mlirValueGetFirstUse(arg); !mlirOpOperandIsNull(u);) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    intptr_t at = (intptr_t)mlirOpOperandGetOperandNumber(u);
    u = mlirOpOperandGetNextUse(u);
    if (!early(c, user))
      mlirOperationSetOperand(user, at, a);
  }
  copy_bytes(&c->at, a, arg, size);
  return true;
}

/* Erases the debug records (llvm.intr.dbg.declare, dbg.value) on the frame
 * alloca `a`: its address becomes a frame field's, made after
 * llvm.coro.begin, which a record before it cannot name. The variable
 * loses its location in the debugger; the coroutine's own values keep
 * theirs (frame_debug.h describes the frame). */
static bool drop_debug_records(MlirValue a) {
  bool any = false;
  for (MlirOpOperand u = mlirValueGetFirstUse(a); !mlirOpOperandIsNull(u);) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    u = mlirOpOperandGetNextUse(u);
    if (coro_op_named(user, "llvm.intr.dbg.declare") ||
        coro_op_named(user, "llvm.intr.dbg.value")) {
      mlirOperationDestroy(user);
      any = true;
    }
  }
  return any;
}

bool split_copy_in(struct split *sp, bool *changed) {
  *changed = false;
  struct copy_in c = {
      .sp = sp,
      .before = ir_xcalloc(sp->cfg.n + 1, sizeof(bool)),
      .begin_block = mlirOperationGetBlock(sp->shape.begin),
      .at = ir_before(mlirOperationGetNextInBlock(sp->shape.begin))};
  split_mark_before_begin(sp, c.before);
  bool ok = true;
  if (!mlirValueIsNull(sp->shape.promise))
    *changed |= drop_debug_records(sp->shape.promise);
  for (size_t it = 0; it < sp->crossing.nitem; ++it) {
    MlirValue v = sp->crossing.item[it].value;
    int64_t count;
    if (sp->crossing.item[it].alloca)
      *changed |= drop_debug_records(v);
    if (sp->crossing.item[it].alloca && mlirValueIsAOpResult(v) &&
        ir_const_int_value(mlirOperationGetOperand(mlirOpResultGetOwner(v), 0),
                           &count))
      ok &= copy_alloca(&c, mlirOpResultGetOwner(v), changed);
  }
  MlirBlock entry =
      mlirRegionGetFirstBlock(mlirOperationGetRegion(sp->func, 0));
  for (intptr_t i = 0; ok && i < mlirBlockGetNumArguments(entry); ++i) {
    unsigned align = 0;
    MlirType t = ir_arg_byval_type(sp->func, i, &align);
    if (mlirTypeIsNull(t))
      continue;
    c.at.loc = sp->loc;
    *changed |= copy_byval(&c, mlirBlockGetArgument(entry, i), t, align);
  }
  free(c.before);
  return ok;
}
