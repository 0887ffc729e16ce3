/* symbols.c - symbol scopes: see symbols.h. */
#include "ir/symbols.h"
#include "ir/func.h"
#include "ir/support.h"

#include "mlir-c/BuiltinAttributes.h"

#ifdef CORO_CHECK_SYMBOL_SCOPE
#include <stdio.h>
#include <stdlib.h>
#endif

static _Thread_local struct ir_symbol_scope *innermost;
static _Thread_local struct ir_symbol_deferral *deferring;

void ir_symbol_scope_enter(struct ir_symbol_scope *s, MlirOperation table_op) {
  s->op = table_op;
  s->table = (MlirSymbolTable){NULL}; /* built by the first lookup */
  s->outer = innermost;
  innermost = s;
}

MlirSymbolTable ir_symbol_scope_table(struct ir_symbol_scope *s) {
  if (mlirSymbolTableIsNull(s->table))
    s->table = mlirSymbolTableCreate(s->op);
  return s->table;
}

void ir_symbol_scope_exit(struct ir_symbol_scope *s) {
  innermost = s->outer;
  if (!mlirSymbolTableIsNull(s->table))
    mlirSymbolTableDestroy(s->table);
  s->table = (MlirSymbolTable){NULL};
}

/* The innermost scope installed for `table_op`, or null. */
static struct ir_symbol_scope *find(MlirOperation table_op) {
  for (struct ir_symbol_scope *s = innermost; s; s = s->outer)
    if (mlirOperationEqual(s->op, table_op))
      return s;
  return NULL;
}

/* The scope installed for `table_op`, its table built (null when none, or
 * when `table_op` is no symbol table). */
static struct ir_symbol_scope *scope_of(MlirOperation table_op) {
  struct ir_symbol_scope *s = find(table_op);
  return s && !mlirSymbolTableIsNull(ir_symbol_scope_table(s)) ? s : NULL;
}

MlirSymbolTable ir_symbol_scope_table_of(MlirOperation table_op) {
  struct ir_symbol_scope *s = scope_of(table_op);
  return s ? s->table : (MlirSymbolTable){NULL};
}

static MlirOperation lookup_fresh(MlirOperation table, MlirStringRef name) {
  MlirSymbolTable symbols = mlirSymbolTableCreate(table);
  if (mlirSymbolTableIsNull(symbols))
    return (MlirOperation){NULL};
  MlirOperation op = mlirSymbolTableLookup(symbols, name);
  mlirSymbolTableDestroy(symbols);
  return op;
}

MlirOperation coro_lookup_symbol(MlirOperation table, MlirStringRef name) {
  struct ir_symbol_scope *s = scope_of(table);
  if (!s)
    return lookup_fresh(table, name);
  MlirOperation op = mlirSymbolTableLookup(s->table, name);
#ifdef CORO_CHECK_SYMBOL_SCOPE
  /* a build that checks the scope's bookkeeping against a fresh table */
  if (!mlirOperationEqual(op, lookup_fresh(table, name))) {
    fprintf(stderr, "coro: symbol scope out of date for '%.*s'\n",
            (int)name.length, name.data);
    abort();
  }
#endif
  return op;
}

/* The scope installed for `table_op` whose table is built already: one
 * not built yet will see every symbol when it is. */
static struct ir_symbol_scope *built_scope_of(MlirOperation table_op) {
  struct ir_symbol_scope *s = find(table_op);
  return s && !mlirSymbolTableIsNull(s->table) ? s : NULL;
}

void ir_symbol_added(MlirOperation symbol) {
  struct ir_symbol_scope *s =
      built_scope_of(mlirOperationGetParentOperation(symbol));
  if (!s)
    return;
  MlirAttribute name = mlirOperationGetAttributeByName(
      symbol, mlirSymbolTableGetSymbolAttributeName());
  if (mlirAttributeIsNull(name) || !mlirAttributeIsAString(name))
    return;
  MlirOperation had =
      mlirSymbolTableLookup(s->table, mlirStringAttrGetValue(name));
  if (mlirOperationIsNull(had))
    mlirSymbolTableInsert(s->table, symbol); /* already placed: recorded */
}

void ir_symbol_erase(MlirOperation symbol) {
  struct ir_symbol_scope *s =
      built_scope_of(mlirOperationGetParentOperation(symbol));
  if (s)
    mlirSymbolTableErase(s->table, symbol);
  else
    mlirOperationDestroy(symbol);
}

void ir_symbol_defer_begin(struct ir_symbol_deferral *d) {
  *d = (struct ir_symbol_deferral){.outer = deferring};
  deferring = d;
}

void ir_symbol_defer_end(struct ir_symbol_deferral *d) { deferring = d->outer; }

void ir_symbol_place(MlirOperation module, MlirOperation symbol) {
  struct ir_symbol_deferral *d = deferring;
  if (!d) {
    mlirBlockAppendOwnedOperation(
        mlirRegionGetFirstBlock(mlirOperationGetRegion(module, 0)), symbol);
    ir_symbol_added(symbol);
    return;
  }
  if (d->n == d->cap) {
    d->cap = d->cap ? 2 * d->cap : 8;
    d->v = ir_xrealloc(d->v, d->cap * sizeof *d->v);
  }
  d->v[d->n++] = symbol;
}

MlirOperation ir_symbol_deferred(MlirStringRef name) {
  struct ir_symbol_deferral *d = deferring;
  for (size_t i = 0; d && i < d->n; ++i)
    if (mlirStringRefEqual(ir_sym_name(d->v[i]), name))
      return d->v[i];
  return (MlirOperation){NULL};
}

MlirOperation ir_symbol_table_lookup(MlirSymbolTable table,
                                     MlirStringRef name) {
  MlirOperation op = ir_symbol_deferred(name);
  return mlirOperationIsNull(op) ? mlirSymbolTableLookup(table, name) : op;
}

void ir_symbol_table_insert(MlirSymbolTable table, MlirOperation symbol) {
  if (!deferring)
    mlirSymbolTableInsert(table, symbol);
}
