/* suspend_points.c - the "live across a suspension" analysis (see the
 * header for its invariant). Sets of operations are small open-addressing
 * hash sets owned by one query; nothing outlives it. */
#include "dialect/suspend_points.h"
#include "ir/blocks.h"
#include "ir/support.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*===-- Operation sets and work lists -------------------------------------===*/

struct opset {
  void **slots;
  size_t cap, count;
};

static size_t slot_of(const struct opset *s, void *p) {
  return ir_ptr_slot(p, s->cap);
}

static bool opset_has(const struct opset *s, MlirOperation op) {
  if (!s->cap)
    return false;
  for (size_t i = slot_of(s, op.ptr);; i = (i + 1) & (s->cap - 1)) {
    if (!s->slots[i])
      return false;
    if (s->slots[i] == op.ptr)
      return true;
  }
}

/* Adds `op`; returns false if it was there already. */
static bool opset_add(struct opset *s, MlirOperation op) {
  if (opset_has(s, op))
    return false;
  if (2 * (s->count + 1) > s->cap) {
    struct opset grown = {ir_xcalloc(s->cap ? 2 * s->cap : 64, sizeof(void *)),
                          s->cap ? 2 * s->cap : 64, 0};
    for (size_t i = 0; i < s->cap; ++i)
      if (s->slots[i])
        opset_add(&grown, (MlirOperation){s->slots[i]});
    free(s->slots);
    *s = grown;
  }
  size_t i = slot_of(s, op.ptr);
  while (s->slots[i])
    i = (i + 1) & (s->cap - 1);
  s->slots[i] = op.ptr;
  ++s->count;
  return true;
}

static void opset_free(struct opset *s) { free(s->slots); }

struct worklist {
  MlirOperation *items;
  size_t count, cap;
  struct opset seen;
};

static void wl_push(struct worklist *w, MlirOperation op) {
  if (mlirOperationIsNull(op) || !opset_add(&w->seen, op))
    return;
  if (w->count == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 64;
    w->items = ir_xrealloc(w->items, w->cap * sizeof(*w->items));
  }
  w->items[w->count++] = op;
}

static void wl_free(struct worklist *w) {
  free(w->items);
  opset_free(&w->seen);
}

/*===-- The flow graph ----------------------------------------------------===*/

bool sp_is_suspension(MlirOperation op) {
  return coro_op_named(op, "coro.yield") || coro_op_named(op, "coro.await") ||
         coro_op_named(op, "coro.group_await");
}

bool sp_is_loop(MlirOperation op) {
  static const char *const not_loops[] = {
      "scf.if",
      "scf.index_switch",
      "scf.execute_region",
      "affine.if",
  };
  for (size_t i = 0; i < sizeof(not_loops) / sizeof(*not_loops); ++i)
    if (coro_op_named(op, not_loops[i]))
      return false;
  return true;
}

static bool is_function(MlirOperation op) {
  return coro_op_named(op, "func.func") || coro_op_named(op, "llvm.func");
}

static void push_block_start(struct worklist *w, MlirBlock block) {
  if (!mlirBlockIsNull(block))
    wl_push(w, mlirBlockGetFirstOperation(block));
}

static void push_region_entries(struct worklist *w, MlirOperation op) {
  for (intptr_t i = 0, n = mlirOperationGetNumRegions(op); i < n; ++i)
    push_block_start(w, mlirRegionGetFirstBlock(mlirOperationGetRegion(op, i)));
}

/* What may run after the last op of `block` when it has no successors:
 * the parent's next op, and the parent's regions again for loops. */
static void push_after_block(struct worklist *w, MlirBlock block) {
  MlirOperation parent = mlirBlockGetParentOperation(block);
  if (mlirOperationIsNull(parent) || is_function(parent))
    return;
  if (sp_is_loop(parent))
    push_region_entries(w, parent);
  MlirOperation next = mlirOperationGetNextInBlock(parent);
  if (!mlirOperationIsNull(next))
    wl_push(w, next);
  else
    push_after_block(w, mlirOperationGetBlock(parent));
}

