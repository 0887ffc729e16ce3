/* copy.h - a copy of one operation with new operands, for passes written
 * in C.
 *
 * MLIR's C API copies an op only through mlirOperationClone, which builds
 * an IRMapping (three hash maps, allocated and freed) for each copy and
 * then needs a call per operand to set the new ones: about a thousand
 * instructions per op beyond making the op itself. --coro-split makes
 * millions of frame accesses and copies on a long coroutine, each from a
 * template or from the coroutine's own op. This is Operation::create over
 * the fields of the op copied: its name, result types, attributes and
 * properties, with the given operands, successors and location. Implemented
 * in ir/shim.cpp (docs/contract-notes.md). */
#ifndef CORO_IR_COPY_H
#define CORO_IR_COPY_H

#include "mlir-c/IR.h"

#ifdef __cplusplus
extern "C" {
#endif

/* A new op, not inserted anywhere, like `op` (which must have no regions)
 * with operands[0..noperands), successors[0..nsuccessors) and `loc`. */
MlirOperation ir_op_copy(MlirOperation op, MlirLocation loc, intptr_t noperands,
                         const MlirValue *operands, intptr_t nsuccessors,
                         const MlirBlock *successors);

#ifdef __cplusplus
}
#endif

#endif /* CORO_IR_COPY_H */
