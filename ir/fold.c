/* fold.c - what constants decide (see fold.h). */
#include "ir/fold.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"

#include <string.h>

bool ir_op_is_constant(MlirOperation op) {
  static const char *const names[] = {
      "llvm.mlir.constant", "llvm.mlir.zero", "llvm.mlir.poison",
      "llvm.mlir.undef",    "llvm.mlir.none", "llvm.mlir.addressof"};
  if (mlirOperationGetNumOperands(op) || mlirOperationGetNumRegions(op))
    return false;
  for (size_t i = 0; i < sizeof names / sizeof *names; ++i)
    if (coro_op_named(op, names[i]))
      return true;
  return false;
}

bool ir_const_int_value(MlirValue v, int64_t *out) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation op = mlirOpResultGetOwner(v);
  if (!coro_op_named(op, "llvm.mlir.constant") &&
      !coro_op_named(op, "arith.constant"))
    return false;
  MlirAttribute a = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("value"));
  if (mlirAttributeIsNull(a) || !mlirAttributeIsAInteger(a))
    return false;
  *out = mlirIntegerAttrGetValueInt(a);
  return true;
}

struct known {
  MlirValue v[16];
  int64_t c[16];
  int n;
};

static unsigned width_of(MlirValue v) {
  MlirType t = mlirValueGetType(v);
  return mlirTypeIsAInteger(t) ? mlirIntegerTypeGetWidth(t) : 0;
}

static int64_t sext(int64_t x, unsigned w) {
  if (!w || w >= 64)
    return x;
  uint64_t m = (uint64_t)1 << (w - 1);
  uint64_t u = (uint64_t)x & (((uint64_t)1 << w) - 1);
  return (int64_t)((u ^ m) - m);
}

static uint64_t zext(int64_t x, unsigned w) {
  return !w || w >= 64 ? (uint64_t)x : (uint64_t)x & (((uint64_t)1 << w) - 1);
}

static bool lookup(const struct known *k, MlirValue v, int64_t *out) {
  for (int i = 0; i < k->n; ++i)
    if (mlirValueEqual(k->v[i], v)) {
      *out = k->c[i];
      return true;
    }
  /* the null pointer (a frame the split knows is not freed compares
   * equal to it) */
  if (mlirValueIsAOpResult(v) &&
      coro_op_named(mlirOpResultGetOwner(v), "llvm.mlir.zero")) {
    *out = 0;
    return true;
  }
  return ir_const_int_value(v, out);
}

static void learn(struct known *k, MlirValue v, int64_t c) {
  if (k->n < 16) {
    k->v[k->n] = v;
    k->c[k->n++] = sext(c, width_of(v));
  }
}

static bool icmp(int64_t pred, int64_t a, int64_t b, unsigned w) {
  uint64_t ua = zext(a, w), ub = zext(b, w);
  int64_t sa = sext(a, w), sb = sext(b, w);
  switch (pred) {
  case 0:
    return ua == ub;
  case 1:
    return ua != ub;
  case 2:
    return sa < sb;
  case 3:
    return sa <= sb;
  case 4:
    return sa > sb;
  case 5:
    return sa >= sb;
  case 6:
    return ua < ub;
  case 7:
    return ua <= ub;
  case 8:
    return ua > ub;
  default:
    return ua >= ub;
  }
}

static void eval(struct known *k, MlirOperation op) {
  int64_t a, b;
  if (mlirOperationGetNumResults(op) != 1)
    return;
  MlirValue r = mlirOperationGetResult(op, 0);
  if ((coro_op_named(op, "llvm.sext") || coro_op_named(op, "llvm.trunc")) &&
      lookup(k, mlirOperationGetOperand(op, 0), &a))
    learn(k, r, a);
  else if (coro_op_named(op, "llvm.zext") &&
           lookup(k, mlirOperationGetOperand(op, 0), &a))
    learn(k, r, (int64_t)zext(a, width_of(mlirOperationGetOperand(op, 0))));
  else if (coro_op_named(op, "llvm.icmp") &&
           lookup(k, mlirOperationGetOperand(op, 0), &a) &&
           lookup(k, mlirOperationGetOperand(op, 1), &b)) {
    MlirAttribute p = mlirOperationGetAttributeByName(
        op, mlirStringRefCreateFromCString("predicate"));
    if (!mlirAttributeIsNull(p) && mlirAttributeIsAInteger(p))
      learn(k, r,
            icmp(mlirIntegerAttrGetValueInt(p), a, b,
                 width_of(mlirOperationGetOperand(op, 0))));
  }
}

