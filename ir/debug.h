/* debug.h - debug-info attributes: what a function needs for gdb.
 *
 * Built with the C API's DI attribute getters; the one piece it has no
 * getter for, a distinct id (`distinct[N]<>`), is parsed here (DESIGN.md
 * allows that for attributes without a C getter; each parse makes a new
 * distinct attribute). */
#ifndef CORO_IR_DEBUG_H
#define CORO_IR_DEBUG_H

#include "mlir-c/IR.h"

/* DWARF numbers the C API takes as plain integers. */
enum {
  IR_DW_LANG_C11 = 0x1d,
  IR_DW_LANG_CXX14 = 0x21,
  IR_DW_CC_NORMAL = 1,
  IR_DI_SP_DEFINITION = 8 /* DISubprogram's SPFlagDefinition */
};

/* A new distinct id for a compile unit or subprogram. */
MlirAttribute ir_distinct_id(MlirContext ctx);

/* #llvm.di_file<"name" in "directory"> for the path `file` (split at its
 * last '/'; directory "" when it has none). */
MlirAttribute ir_di_file(MlirContext ctx, MlirStringRef file);

/* Gives the llvm.func `fn` a subprogram: a definition named by its symbol,
 * at `line` of `file`, in the compile unit `unit`, of subroutine type
 * `type`. Its location becomes fused<subprogram>[its own]. */
void ir_give_subprogram(MlirOperation fn, MlirAttribute unit,
                        MlirAttribute file, unsigned line, MlirAttribute type);

#ifdef __cplusplus
extern "C" {
#endif

/* Replaces the attribute `from` by `to` wherever it appears in `op` and the
 * ops nested in it: their locations (a debug scope inside a fused
 * location, a lexical block's scope, an inlined-at chain) and attributes.
 * A split part gets a subprogram of its own, and every location of the
 * coroutine it copies names the coroutine's: LLVM takes a !dbg of one
 * subprogram only in that subprogram's function. Implemented in
 * ir/shim.cpp (MLIR's AttrTypeReplacer; docs/contract-notes.md). */
void ir_replace_attribute_in(MlirOperation op, MlirAttribute from,
                             MlirAttribute to);

#ifdef __cplusplus
}
#endif

#endif /* CORO_IR_DEBUG_H */
