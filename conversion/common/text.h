/* text.h - functions a conversion generates as MLIR text.
 *
 * The retcon and async lowerings add small helper functions (entries,
 * thunks, adapters) whose bodies are fixed up to a few types and names;
 * they are written as text, queued, and parsed into the module at once
 * (parsing verifies, and a symbol use verifies only when its symbol is in
 * the same module, so the queue is parsed together with declarations of
 * what it uses). Also: LLVM's intrinsic name mangling, and a few builders. */
#ifndef CORO_CONVERSION_COMMON_TEXT_H
#define CORO_CONVERSION_COMMON_TEXT_H

#include "conversion/common/abi.h"
#include "conversion/common/cb_compat.h"
#include "dialect/support.h"

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Appends printf-style text to `s`. */
void coro_str_appendf(struct coro_str *s, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* A quoted symbol reference @"<name><suffix>" (caller frees). */
struct coro_str coro_sym_text(const struct coro_str *name, const char *suffix);
/* `a` printed (caller frees). */
struct coro_str coro_attr_str(MlirAttribute a);

/* Queues one function's text. */
void coro_queue_func(struct coro_str *queue, const struct coro_str *text);
/* Parses `decls` (the first `ndecls` ops: declarations of symbols the queue
 * uses) and the queue as one module and moves every op after the
 * declarations into `module`. */
void coro_flush_funcs(MlirOperation module, const struct coro_str *decls,
                      const struct coro_str *queue, size_t ndecls);

/* Appends LLVM's mangled name of `t` (the suffix Intrinsic::getName gives
 * an overloaded intrinsic); false for a type it cannot mangle. */
bool coro_mangle_type(MlirType t, struct coro_str *out);

/* Appends a call of the allocator (`alloc`: `result = sym(arg) : (i64) ->
 * !llvm.ptr`) or deallocator (`sym(arg) : (!llvm.ptr) -> ()`) `sym`, with
 * func.call when `is_func`, else llvm.call. */
void coro_call_text(struct coro_str *out, MlirAttribute sym, bool is_func,
                    const char *result, const char *arg, bool alloc);

/* Appends declarations of the allocator pair (func.func or llvm.func, as
 * the module has them) for the declarations parsed with a queue: two ops. */
void coro_allocator_decls(struct coro_str *decls,
                          const struct coro_allocator *alloc);

/* Whether `func`'s coro.alloc is absent or "heap": what the ABIs whose
 * handle outlives the call that creates it (retcon, async) accept. */
bool coro_alloc_is_heap(MlirOperation func);

/* Checks that `base` + each suffix (NULL-terminated) names no symbol of
 * `module`; else an error at the clashing symbol naming `abi`. */
MlirLogicalResult coro_names_free(MlirOperation module,
                                  const struct coro_str *base, const char *abi,
                                  const char *const *suffixes);

/* Renames the coroutine `func` (named `name`) to the private function
 * NAME+suffix, freeing its name for the entry function the lowering
 * generates; returns the visibility that entry keeps ("" for public;
 * caller frees). */
struct coro_str coro_rename_private(MlirOperation func,
                                    const struct coro_str *name,
                                    const char *suffix);

/* Marks a lowered body for LLVM's CoroSplit ("presplitcoroutine"), never
 * inlined before it is split ("noinline"), and drops its coro.*
 * attributes. */
void coro_mark_lowered_body(MlirOperation func);

/* `llvm.mlir.addressof` of the symbol `sym` (text, e.g. @"f.x"). */
MlirValue coro_addressof(struct cb *b, const struct coro_str *sym);
/* `llvm.mlir.zero : t`. */
MlirValue coro_zero(struct cb *b, MlirType t);

#endif /* CORO_CONVERSION_COMMON_TEXT_H */
