/* value_types.h - which values a coroutine can keep, and how they are
 * stored.
 *
 * A value crosses a coroutine boundary through memory: a published value
 * (coro.yield, coro.end) in the handle's promise, a value passed on resume
 * in the control block, an async coroutine's arguments in its task. Such a
 * type T is *storable* when coro_storage_type(T) exists and has a known
 * size of at most IR_MAX_TYPE_SIZE:
 *   index (as i64), signless integers, f16/bf16/f32/f64/f80/f128, 1-D
 *   fixed vectors of those, complex numbers of those floats (a struct of
 *   the two parts), memrefs (their descriptor struct),
 *   !llvm.ptr, and !llvm.struct (not opaque) / !llvm.array of storable
 *   LLVM types.
 * The verifier rejects every other type at the op or coroutine that would
 * store it, so the conversions never meet one. */
#ifndef CORO_DIALECT_VALUE_TYPES_H
#define CORO_DIALECT_VALUE_TYPES_H

#include "mlir-c/IR.h"

#include <stdbool.h>

/* The LLVM type a value of `type` is stored as (i64 for index, the memref
 * descriptor struct for memrefs, the type itself for the LLVM-compatible
 * types above), or a null type when it cannot be stored. */
MlirType coro_storage_type(MlirType type);

/* Whether `type` is storable (see above). */
bool coro_type_storable(MlirType type);

#endif /* CORO_DIALECT_VALUE_TYPES_H */
