/* remat.c - choosing the values to recompute after a suspension (see
 * remat.h). */
#include "transforms/CoroSplit/remat.h"
#include "ir/fold.h"
#include "ir/support.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define NAME(s)                                                                \
  { s, sizeof s - 1 }

bool remat_op_is_cheap(MlirOperation op) {
  static const struct {
    const char *s;
    size_t n;
  } cheap[] = {
      NAME("llvm.add"),      NAME("llvm.sub"),     NAME("llvm.mul"),
      NAME("llvm.and"),      NAME("llvm.or"),      NAME("llvm.xor"),
      NAME("llvm.shl"),      NAME("llvm.lshr"),    NAME("llvm.ashr"),
      NAME("llvm.icmp"),     NAME("llvm.zext"),    NAME("llvm.sext"),
      NAME("llvm.trunc"),    NAME("llvm.bitcast"), NAME("llvm.ptrtoint"),
      NAME("llvm.inttoptr"), NAME("llvm.select"),  NAME("llvm.fadd"),
      NAME("llvm.fsub"),     NAME("llvm.fmul"),    NAME("llvm.fneg"),
      NAME("llvm.fcmp"),     NAME("llvm.sitofp"),  NAME("llvm.uitofp"),
      NAME("llvm.fpext"),    NAME("llvm.fptrunc"), NAME("llvm.getelementptr"),
      NAME("llvm.fdiv")};
  /* a division by a constant that cannot trap (not 0; for a signed one,
   * not -1, whose quotient of the least value overflows), which LLVM's
   * CoroSplit recomputes as it does any binary operator */
  static const struct {
    const char *s;
    size_t n;
  } divide[] = {NAME("llvm.udiv"), NAME("llvm.urem"), NAME("llvm.sdiv"),
                NAME("llvm.srem")};
  if (mlirOperationGetNumResults(op) != 1 || mlirOperationGetNumRegions(op) ||
      mlirOperationGetNumSuccessors(op))
    return false;
  /* the name read once, compared by length first (this runs for every
   * value a suspension keeps) */
  MlirStringRef name = mlirIdentifierStr(mlirOperationGetName(op));
  for (size_t i = 0; i < sizeof cheap / sizeof *cheap; ++i)
    if (name.length == cheap[i].n &&
        !memcmp(name.data, cheap[i].s, name.length))
      return true;
  for (size_t i = 0; i < sizeof divide / sizeof *divide; ++i)
    if (name.length == divide[i].n &&
        !memcmp(name.data, divide[i].s, name.length)) {
      int64_t d;
      bool is_signed = name.data[5] == 's';
      return mlirOperationGetNumOperands(op) == 2 &&
             ir_const_int_value(mlirOperationGetOperand(op, 1), &d) && d != 0 &&
             !(is_signed && d == -1);
    }
  return false;
}

/* What remat_compute is deciding for one item of suspension s. */
struct chain_walk {
  const struct coro_shape *shape;
  MlirValue frame;
  const struct ir_ptrmap *item_of; /* value -> 1 + item */
  const size_t *at; /* item -> 1 + the suspension it was met at */
  size_t s, it;
  size_t budget; /* chain ops left for this item */
  size_t mark;   /* where this item's chain starts in `chain` */
  MlirValue *chain;
  size_t n, cap;
};

/* Whether `o`, an operand of an op recomputed for item w->it after
 * suspension w->s, is there after it: a constant, the frame pointer, the
 * retcon storage, an item of s met before (kept or recomputed itself), or
 * a value s does not keep that a cheap op computes from such operands
 * (a chain op, appended to w->chain after its own; at most REMAT_CHAIN
 * of them per item). */
