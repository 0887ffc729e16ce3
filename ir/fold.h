/* fold.h - what constants decide, for passes that fold branches.
 *
 * The LLVM dialect's constants (llvm.mlir.constant and the other
 * operand-free value makers) and a small evaluator over the integer ops a
 * branch condition is made of (casts, icmp, and, or, xor, add, sub): which
 * successor a block's terminator takes once some values are known. The
 * evaluator answers -1 whenever anything it needs is not a constant: it
 * never guesses. It keeps no state between calls. */
#ifndef CORO_IR_FOLD_H
#define CORO_IR_FOLD_H

#include "mlir-c/IR.h"

#include <stdbool.h>
#include <stdint.h>

/* Whether `op` makes a constant of the LLVM dialect (llvm.mlir.constant,
 * zero, poison, undef, none, addressof): no operands, no regions. */
bool ir_op_is_constant(MlirOperation op);

/* The value an llvm.mlir.constant or arith.constant integer `v` holds, in
 * `*out`; false when `v` is not one. */
bool ir_const_int_value(MlirValue v, int64_t *out);

/* Where the terminator after `from` (an op of the same block, or the
 * terminator itself) goes, as decided by constants alone: the successor's
 * index, or -1. */
intptr_t ir_branch_target(MlirOperation from);

/* The same, with the value `v` known to be `c` (e.g. a suspend's
 * result). */
intptr_t ir_branch_target_given(MlirOperation from, MlirValue v, int64_t c);
/* Case `i` (from 0) of the llvm.switch `sw`'s case_values. */
int64_t ir_switch_case(MlirOperation sw, intptr_t i);

#endif /* CORO_IR_FOLD_H */
