/* op_cache.h - ops built from their name and attributes, made by copying.
 *
 * Building an op through the C API (mlirOperationCreate) looks its name up,
 * makes a DictionaryAttr of its attributes (sorted and uniqued) and then
 * moves its inherent attributes into its properties by name: about 2,000
 * instructions of a small op's 3,000. Copying an op that has them already
 * (ir_op_copy) costs a fifth of that. A pass emits the same few kinds of op
 * with the same attributes over and over (a constant 0, a load of an i64
 * with alignment 8, a GEP to offset 16), so while a cache scope is
 * installed, ir_op (builder.h) builds the second op of a kind once more as
 * a template, detached and with placeholder operands and successors, and
 * makes it and every later one of that kind by copying the template.
 *
 * A kind is the op's name, its numbers of operands and successors, its
 * result types and its attributes (names and values, in the order given):
 * everything Operation::create takes from an OperationState besides the
 * operands, successors and location. Types and attributes are uniqued by
 * the context, so the key compares pointers. A kind seen once costs a hash
 * of 8 bytes and no template (an op naming its own callee or symbol).
 *
 * Attribute names repeat as much: the cache keeps the identifiers it was
 * asked for last (ir_op_cache_identifier).
 *
 * Scopes nest, one chain per thread, like symbol scopes (symbols.h); the
 * coro passes install one around their run (capi/passes.c). Ending a scope
 * destroys its templates, its placeholders last. */
#ifndef CORO_IR_OP_CACHE_H
#define CORO_IR_OP_CACHE_H

#include "mlir-c/IR.h"

#include <stddef.h>
#include <stdint.h>

struct ir_op_cache_slot;

#define IR_OP_CACHE_NAMES 64
#define IR_OP_CACHE_MEMO 64

/* What ir_op_cache_memo keeps: a type or attribute by what makes it. */
enum ir_memo_kind {
  IR_MEMO_PTR_TYPE = 1, /* !llvm.ptr in address space a */
  IR_MEMO_INT_ATTR,     /* an IntegerAttr of type a (a pointer), value b */
  IR_MEMO_TYPE_ATTR,    /* the TypeAttr of type a */
  IR_MEMO_I32_ARRAY1,   /* a DenseI32ArrayAttr of the one element a */
  IR_MEMO_HANDLE_ELEM,  /* the element type of the !coro.handle type a */
  IR_MEMO_TOKEN_TYPE,   /* !llvm.token (the C API makes it only by parsing) */
};

struct ir_op_cache_memo {
  uint64_t kind, a, b;
  const void *ptr;
};

struct ir_op_cache {
  MlirContext ctx;
  struct ir_op_cache_slot *slots;
  size_t cap, used;
  size_t copies;             /* ops made by copying a template (for tests) */
  MlirOperation placeholder; /* its result is every template's operand */
  MlirBlock block;           /* every template's successor */
  MlirIdentifier names[IR_OP_CACHE_NAMES];        /* by a hash of their text */
  struct ir_op_cache_memo memo[IR_OP_CACHE_MEMO]; /* by a hash of the key */
  struct ir_op_cache *outer;
};

/* Installs `c` for `ctx` on this thread, until ir_op_cache_exit. */
void ir_op_cache_enter(struct ir_op_cache *c, MlirContext ctx);
/* Ends `c` and destroys its templates: this thread's innermost cache, or
 * one set aside. */
void ir_op_cache_exit(struct ir_op_cache *c);
/* Uninstalls `c`, this thread's innermost cache, keeping its templates, so
 * that a pass working on several threads can hand it to the next piece of
 * work on any of them (ir_op_cache_resume); one thread at a time uses it. */
void ir_op_cache_set_aside(struct ir_op_cache *c);
/* Installs on this thread `c`, set aside before. */
void ir_op_cache_resume(struct ir_op_cache *c);

/* A new op, not inserted anywhere, as mlirOperationCreate would make it
 * from these fields, copied from this thread's innermost cache's template;
 * null when no cache for `loc`'s context is installed or the kind has no
 * template yet (the caller then builds it: the first of a kind). */
MlirOperation ir_op_cache_make(const char *name, intptr_t nOperands,
                               const MlirValue *operands, intptr_t nResults,
                               const MlirType *results, intptr_t nAttrs,
                               const MlirNamedAttribute *attrs,
                               intptr_t nSuccessors,
                               const MlirBlock *successors, MlirLocation loc);

/* The op mlirOperationCreate makes of these fields, not inserted anywhere
 * (null when MLIR refuses them): how ir_op builds the first of a kind, and
 * the cache a template. */
MlirOperation ir_op_build(MlirStringRef name, intptr_t nOperands,
                          const MlirValue *operands, intptr_t nResults,
                          const MlirType *results, intptr_t nAttrs,
                          const MlirNamedAttribute *attrs, intptr_t nSuccessors,
                          const MlirBlock *successors, MlirLocation loc);

/* The identifier `name` in `ctx`: from this thread's innermost cache when
 * it has it (MLIR's own lookup hashes the text and takes the uniquer's
 * lock each time; ir_named asks for a few names over and over). */
MlirIdentifier ir_op_cache_identifier(MlirContext ctx, const char *name);

/* Types and attributes the builder asks for again and again (the pointer
 * type, a GEP's offset, a constant's value), which MLIR's uniquer hashes
 * and locks for each time: this thread's innermost cache for `ctx` keeps
 * one in each of its memo slots, under `kind` (enum ir_memo_kind), `a` and
 * `b`. The slot for that key, claimed for it (its ptr NULL when it held
 * another key: the caller makes the type or attribute and stores it
 * there), or NULL when no cache for `ctx` is installed. */
struct ir_op_cache_memo *ir_op_cache_memo(MlirContext ctx,
                                          enum ir_memo_kind kind, uint64_t a,
                                          uint64_t b);

#endif /* CORO_IR_OP_CACHE_H */
