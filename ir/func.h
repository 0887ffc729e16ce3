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
#include <stdint.h>

struct ir_builder;

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
/* Whether the llvm.func `fn` has the string `what` in its passthrough
 * attribute; ir_passthrough_drop removes it (and the attribute when it
 * was the last). */
bool ir_passthrough_has(MlirOperation fn, const char *what);
void ir_passthrough_drop(MlirOperation fn, const char *what);

/* When the part `fn` returns an LLVM struct from more than one place, its
 * returns branch to one return block that takes the struct's fields as
 * arguments and builds it there. LLVM folds each field where the value was
 * built field by field, and the merged return carries one phi per field
 * rather than a phi of the struct, which InstCombine does not take apart
 * (it folds an extractvalue into a phi only when the phi has one use): a
 * caller that inlines the part then sees per path what the part returned,
 * e.g. a retcon resume entry that a yield's path needs no test of the
 * continuation against null. */
void ir_unify_returns(MlirOperation fn);

/* The llvm.func of the module `v` is the address of, or null. */
MlirOperation ir_llvm_func_of(MlirSymbolTable table, MlirValue v);
/* The llvm.func of the module the symbol reference `sym` names, or null. */
MlirOperation ir_llvm_func_named(MlirSymbolTable table, MlirAttribute sym);
/* The type of an llvm.func (its function_type). */
MlirType ir_func_type(MlirOperation fn);
/* Whether `t` is !llvm.void. */
bool ir_type_is_void(MlirType t);
/* Walks the llvm.insertvalue chain that builds the struct `v`: returns
 * the insertvalue that sets member `k` (null when none does) and, in
 * `*root` (when not null), the value the chain starts from (`v` itself
 * when no insertvalue makes it). */
MlirOperation ir_insert_of(MlirValue v, int64_t k, MlirValue *root);
/* The symbol `v` is the address of (llvm.mlir.addressof), or null. */
MlirAttribute ir_symbol_addressed(MlirValue v);
/* A call of the function `fn` points to: direct when it is named. */
MlirValue ir_call_through(struct ir_builder *b, MlirValue fn, intptr_t n,
                          const MlirValue *args, MlirType result);

/* Whether `op` is llvm.intr.lifetime.start or .end. LLVM takes them only
 * on an alloca: a pass that replaces an alloca by other memory erases its
 * markers (ir_erase_lifetime_markers). */
bool ir_is_lifetime_marker(MlirOperation op);
/* Whether `op` is llvm.intr.memcpy, memmove or memset: a memory access
 * that lets no pointer escape. */
bool ir_is_mem_intrinsic(MlirOperation op);
/* Whether `user` only reads or writes the memory its operand number
 * `operand` points to, letting no pointer escape: an llvm.load, the address
 * of an llvm.store, a lifetime marker, llvm.memcpy/memmove/memset. */
bool ir_is_memory_access(MlirOperation user, intptr_t operand);
/* Erases the lifetime markers among the users of `v`. */
void ir_erase_lifetime_markers(MlirValue v);

/* The direct callee of an llvm.call (its "callee" attribute), or an empty
 * name for an indirect call or another op. Borrowed from the context. */
MlirStringRef ir_callee(MlirOperation op);
/* The "callee" attribute of a direct call of any dialect (a flat symbol
 * reference), or null for an indirect call or another op. */
MlirAttribute ir_callee_attr(MlirOperation op);

/* Calls `visit(op, fn, user)` for every op at the top of every llvm.func
 * `fn` of `module` (not of modules nested in it), in order; `visit` may
 * not erase `op`. */
void ir_each_func_op(MlirOperation module,
                     void (*visit)(MlirOperation, MlirOperation, void *),
                     void *user);

/* Top-level ops of a module, in order, cut into `n` pieces of consecutive
 * ops for work on MLIR's threads (ir_parallel_for): a walk that only reads
 * gathers what it finds per piece, and the pieces' findings, joined in
 * piece order, are those of one walk in module order. Owned by its user
 * (free `op`). */
struct ir_pieces {
  MlirOperation *op;
  size_t nop, n;
};
/* The llvm.func ops with a body of `module` (not of modules nested in
 * it). */
void ir_func_pieces_init(struct ir_pieces *p, MlirOperation module);
/* Every op of the body of `module`. */
void ir_top_pieces_init(struct ir_pieces *p, MlirOperation module);
/* Cuts the ops op[0..nop) into pieces: sets `n`. */
void ir_pieces_cut(struct ir_pieces *p);
/* The ops of piece `k`: op[*begin .. *end). */
void ir_piece(const struct ir_pieces *p, size_t k, size_t *begin, size_t *end);
/* ir_each_func_op over the functions of piece `k` alone. */
void ir_each_piece_op(const struct ir_pieces *p, size_t k,
                      void (*visit)(MlirOperation, MlirOperation, void *),
                      void *user);

/* The type argument `i` of the function `func` is `llvm.byval` of (its
 * arg_attrs), or null; its `llvm.align` into *align (0 when none; `align`
 * may be NULL). */
MlirType ir_arg_byval_type(MlirOperation func, intptr_t i, unsigned *align);

/* Whether the function `func` marks its parameter `i` `llvm.nocapture`
 * (LLVM's captures(none): no pointer to what it points to outlives the
 * call, nor is returned). */
bool ir_arg_nocapture(MlirOperation func, intptr_t i);
/* Whether the direct llvm.call or llvm.invoke `call` passes its operand
 * `at` as an argument marked `llvm.nocapture`, or `llvm.byval` (the callee
 * gets a copy: LLVM takes no pointer of it to be captured either), at the
 * call or at its callee (looked up in `table`, which may be null: the
 * call's own marks only). False for an indirect call. */
bool ir_call_operand_nocapture(MlirOperation call, intptr_t at,
                               MlirSymbolTable table);

#endif /* CORO_IR_FUNC_H */