static bool available(struct chain_walk *w, MlirValue o) {
  if (mlirValueEqual(o, w->frame) || (!mlirValueIsNull(w->shape->storage) &&
                                      mlirValueEqual(o, w->shape->storage)))
    return true;
  size_t oi = (size_t)(uintptr_t)ir_ptrmap_find(w->item_of, o.ptr);
  if (oi && oi - 1 != w->it && w->at[oi - 1] == w->s + 1)
    return true; /* an item of s met before (definition order) */
  if (!mlirValueIsAOpResult(o))
    return false;
  MlirOperation def = mlirOpResultGetOwner(o);
  if (ir_op_is_constant(def))
    return true;
  if (!w->budget || !remat_op_is_cheap(def))
    return false; /* no chain op, or one too many */
  for (size_t k = w->mark; k < w->n; ++k)
    if (mlirValueEqual(w->chain[k], o))
      return true; /* this item's chain has it already */
  --w->budget;
  for (intptr_t k = 0; k < mlirOperationGetNumOperands(def); ++k)
    if (!available(w, mlirOperationGetOperand(def, k)))
      return false;
  if (w->n == w->cap) {
    w->cap = w->cap ? 2 * w->cap : 8;
    w->chain = ir_xrealloc(w->chain, w->cap * sizeof *w->chain);
  }
  w->chain[w->n++] = o;
  return true;
}

void remat_compute(struct remat *r, const struct suspend_crossing *sc,
                   const struct coro_shape *shape) {
  size_t npairs = sc->start[sc->nsusp];
  r->remat = ir_xcalloc(npairs + 1, sizeof *r->remat);
  r->iremat = ir_xcalloc(npairs + 1, sizeof *r->iremat);
  r->cstart = ir_xcalloc(npairs + 1, sizeof *r->cstart);
  r->chain = NULL;
  size_t *at = ir_xmalloc((sc->nitem + 1) * sizeof *at); /* 1 + suspension */
  size_t *cursor = ir_xcalloc(sc->nitem + 1, sizeof *cursor); /* into ilist */
  /* value -> 1 + item, needed only where some item is recomputed */
  struct ir_ptrmap item_of = {0};
  bool any_cheap = false;
  for (size_t i = 0; i < sc->nitem && !any_cheap; ++i)
    any_cheap = sc->item[i].cheap;
  for (size_t i = 0; i < sc->nitem; ++i) {
    at[i] = 0;
    if (any_cheap && !sc->item[i].alloca)
      ir_ptrmap_put(&item_of, sc->item[i].value.ptr,
                    (void *)(uintptr_t)(i + 1));
  }
  struct chain_walk w = {.shape = shape,
                         .frame = mlirOperationGetResult(shape->begin, 0),
                         .item_of = &item_of,
                         .at = at};
  for (size_t s = 0; s < sc->nsusp; ++s) {
    for (size_t q = sc->start[s]; q < sc->start[s + 1]; ++q) {
      size_t it = sc->list[q];
      at[it] = s + 1;
      r->cstart[q] = w.n;
      /* cheap: an op result (an alloca's is none) */
      if (sc->item[it].alloca || !sc->item[it].cheap)
        continue;
      MlirOperation def = mlirOpResultGetOwner(sc->item[it].value);
      w.s = s;
      w.it = it;
      w.budget = REMAT_CHAIN;
      w.mark = w.n;
      bool ok = true;
      for (intptr_t k = 0; ok && k < mlirOperationGetNumOperands(def); ++k)
        ok = available(&w, mlirOperationGetOperand(def, k));
      if (!ok)
        w.n = w.mark;
      r->remat[q] = ok;
    }
    for (size_t q = sc->start[s]; q < sc->start[s + 1]; ++q) {
      size_t it = sc->list[q];
      r->iremat[sc->istart[it] + cursor[it]++] = r->remat[q];
    }
  }
  r->cstart[npairs] = w.n;
  r->chain = w.chain;
  ir_ptrmap_free(&item_of);
  free(at);
  free(cursor);
}

void remat_free(struct remat *r) {
  free(r->remat);
  free(r->iremat);
  free(r->cstart);
  free(r->chain);
  *r = (struct remat){0};
}
