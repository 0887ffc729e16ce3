/* stack_saves.c - stack saves a suspension outlives (see stack_saves.h). */
#include "transforms/stack_saves.h"
#include "ir/blocks.h"
#include "ir/func.h"
#include "ir/support.h"
#include "transforms/CoroSplit/intrinsics.h"

#include <stdbool.h>
#include <stdlib.h>

static bool is_suspension(MlirOperation op) {
  enum coro_intr k = coro_intr_classify(op);
  return k == CI_SUSPEND || k == CI_SUSPEND_RETCON || k == CI_SUSPEND_ASYNC;
}

/* Whether `op` is a stackrestore of `save`'s value. */
static bool restores(MlirOperation op, MlirValue save) {
  return coro_op_named(op, "llvm.intr.stackrestore") &&
         mlirOperationGetNumOperands(op) == 1 &&
         mlirValueEqual(mlirOperationGetOperand(op, 0), save);
}

/* Whether a restore of `save` (made by `def`) runs after `from` on some
 * path that does not pass `def` again. */
static bool restored_after(MlirOperation def, MlirValue save,
                           MlirOperation from) {
  struct ir_ptrmap seen = {0}; /* blocks entered at their top */
  size_t cap = 16, n = 0;
  MlirOperation *work = malloc(cap * sizeof *work);
  if (!work)
    return true; /* no memory: take the safe side */
  work[n++] = mlirOperationGetNextInBlock(from);
  bool found = false;
  while (n && !found) {
    MlirOperation op = work[--n];
    MlirOperation last = op;
    for (; !mlirOperationIsNull(op); op = mlirOperationGetNextInBlock(op)) {
      last = op;
      if (mlirOperationEqual(op, def))
        break; /* a new value from here on */
      if (restores(op, save)) {
        found = true;
        break;
      }
    }
    if (found || !mlirOperationIsNull(op))
      continue; /* found, or stopped at the save */
    for (intptr_t i = 0; i < mlirOperationGetNumSuccessors(last); ++i) {
      MlirBlock s = mlirOperationGetSuccessor(last, i);
      if (ir_ptrmap_find(&seen, s.ptr))
        continue;
      ir_ptrmap_put(&seen, s.ptr, (void *)1);
      if (n == cap) {
        MlirOperation *w = realloc(work, 2 * cap * sizeof *work);
        if (!w) {
          found = true;
          break;
        }
        work = w;
        cap *= 2;
      }
      work[n++] = mlirBlockGetFirstOperation(s);
    }
  }
  free(work);
  ir_ptrmap_free(&seen);
  return found;
}

struct ops {
  MlirOperation *v;
  size_t n, cap;
};

static void push(struct ops *o, MlirOperation op) {
  if (o->n == o->cap) {
    size_t cap = o->cap ? 2 * o->cap : 16;
    MlirOperation *v = realloc(o->v, cap * sizeof *v);
    if (!v)
      return; /* no memory: this one is left as it is */
    o->v = v;
    o->cap = cap;
  }
  o->v[o->n++] = op;
}

struct found {
  struct ops saves, suspensions;
};

static MlirWalkResult note(MlirOperation op, void *data) {
  struct found *f = data;
  if (coro_op_named(op, "llvm.intr.stacksave"))
    push(&f->saves, op);
  else if (is_suspension(op))
    push(&f->suspensions, op);
  return MlirWalkResultAdvance;
}

static void drop(MlirOperation save) {
  MlirValue v = mlirOperationGetResult(save, 0);
  for (MlirOpOperand u = mlirValueGetFirstUse(v); !mlirOpOperandIsNull(u);) {
    MlirOperation user = mlirOpOperandGetOwner(u);
    u = mlirOpOperandGetNextUse(u);
    if (restores(user, v))
      mlirOperationDestroy(user);
  }
  if (mlirOpOperandIsNull(mlirValueGetFirstUse(v)))
    mlirOperationDestroy(save);
}

static MlirWalkResult visit_fn(MlirOperation fn, void *data) {
  (void)data;
  if (!coro_op_named(fn, "llvm.func"))
    return MlirWalkResultAdvance;
  if (!ir_passthrough_has(fn, "presplitcoroutine"))
    return MlirWalkResultSkip;
  struct found f = {0};
  mlirOperationWalk(fn, note, &f, MlirWalkPreOrder);
  for (size_t i = 0; f.suspensions.n && i < f.saves.n; ++i) {
    MlirOperation s = f.saves.v[i];
    MlirValue v = mlirOperationGetResult(s, 0);
    for (size_t k = 0; k < f.suspensions.n; ++k)
      if (restored_after(s, v, f.suspensions.v[k])) {
        drop(s);
        break;
      }
  }
  free(f.saves.v);
  free(f.suspensions.v);
  return MlirWalkResultSkip;
}

void coro_drop_suspended_stack_saves(MlirOperation root) {
  mlirOperationWalk(root, visit_fn, NULL, MlirWalkPreOrder);
}