static void push_successors(struct worklist *w, MlirOperation op) {
  push_region_entries(w, op);
  intptr_t nsucc = mlirOperationGetNumSuccessors(op);
  for (intptr_t i = 0; i < nsucc; ++i)
    push_block_start(w, mlirOperationGetSuccessor(op, i));
  MlirOperation next = mlirOperationGetNextInBlock(op);
  if (!mlirOperationIsNull(next))
    wl_push(w, next);
  else if (nsucc == 0)
    push_after_block(w, mlirOperationGetBlock(op));
}

/* Explores everything reachable from (not including, unless on a cycle)
 * `from`; `w` holds the reached ops in `w->seen`. */
static void explore(struct worklist *w, MlirOperation from) {
  size_t first = w->count;
  struct worklist start = {0};
  push_successors(&start, from);
  for (size_t i = 0; i < start.count; ++i)
    wl_push(w, start.items[i]);
  wl_free(&start);
  for (size_t i = first; i < w->count; ++i)
    push_successors(w, w->items[i]);
}

/*===-- Uses --------------------------------------------------------------===*/

static bool is_pointer_like(MlirType t) {
  return mlirTypeIsAMemRef(t) || mlirTypeIsALLVMPointerType(t) ||
         mlirTypeIsAUnrankedMemRef(t);
}

/* Collects the ops using `v`, and transitively those using pointer-like
 * results of its users (views, casts, GEPs). */
static void collect_uses(MlirValue v, struct opset *uses) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (!opset_add(uses, user))
      continue;
    for (intptr_t i = 0, n = mlirOperationGetNumResults(user); i < n; ++i) {
      MlirValue r = mlirOperationGetResult(user, i);
      if (is_pointer_like(mlirValueGetType(r)))
        collect_uses(r, uses);
    }
  }
}

bool sp_live_across(MlirValue v, MlirOperation *suspension) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  struct worklist after_def = {0};
  explore(&after_def, def);
  struct opset uses = {0};
  collect_uses(v, &uses);
  bool live = false;
  for (size_t i = 0; i < after_def.count && !live; ++i) {
    MlirOperation s = after_def.items[i];
    if (!sp_is_suspension(s))
      continue;
    struct worklist after_s = {0};
    explore(&after_s, s);
    for (size_t j = 0; j < after_s.count && !live; ++j)
      live = opset_has(&uses, after_s.items[j]);
    wl_free(&after_s);
    if (live)
      *suspension = s;
  }
  opset_free(&uses);
  wl_free(&after_def);
  return live;
}

/* Whether `user` lets the address it takes as operand `at` escape. */
static bool escaping_use(MlirOperation user, intptr_t at) {
  return coro_op_named(user, "llvm.ptrtoint") ||
         (coro_op_named(user, "llvm.store") && at == 0) ||
         coro_op_named(user, "llvm.call") ||
         coro_op_named(user, "llvm.invoke") ||
         coro_op_named(user, "func.call") ||
         coro_op_named(user, "func.call_indirect");
}

static bool escapes(MlirValue v, struct opset *seen, MlirOperation *where) {
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    if (escaping_use(user, mlirOpOperandGetOperandNumber(u))) {
      *where = user;
      return true;
    }
    if (!opset_add(seen, user))
      continue;
    for (intptr_t i = 0, n = mlirOperationGetNumResults(user); i < n; ++i) {
      MlirValue r = mlirOperationGetResult(user, i);
      if (is_pointer_like(mlirValueGetType(r)) && escapes(r, seen, where))
        return true;
    }
  }
  return false;
}

bool sp_address_escapes(MlirValue v, MlirOperation *where) {
  struct opset seen = {0};
  bool e = escapes(v, &seen, where);
  opset_free(&seen);
  return e;
}