/* The width of the integers a switch's case_values `cases` stores one per
 * element in its raw data (8, 16, 32 or 64), else 0. */
static unsigned case_width(MlirAttribute cases) {
  MlirType et = mlirShapedTypeGetElementType(mlirAttributeGetType(cases));
  unsigned w = mlirAttributeIsADenseElements(cases) && mlirTypeIsAInteger(et)
                   ? mlirIntegerTypeGetWidth(et)
                   : 0;
  return w == 8 || w == 16 || w == 32 || w == 64 ? w : 0;
}

/* Case `i` of `cases`, whose case_width is `w`: read from the raw data in
 * place (a splat stores its one element), since a typed getter builds an
 * iterator and mlirElementsAttrGetValue an attribute per element, and
 * this runs for every suspension of every part; any other storage through
 * mlirElementsAttrGetValue. */
static int64_t case_at(MlirAttribute cases, unsigned w, intptr_t i) {
  if (!w) {
    uint64_t idx = (uint64_t)i;
    return mlirIntegerAttrGetValueInt(mlirElementsAttrGetValue(cases, 1, &idx));
  }
  const char *at = mlirDenseElementsAttrGetRawData(cases);
  if (!mlirDenseElementsAttrIsSplat(cases))
    at += (size_t)i * (w / 8);
  if (w == 8) {
    int8_t x;
    memcpy(&x, at, 1);
    return x;
  }
  if (w == 16) {
    int16_t x;
    memcpy(&x, at, 2);
    return x;
  }
  if (w == 32) {
    int32_t x;
    memcpy(&x, at, 4);
    return x;
  }
  int64_t x;
  memcpy(&x, at, 8);
  return x;
}

/* Evaluates the ops from `op` to the end of its block and returns the
 * successor index the terminator takes, or -1. */
static intptr_t eval_from(struct known *k, MlirOperation op) {
  for (; !mlirOperationIsNull(mlirOperationGetNextInBlock(op));
       op = mlirOperationGetNextInBlock(op))
    eval(k, op);
  int64_t v;
  if (coro_op_named(op, "llvm.br"))
    return 0;
  if (coro_op_named(op, "llvm.cond_br"))
    return lookup(k, mlirOperationGetOperand(op, 0), &v) ? (v & 1 ? 0 : 1) : -1;
  if (!coro_op_named(op, "llvm.switch") ||
      !lookup(k, mlirOperationGetOperand(op, 0), &v))
    return -1;
  unsigned w = width_of(mlirOperationGetOperand(op, 0));
  MlirAttribute cases = mlirOperationGetAttributeByName(
      op, mlirStringRefCreateFromCString("case_values"));
  intptr_t n = mlirOperationGetNumSuccessors(op) - 1;
  if (mlirAttributeIsNull(cases))
    return 0;
  unsigned cw = case_width(cases);
  for (intptr_t i = 0; i < n; ++i)
    if (zext(case_at(cases, cw, i), w) == zext(v, w))
      return i + 1;
  return 0;
}

intptr_t ir_branch_target(MlirOperation from) {
  struct known k = {.n = 0};
  return eval_from(&k, from);
}

intptr_t ir_branch_target_given(MlirOperation from, MlirValue v, int64_t c) {
  struct known k = {.n = 0};
  learn(&k, v, c);
  return eval_from(&k, from);
}

int64_t ir_switch_case(MlirOperation sw, intptr_t i) {
  MlirAttribute cases = mlirOperationGetAttributeByName(
      sw, mlirStringRefCreateFromCString("case_values"));
  return case_at(cases, case_width(cases), i);
}
