/* op_cache.c - ops made by copying a template of their kind: see
 * op_cache.h. */
#include "ir/op_cache.h"
#include "ir/copy.h"
#include "ir/support.h"

#include "mlir-c/BuiltinTypes.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/* A kind with its template. */
struct entry {
  char *name;
  size_t name_len;
  intptr_t nops, nres, nattrs, nsucc;
  MlirType *types;
  MlirNamedAttribute *attrs;
  MlirOperation tpl;
};

/* hash 0: empty; entry null: the kind was seen once (no template yet) */
struct ir_op_cache_slot {
  uint64_t hash;
  struct entry *e;
};

static _Thread_local struct ir_op_cache *innermost;

MlirOperation ir_op_build(MlirStringRef name, intptr_t nOperands,
                          const MlirValue *operands, intptr_t nResults,
                          const MlirType *results, intptr_t nAttrs,
                          const MlirNamedAttribute *attrs, intptr_t nSuccessors,
                          const MlirBlock *successors, MlirLocation loc) {
  MlirOperationState st = mlirOperationStateGet(name, loc);
  mlirOperationStateAddOperands(&st, nOperands, operands);
  mlirOperationStateAddResults(&st, nResults, results);
  if (nSuccessors)
    mlirOperationStateAddSuccessors(&st, nSuccessors, successors);
  if (nAttrs)
    mlirOperationStateAddAttributes(&st, nAttrs, attrs);
  return mlirOperationCreate(&st);
}

void ir_op_cache_enter(struct ir_op_cache *c, MlirContext ctx) {
  memset(c, 0, sizeof *c);
  c->ctx = ctx;
  c->outer = innermost;
  innermost = c;
}

void ir_op_cache_set_aside(struct ir_op_cache *c) {
  innermost = c->outer;
  c->outer = NULL;
}

void ir_op_cache_resume(struct ir_op_cache *c) {
  c->outer = innermost;
  innermost = c;
}

void ir_op_cache_exit(struct ir_op_cache *c) {
  if (innermost == c)
    innermost = c->outer;
  for (size_t i = 0; i < c->cap; ++i) {
    struct entry *e = c->slots[i].e;
    if (!e)
      continue;
    mlirOperationDestroy(e->tpl);
    free(e->name);
    free(e->types);
    free(e->attrs);
    free(e);
  }
  free(c->slots);
  /* the templates used them: destroyed last */
  if (!mlirOperationIsNull(c->placeholder))
    mlirOperationDestroy(c->placeholder);
  if (!mlirBlockIsNull(c->block))
    mlirBlockDestroy(c->block);
  c->slots = NULL;
  c->cap = c->used = 0;
}

static uint64_t mix(uint64_t h, uint64_t v) {
  h ^= v;
  h *= 0x100000001b3ULL;
  return h ^ (h >> 29);
}

/* FNV-1a of `len` bytes of `text`. */
static uint64_t text_hash(const char *text, size_t len) {
  uint64_t h = 0xcbf29ce484222325ULL;
  for (size_t i = 0; i < len; ++i)
    h = (h ^ (unsigned char)text[i]) * 0x100000001b3ULL;
  return h;
}

static uint64_t kind_hash(const char *name, size_t len, intptr_t nops,
                          intptr_t nres, const MlirType *types, intptr_t nattrs,
                          const MlirNamedAttribute *attrs, intptr_t nsucc) {
  uint64_t h = mix(text_hash(name, len), (uint64_t)nops);
  h = mix(h, (uint64_t)nsucc);
  h = mix(h, (uint64_t)nres);
  for (intptr_t i = 0; i < nres; ++i)
    h = mix(h, (uint64_t)(uintptr_t)types[i].ptr);
  h = mix(h, (uint64_t)nattrs);
  for (intptr_t i = 0; i < nattrs; ++i) {
    h = mix(h, (uint64_t)(uintptr_t)attrs[i].name.ptr);
    h = mix(h, (uint64_t)(uintptr_t)attrs[i].attribute.ptr);
  }
  return h ? h : 1;
}

static bool matches(const struct entry *e, const char *name, size_t len,
                    intptr_t nops, intptr_t nres, const MlirType *types,
                    intptr_t nattrs, const MlirNamedAttribute *attrs,
                    intptr_t nsucc) {
  if (e->name_len != len || e->nops != nops || e->nres != nres ||
      e->nattrs != nattrs || e->nsucc != nsucc || memcmp(e->name, name, len))
    return false;
  for (intptr_t i = 0; i < nres; ++i)
    if (!mlirTypeEqual(e->types[i], types[i]))
      return false;
  for (intptr_t i = 0; i < nattrs; ++i)
    if (!mlirIdentifierEqual(e->attrs[i].name, attrs[i].name) ||
        !mlirAttributeEqual(e->attrs[i].attribute, attrs[i].attribute))
      return false;
  return true;
}

/* The template of a kind: built as the op would be, with the placeholder
 * for every operand and the cache's block for every successor. Null when
 * MLIR refuses the attributes (the caller's own build then reports it). */
