/* value_types.c - storable value types and their storage (see
 * value_types.h). */
#include "dialect/value_types.h"
#include "dialect/dialect.h"
#include "ir/types.h"

#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdint.h>

/* Floats LLVM has: the 8-bit, 6-bit, 4-bit and tf32 formats are MLIR's. */
static bool llvm_float(MlirType t) {
  if (!mlirTypeIsAFloat(t))
    return false;
  unsigned w = mlirFloatTypeGetWidth(t);
  return mlirTypeIsAF16(t) || mlirTypeIsABF16(t) || mlirTypeIsAF32(t) ||
         mlirTypeIsAF64(t) || w == 80 || w == 128;
}

static bool scalar(MlirType t) {
  return (mlirTypeIsAInteger(t) && mlirIntegerTypeIsSignless(t)) ||
         llvm_float(t);
}

/* LLVM-dialect types that can sit in memory: pointers, non-opaque
 * structs and arrays of such (and of scalars and vectors). */
static bool llvm_compatible(MlirType t);

static bool llvm_aggregate(MlirType t) {
  if (mlirTypeIsALLVMPointerType(t))
    return true;
  if (mlirTypeIsALLVMStructType(t)) {
    if (mlirLLVMStructTypeIsOpaque(t))
      return false;
    for (intptr_t i = 0; i < mlirLLVMStructTypeGetNumElementTypes(t); ++i)
      if (!llvm_compatible(mlirLLVMStructTypeGetElementType(t, i)))
        return false;
    return true;
  }
  uint64_t size, align;
  /* The C API cannot tell an array from other LLVM types but by layout:
   * ir_type_layout knows arrays and rejects the rest. */
  return ir_type_layout(t, &size, &align) &&
         llvm_compatible(mlirLLVMArrayTypeGetElementType(t));
}

static bool llvm_compatible(MlirType t) {
  if (scalar(t))
    return true;
  if (mlirTypeIsAVector(t))
    return mlirShapedTypeGetRank(t) == 1 && !mlirVectorTypeIsScalable(t) &&
           scalar(mlirShapedTypeGetElementType(t));
  return mlirDialectIsNull(mlirTypeGetDialect(t))
             ? false
             : mlirStringRefEqual(
                   mlirDialectGetNamespace(mlirTypeGetDialect(t)),
                   mlirStringRefCreateFromCString("llvm")) &&
                   llvm_aggregate(t);
}

MlirType coro_storage_type(MlirType type) {
  MlirContext ctx = mlirTypeGetContext(type);
  MlirType ptr = ir_ptr_type(ctx), i64 = ir_int_type(ctx, 64);
  if (mlirTypeIsAIndex(type))
    return i64;
  /* a handle (a scheduler that yields tasks, a task that publishes one):
   * its frame's address, as every ABI's handle is once lowered */
  if (coro_type_is_handle(type))
    return ptr;
  if (mlirTypeIsAMemRef(type)) {
    /* The descriptor finalize-memref-to-llvm uses: {allocated, aligned,
     * offset, sizes[rank], strides[rank]}. */
    int64_t rank = mlirShapedTypeGetRank(type);
    MlirType dims = mlirLLVMArrayTypeGet(i64, (unsigned)rank);
    MlirType fields[5] = {ptr, ptr, i64, dims, dims};
    return ir_struct_type(ctx, rank ? 5 : 3, fields);
  }
  if (mlirTypeIsAUnrankedMemRef(type)) {
    MlirType fields[2] = {i64, ptr};
    return ir_struct_type(ctx, 2, fields);
  }
  /* a complex number: the struct of its two parts, as
   * convert-complex-to-llvm has it */
  if (mlirTypeIsAComplex(type) &&
      llvm_float(mlirComplexTypeGetElementType(type))) {
    MlirType part = mlirComplexTypeGetElementType(type);
    MlirType fields[2] = {part, part};
    return ir_struct_type(ctx, 2, fields);
  }
  if (llvm_compatible(type))
    return type;
  return (MlirType){NULL};
}

bool coro_type_storable(MlirType type) {
  MlirType s = coro_storage_type(type);
  uint64_t size, align;
  return !mlirTypeIsNull(s) && ir_type_layout(s, &size, &align);
}
