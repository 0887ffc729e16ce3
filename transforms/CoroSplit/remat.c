/* remat.c - choosing the values to recompute after a suspension (see
 * remat.h). */
#include "transforms/CoroSplit/remat.h"
#include "ir/fold.h"
#include "ir/support.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

#define NAME(s) {s, sizeof s - 1}

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

void remat_compute(struct remat *r, const struct suspend_crossing *sc,
                   const struct coro_shape *shape) {
  size_t npairs = sc->start[sc->nsusp];
  r->remat = ir_xcalloc(npairs + 1, sizeof *r->remat);
  r->iremat = ir_xcalloc(npairs + 1, sizeof *r->iremat);
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
  MlirValue frame = mlirOperationGetResult(shape->begin, 0);
  for (size_t s = 0; s < sc->nsusp; ++s) {
    for (size_t q = sc->start[s]; q < sc->start[s + 1]; ++q) {
      size_t it = sc->list[q];
      at[it] = s + 1;
      /* cheap: an op result (an alloca's is none) */
      if (sc->item[it].alloca || !sc->item[it].cheap)
        continue;
      MlirOperation def = mlirOpResultGetOwner(sc->item[it].value);
      bool ok = true;
      for (intptr_t k = 0; ok && k < mlirOperationGetNumOperands(def); ++k) {
        MlirValue o = mlirOperationGetOperand(def, k);
        if (mlirValueEqual(o, frame) || (!mlirValueIsNull(shape->storage) &&
                                         mlirValueEqual(o, shape->storage)))
          continue;
        if (mlirValueIsAOpResult(o) &&
            ir_op_is_constant(mlirOpResultGetOwner(o)))
          continue;
        size_t oi = (size_t)(uintptr_t)ir_ptrmap_find(&item_of, o.ptr);
        /* An item of this suspension met before (definition order). */
        ok = oi && at[oi - 1] == s + 1 && oi - 1 != it;
      }
      r->remat[q] = ok;
    }
    for (size_t q = sc->start[s]; q < sc->start[s + 1]; ++q) {
      size_t it = sc->list[q];
      r->iremat[sc->istart[it] + cursor[it]++] = r->remat[q];
    }
  }
  ir_ptrmap_free(&item_of);
  free(at);
  free(cursor);
}

void remat_free(struct remat *r) {
  free(r->remat);
  free(r->iremat);
  *r = (struct remat){0};
}