static struct entry *make_entry(struct ir_op_cache *c, const char *name,
                                size_t len, intptr_t nops, intptr_t nres,
                                const MlirType *types, intptr_t nattrs,
                                const MlirNamedAttribute *attrs,
                                intptr_t nsucc) {
  MlirLocation unknown = mlirLocationUnknownGet(c->ctx);
  if (mlirOperationIsNull(c->placeholder)) {
    MlirType none = mlirNoneTypeGet(c->ctx);
    c->placeholder = ir_op_build(
        mlirStringRefCreateFromCString("builtin.unrealized_conversion_cast"), 0,
        NULL, 1, &none, 0, NULL, 0, NULL, unknown);
    c->block = mlirBlockCreate(0, NULL, NULL);
  }
  MlirValue p = mlirOperationGetResult(c->placeholder, 0);
  MlirValue *ops = ir_xmalloc((size_t)(nops ? nops : 1) * sizeof *ops);
  for (intptr_t i = 0; i < nops; ++i)
    ops[i] = p;
  MlirBlock *succ = ir_xmalloc((size_t)(nsucc ? nsucc : 1) * sizeof *succ);
  for (intptr_t i = 0; i < nsucc; ++i)
    succ[i] = c->block;
  MlirOperation tpl =
      ir_op_build(mlirStringRefCreate(name, len), nops, ops, nres, types,
                  nattrs, attrs, nsucc, succ, unknown);
  free(ops);
  free(succ);
  if (mlirOperationIsNull(tpl))
    return NULL;
  struct entry *e = ir_xcalloc(1, sizeof *e);
  e->name = ir_xmalloc(len + 1);
  memcpy(e->name, name, len);
  e->name[len] = '\0';
  e->name_len = len;
  e->nops = nops;
  e->nres = nres;
  e->nattrs = nattrs;
  e->nsucc = nsucc;
  e->types = ir_xmalloc((size_t)(nres ? nres : 1) * sizeof *e->types);
  if (nres)
    memcpy(e->types, types, (size_t)nres * sizeof *types);
  e->attrs = ir_xmalloc((size_t)(nattrs ? nattrs : 1) * sizeof *e->attrs);
  if (nattrs)
    memcpy(e->attrs, attrs, (size_t)nattrs * sizeof *attrs);
  e->tpl = tpl;
  return e;
}

static void grow(struct ir_op_cache *c) {
  size_t cap = c->cap ? 2 * c->cap : 256;
  struct ir_op_cache_slot *slots = ir_xcalloc(cap, sizeof *slots);
  for (size_t i = 0; i < c->cap; ++i) {
    if (!c->slots[i].hash)
      continue;
    size_t k = (size_t)c->slots[i].hash & (cap - 1);
    while (slots[k].hash)
      k = (k + 1) & (cap - 1);
    slots[k] = c->slots[i];
  }
  free(c->slots);
  c->slots = slots;
  c->cap = cap;
}

MlirOperation ir_op_cache_make(const char *name, intptr_t nOperands,
                               const MlirValue *operands, intptr_t nResults,
                               const MlirType *results, intptr_t nAttrs,
                               const MlirNamedAttribute *attrs,
                               intptr_t nSuccessors,
                               const MlirBlock *successors, MlirLocation loc) {
  struct ir_op_cache *c = innermost;
  if (!c || !mlirContextEqual(c->ctx, mlirLocationGetContext(loc)))
    return (MlirOperation){NULL};
  size_t len = strlen(name);
  uint64_t h = kind_hash(name, len, nOperands, nResults, results, nAttrs, attrs,
                         nSuccessors);
  if (2 * (c->used + 1) > c->cap)
    grow(c);
  size_t k = (size_t)h & (c->cap - 1);
  for (; c->slots[k].hash; k = (k + 1) & (c->cap - 1)) {
    if (c->slots[k].hash != h)
      continue;
    struct entry *e = c->slots[k].e;
    if (!e) { /* the second of its kind: from now on by copying */
      e = make_entry(c, name, len, nOperands, nResults, results, nAttrs, attrs,
                     nSuccessors);
      if (!e)
        return (MlirOperation){NULL};
      c->slots[k].e = e;
    } else if (!matches(e, name, len, nOperands, nResults, results, nAttrs,
                        attrs, nSuccessors)) {
      continue;
    }
    ++c->copies;
    return ir_op_copy(e->tpl, loc, nOperands, operands, nSuccessors,
                      successors);
  }
  c->slots[k].hash = h; /* the first of its kind: the caller builds it */
  ++c->used;
  return (MlirOperation){NULL};
}

MlirIdentifier ir_op_cache_identifier(MlirContext ctx, const char *name) {
  size_t len = strlen(name);
  MlirStringRef text = mlirStringRefCreate(name, len);
  struct ir_op_cache *c = innermost;
  if (!c || !mlirContextEqual(c->ctx, ctx))
    return mlirIdentifierGet(ctx, text);
  uint64_t h = text_hash(name, len);
  MlirIdentifier *slot = &c->names[(h ^ (h >> 32)) % IR_OP_CACHE_NAMES];
  if (slot->ptr) {
    MlirStringRef have = mlirIdentifierStr(*slot);
    if (have.length == len && !memcmp(have.data, name, len))
      return *slot;
  }
  *slot = mlirIdentifierGet(ctx, text);
  return *slot;
}

struct ir_op_cache_memo *ir_op_cache_memo(MlirContext ctx,
                                          enum ir_memo_kind kind, uint64_t a,
                                          uint64_t b) {
  struct ir_op_cache *c = innermost;
  if (!c || !mlirContextEqual(c->ctx, ctx))
    return NULL;
  uint64_t h = (a ^ (b * 0x9e3779b97f4a7c15ull) ^ (uint64_t)kind) *
               0xff51afd7ed558ccdull;
  struct ir_op_cache_memo *m = &c->memo[(h >> 32) % IR_OP_CACHE_MEMO];
  if (m->kind != (uint64_t)kind || m->a != a || m->b != b)
    *m = (struct ir_op_cache_memo){(uint64_t)kind, a, b, NULL};
  return m;
}
