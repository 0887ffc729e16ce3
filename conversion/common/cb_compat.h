/* cb_compat.h - the text-attribute builder (`struct cb`, cb_*) the retcon
 * and async conversions still use while they move to the IR-building
 * layer (ir/builder.h). `struct cb` is `struct ir_builder`, so the two mix.
 * Nothing new may include this header; it goes once they no longer do. */
#ifndef CORO_CONVERSION_COMMON_CB_COMPAT_H
#define CORO_CONVERSION_COMMON_CB_COMPAT_H

#include "ir/blocks.h"
#include "ir/builder.h"

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

#define cb ir_builder

/* Where new ops go: before `before` when it is not null, else at the end of
 * `block`. */
struct cb cb_at_end(MlirBlock block, MlirLocation loc);
struct cb cb_before(MlirOperation op);

/* Builds `name` with operands, result types, properties/attributes parsed
 * from `attrs` (a dictionary like "{alignment = 8 : i64}" or NULL) and
 * successors; inserts it and returns it. */
MlirOperation cb_op(struct cb *b, const char *name, intptr_t nOperands,
                    const MlirValue *operands, intptr_t nResults,
                    const MlirType *results, const char *attrs,
                    intptr_t nSuccessors, MlirBlock *successors);
/* The same, returning the first result (null when none). */
MlirValue cb_val(struct cb *b, const char *name, intptr_t nOperands,
                 const MlirValue *operands, MlirType result, const char *attrs);

MlirType cb_type(MlirContext ctx, const char *text);
MlirType cb_ptr(MlirContext ctx);
MlirType cb_int(MlirContext ctx, unsigned width);
MlirValue cb_const_int(struct cb *b, unsigned width, long long value);
MlirValue cb_null(struct cb *b);
/* `llvm.call_intrinsic "name"(operands)` with zero or one result. */
MlirValue cb_intrinsic(struct cb *b, const char *name, intptr_t nOperands,
                       const MlirValue *operands, MlirType result);
void cb_br(struct cb *b, MlirBlock dest, intptr_t nArgs, const MlirValue *args);
void cb_cond_br(struct cb *b, MlirValue cond, MlirBlock t, MlirBlock f);
/* `llvm.switch %v : i8` with default `dflt` and cases 0 and 1, each case
 * passing at most one argument (null for none). */
void cb_switch01(struct cb *b, MlirValue v, MlirBlock dflt, MlirBlock case0,
                 MlirValue arg0, MlirBlock case1, MlirValue arg1);
/* GEP to field `index` of a struct `structType` at `base`. */
MlirValue cb_field(struct cb *b, MlirValue base, MlirType structType,
                   int index);
/* GEP along `n` field indices (nested structs) of `structType` at `base`. */
MlirValue cb_field_path(struct cb *b, MlirValue base, MlirType structType,
                        int n, const int *indices);
/* GEP `offset` bytes from `base` (may be negative). */
MlirValue cb_byte_gep(struct cb *b, MlirValue base, int offset);

/* Splits the block of `op` after it: the ops following `op` move, in order,
 * to a new block inserted right after; returns that block. */
MlirBlock coro_split_after(MlirOperation op);
/* A new empty block appended to `region`. */
MlirBlock coro_new_block(MlirRegion region, intptr_t nArgs,
                         const MlirType *types, MlirLocation loc);

/* Declares `llvm.func` named by the flat symbol ref `sym` with the given
 * LLVM signature text (e.g. "(i64) -> !llvm.ptr") unless a symbol of that
 * name exists; returns false (with an error at the symbol) when an existing
 * symbol is not a function. */
bool coro_declare_func(MlirOperation module, MlirAttribute sym,
                       const char *type, MlirLocation loc);

/* `llvm.store`/`llvm.load` with an explicit alignment. */
void cb_store(struct cb *b, MlirValue v, MlirValue ptr, unsigned align);
MlirValue cb_load(struct cb *b, MlirValue ptr, MlirType t, unsigned align);
/* Calls the function `sym` (a flat symbol ref; an llvm.func, or a func.func
 * when `is_func`) with zero or one result. The callee is set as an
 * attribute, never printed and parsed, so any symbol name works. */
MlirValue cb_call(struct cb *b, MlirAttribute sym, bool is_func, intptr_t n,
                  const MlirValue *args, MlirType result);

/* A new block with arguments inserted right after `after`. */
MlirBlock coro_block_after(MlirBlock after, intptr_t nArgs,
                           const MlirType *types, MlirLocation loc);

/* Parses the function `text` and appends it to the module unless a symbol
 * named `name` exists. */
void coro_ensure_func(MlirOperation module, const char *name, const char *text);

/* Adds `extra` (a NULL-terminated list of strings) to the function's
 * passthrough attributes, keeping those already there. */
void coro_add_passthrough(MlirOperation func, const char *const *extra);

#endif /* CORO_CONVERSION_COMMON_CB_COMPAT_H */
