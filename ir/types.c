/* types.c - LLVM-dialect types and the one size/alignment calculator (see
 * types.h). */
#include "ir/types.h"
#include "ir/op_cache.h"
#include "ir/support.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

MlirType ir_ptr_type(MlirContext ctx) {
  /* asked for with nearly every op a pass builds: kept by the op cache */
  struct ir_op_cache_memo *m = ir_op_cache_memo(ctx, IR_MEMO_PTR_TYPE, 0, 0);
  if (m && m->ptr)
    return (MlirType){m->ptr};
  MlirType t = mlirLLVMPointerTypeGet(ctx, 0);
  if (m)
    m->ptr = t.ptr;
  return t;
}

MlirType ir_int_type(MlirContext ctx, unsigned width) {
  return mlirIntegerTypeGet(ctx, width);
}

MlirType ir_token_type(MlirContext ctx) {
  /* the C API has no getter: parsed once per pass, kept by the op cache */
  struct ir_op_cache_memo *m = ir_op_cache_memo(ctx, IR_MEMO_TOKEN_TYPE, 0, 0);
  if (m && m->ptr)
    return (MlirType){m->ptr};
  MlirType t =
      mlirTypeParseGet(ctx, mlirStringRefCreateFromCString("!llvm.token"));
  assert(!mlirTypeIsNull(t) && "the LLVM dialect is not loaded");
  if (m)
    m->ptr = t.ptr;
  return t;
}

MlirType ir_struct_type(MlirContext ctx, intptr_t n, const MlirType *fields) {
  return mlirLLVMStructTypeLiteralGet(ctx, n, fields, false);
}

MlirType ir_llvm_func_type(MlirContext ctx, MlirType result, intptr_t n,
                           const MlirType *args, bool vararg) {
  if (mlirTypeIsNull(result))
    result = mlirLLVMVoidTypeGet(ctx);
  return mlirLLVMFunctionTypeGet(result, n, args, vararg);
}

uint64_t ir_array_length(MlirType t) {
  struct coro_str text = coro_type_str(t);
  static const char prefix[] = "!llvm.array<";
  uint64_t n = 0;
  if (text.len > sizeof prefix &&
      !strncmp(text.data, prefix, sizeof prefix - 1))
    n = strtoull(text.data + sizeof prefix - 1, NULL, 10);
  coro_str_free(&text);
  return n;
}

/* The next power of two of `x` (x <= IR_MAX_TYPE_SIZE). */
static uint64_t pow2ceil(uint64_t x) {
  uint64_t p = 1;
  while (p < x)
    p *= 2;
  return p;
}

static bool scalar_layout(uint64_t bits, uint64_t *size, uint64_t *align) {
  if (bits == 0 || bits > 8 * IR_MAX_TYPE_SIZE)
    return false;
  *size = *align = pow2ceil((bits + 7) / 8);
  return true;
}

/* n elements of (es, ea); false when the total does not fit. */
static bool times(uint64_t n, uint64_t es, uint64_t *size) {
  if (es && n > IR_MAX_TYPE_SIZE / es)
    return false;
  *size = n * es;
  return true;
}

bool ir_type_layout(MlirType t, uint64_t *size, uint64_t *align) {
  if (mlirTypeIsAInteger(t))
    return scalar_layout(mlirIntegerTypeGetWidth(t), size, align);
  if (mlirTypeIsAFloat(t))
    return scalar_layout(mlirFloatTypeGetWidth(t), size, align);
  if (mlirTypeIsALLVMPointerType(t)) {
    *size = *align = 8;
    return true;
  }
  if (mlirTypeIsAVector(t)) {
    MlirType e = mlirShapedTypeGetElementType(t);
    if (!mlirTypeIsAInteger(e) && !mlirTypeIsAFloat(e))
      return false;
    uint64_t bits = mlirTypeIsAInteger(e) ? mlirIntegerTypeGetWidth(e)
                                          : mlirFloatTypeGetWidth(e);
    for (intptr_t i = 0; i < mlirShapedTypeGetRank(t); ++i) {
      int64_t d = mlirShapedTypeGetDimSize(t, i);
      if (d <= 0 || !times((uint64_t)d, bits, &bits) ||
          bits > 8 * IR_MAX_TYPE_SIZE)
        return false;
    }
    return scalar_layout(bits, size, align);
  }
  if (mlirTypeIsALLVMStructType(t)) {
    if (mlirLLVMStructTypeIsOpaque(t))
      return false;
    bool packed = mlirLLVMStructTypeIsPacked(t);
    uint64_t off = 0, al = 1;
    for (intptr_t i = 0; i < mlirLLVMStructTypeGetNumElementTypes(t); ++i) {
      uint64_t fs, fa;
      if (!ir_type_layout(mlirLLVMStructTypeGetElementType(t, i), &fs, &fa))
        return false;
      if (packed)
        fa = 1;
      off = ir_align_to(off, fa) + fs;
      if (off > IR_MAX_TYPE_SIZE)
        return false;
      al = fa > al ? fa : al;
    }
    *size = ir_align_to(off, al);
    *align = al;
    return *size <= IR_MAX_TYPE_SIZE;
  }
  if (coro_ref_eq(mlirDialectGetNamespace(mlirTypeGetDialect(t)), "llvm")) {
    struct coro_str text = coro_type_str(t);
    bool array = !strncmp(coro_str_cstr(&text), "!llvm.array<", 12);
    coro_str_free(&text);
    if (!array)
      return false;
    uint64_t es, ea;
    if (!ir_type_layout(mlirLLVMArrayTypeGetElementType(t), &es, &ea) ||
        !times(ir_array_length(t), es, size))
      return false;
    *align = ea;
    return true;
  }
  return false;
}
