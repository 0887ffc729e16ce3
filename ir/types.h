/* types.h - the LLVM-dialect types the library builds, and the one
 * calculator of a type's size and alignment.
 *
 * ir_type_layout follows LLVM's default data layout on the 64-bit targets
 * coro builds for (x86-64, AArch64, NVPTX64): integers and floats take the
 * next power of two of their bytes, pointers 8, vectors their whole size
 * rounded up to a power of two, arrays and structs the C rules. Its
 * invariant: it terminates on every type and never overflows; a type whose
 * size is unknown or does not fit in IR_MAX_TYPE_SIZE bytes is reported as
 * such (false), never as a wrong number. Nothing here keeps state. */
#ifndef CORO_IR_TYPES_H
#define CORO_IR_TYPES_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

/* The largest value size (1 GiB) the library keeps in a frame or promise. */
#define IR_MAX_TYPE_SIZE ((uint64_t)1 << 30)

MlirType ir_ptr_type(MlirContext ctx);
MlirType ir_int_type(MlirContext ctx, unsigned width);
/* !llvm.token: the C API has no getter; parsed (MLIR uniques it). */
MlirType ir_token_type(MlirContext ctx);
/* !llvm.struct<(fields...)> (literal, not packed). */
MlirType ir_struct_type(MlirContext ctx, intptr_t n, const MlirType *fields);
/* !llvm.func<R (args...)> (R null: void). */
MlirType ir_llvm_func_type(MlirContext ctx, MlirType result, intptr_t n,
                           const MlirType *args, bool vararg);

/* The size and alignment in bytes of an LLVM-compatible type (integers,
 * floats, vectors of those, !llvm.ptr, !llvm.struct, !llvm.array); false
 * for other types, opaque structs, and sizes above IR_MAX_TYPE_SIZE. */
bool ir_type_layout(MlirType t, uint64_t *size, uint64_t *align);

/* The number of elements of an !llvm.array type. */
uint64_t ir_array_length(MlirType t);

/* `x` rounded up to a multiple of `a` (`x` itself when `a` is 0). */
static inline uint64_t ir_align_to(uint64_t x, uint64_t a) {
  return a ? (x + a - 1) / a * a : x;
}

#endif /* CORO_IR_TYPES_H */
