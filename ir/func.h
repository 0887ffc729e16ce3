/* func.h - building LLVM-dialect functions and declarations.
 *
 * A function is created with its name, type, linkage, calling convention
 * and passthrough attributes as typed attributes, at a location that says
 * where it comes from (the user's op or coroutine, through
 * ir_generated_loc). Functions are appended to (or looked up in) a module's
 * body; nothing is parsed. */
#ifndef CORO_IR_FUNC_H
#define CORO_IR_FUNC_H

#include "mlir-c/IR.h"

#include <stdbool.h>

struct ir_func_spec {
  const char *name;
  MlirType result; /* null: void */
  intptr_t nargs;
  const MlirType *args;
  bool vararg;
  int linkage;                    /* MlirLLVMLinkage; 0 (external) by default */
  int cconv;                      /* MlirLLVMCConv; 0 (ccc) by default */
  const char *const *passthrough; /* NULL-terminated, or NULL */
  const char *visibility;         /* "private", or NULL */
};

/* Creates the llvm.func `spec` at the end of `module`'s body, with an entry
 * block holding the arguments unless `declaration`; returns it. */
MlirOperation ir_llvm_func(MlirOperation module,
                           const struct ir_func_spec *spec, bool declaration,
                           MlirLocation loc);
/* A global: llvm.mlir.global `linkage` [constant] @name(value)
 * {alignment = align} : type. `value` null: no value attribute (the
 * caller fills its initializer region, region 0); `align` 0: none. */
struct ir_global_spec {
  MlirStringRef name;
  MlirType type;
  int linkage; /* MlirLLVMLinkage */
  bool constant;
  MlirAttribute value;
  unsigned align;
};

/* Creates the global `spec` at the end of `module`'s body; returns it. */
MlirOperation ir_llvm_global(MlirOperation module,
                             const struct ir_global_spec *spec,
                             MlirLocation loc);

/* The symbol name of `op` (its sym_name attribute), which must have one. */
MlirStringRef ir_sym_name(MlirOperation op);

/* The entry block of a function (null for a declaration). */
MlirBlock ir_func_entry(MlirOperation func);

/* Adds `extra` (a NULL-terminated list of strings) to the function's
 * passthrough attributes, keeping those already there. */
void ir_add_passthrough(MlirOperation func, const char *const *extra);

#endif /* CORO_IR_FUNC_H */
