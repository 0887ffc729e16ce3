/* symbols.h - symbol lookups that cost O(1) while a pass changes a module.
 *
 * coro_lookup_symbol (support.h) builds MLIR's SymbolTable of its table op
 * on every call: a scan of the whole module. A pass that looks up a symbol
 * per coroutine, per call or per consumer would then be quadratic in the
 * module. A pass installs a scope instead: one SymbolTable of its module,
 * built once, that coro_lookup_symbol answers from until the scope ends.
 *
 * The table stays exact because every symbol the library creates goes
 * through ir_symbol_added (ir_llvm_func, ir_llvm_global and the other
 * builders of functions and globals call it) and every symbol it erases
 * while a scope is installed goes through ir_symbol_erase. Code inside a
 * scope must not hand the module to MLIR's own rewrite drivers, which
 * create and erase symbols behind the table's back: end the scope first.
 *
 * Scopes nest, one chain per thread (MLIR may run passes on sibling
 * modules in parallel); a lookup in a table op no scope names (a nested
 * module) builds its table as before. */
#ifndef CORO_IR_SYMBOLS_H
#define CORO_IR_SYMBOLS_H

#include "mlir-c/IR.h"

struct ir_symbol_scope {
  MlirOperation op;      /* the symbol-table op (a module) */
  MlirSymbolTable table; /* built once, by the first lookup */
  struct ir_symbol_scope *outer;
};

/* Installs `s` for `table_op` on this thread, until ir_symbol_scope_exit;
 * a pass that looks nothing up pays nothing. */
void ir_symbol_scope_enter(struct ir_symbol_scope *s, MlirOperation table_op);
/* The table of `s`, built now if it was not (null when its op is no
 * symbol table). */
MlirSymbolTable ir_symbol_scope_table(struct ir_symbol_scope *s);
/* The table of the scope this thread has installed for `table_op`, built
 * now if it was not, or null when there is none: for lookups on other
 * threads (read only) while this one waits for them. */
MlirSymbolTable ir_symbol_scope_table_of(MlirOperation table_op);
/* Ends `s`, the innermost scope of this thread, and frees its table. */
void ir_symbol_scope_exit(struct ir_symbol_scope *s);

/* Records `symbol`, just placed in the body of its parent op, in that
 * op's installed table, if any. A symbol whose name the table already has
 * (for another op) is left out: the verifier reports the duplicate. */
void ir_symbol_added(MlirOperation symbol);
/* Erases the symbol op `symbol` from its parent's installed table, if
 * any, and destroys it. */
void ir_symbol_erase(MlirOperation symbol);

/* The symbols a thread makes while the module they are for is shared with
 * other threads (a pass splitting coroutines in parallel): kept here, in
 * the order made, not placed in the module, for the pass to place once the
 * threads are done. */
struct ir_symbol_deferral {
  MlirOperation *v;
  size_t n, cap;
  struct ir_symbol_deferral *outer;
};
/* Until ir_symbol_defer_end, the symbols this thread's builders make
 * (ir_symbol_place) go to `d` instead of their module. */
void ir_symbol_defer_begin(struct ir_symbol_deferral *d);
void ir_symbol_defer_end(struct ir_symbol_deferral *d);
/* Places the new symbol `symbol` at the end of `module`'s body and records
 * it in the module's installed table (ir_symbol_added), or, while this
 * thread defers, keeps it in its deferral. */
void ir_symbol_place(MlirOperation module, MlirOperation symbol);
/* The symbol named `name` this thread has made and kept in its deferral,
 * or null (none, or not deferring). */
MlirOperation ir_symbol_deferred(MlirStringRef name);
/* mlirSymbolTableLookup in `table`, after this thread's deferral. */
MlirOperation ir_symbol_table_lookup(MlirSymbolTable table, MlirStringRef name);
/* mlirSymbolTableInsert of a symbol a builder made (ir_symbol_place),
 * nothing while this thread defers (the symbol waits in the deferral). */
void ir_symbol_table_insert(MlirSymbolTable table, MlirOperation symbol);

#endif
