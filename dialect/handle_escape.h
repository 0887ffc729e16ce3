/* handle_escape.h - whether a coroutine's handle can outlive the function
 * that created it, and whether that function releases the frame on every
 * path: the two facts --coro-elide needs before it puts a frame in its
 * caller.
 *
 * Invariant: "local" is a proof, never a guess. A handle is local when
 * every use of it, in the creating function and in the functions it is
 * passed to, is a consumer op that reads or drives the coroutine
 * (coro.resume, coro.done, coro.promise, coro.await) or coro.destroy; a
 * call passes it on only to a function of the module with
 * a body whose parameter is local in the same sense (and that is not a
 * coroutine, whose frame could outlive the caller). Anything
 * else (a return, a store, a block argument, a select, a call of a
 * declaration or through a pointer) is an escape, reported with the op
 * where it happens. A coroutine can also let its own handle escape (its
 * coro.begin or coro.self stored or passed on): then no call of it is
 * local. "Destroyed on every path" holds when, in the region of the call,
 * every path from the call to an exit of that region, or back to the call,
 * meets a coro.destroy of the handle in that region (one inside a nested
 * region, say an scf.if, does not count) or a call that passes it to a
 * function destroying that parameter on every path of its own. The
 * queries are linear in the uses and blocks they visit; a parameter's
 * answers are cached. */
#ifndef CORO_DIALECT_HANDLE_ESCAPE_H
#define CORO_DIALECT_HANDLE_ESCAPE_H

#include "ir/blocks.h"
#include "ir/support.h"

#include "mlir-c/IR.h"

#include <stdbool.h>

/* Where and why a handle is not local: `at` is the op (null when it is
 * local), `why` a phrase that completes "'CALLEE' not elided in 'CALLER':
 * ". */
struct handle_escape {
  MlirOperation at;
  struct coro_str why;
};

/* The analysis's state for one module: its answers for parameters and
 * for coroutines' own handles. */
struct handle_escape_cache {
  MlirOperation module;
  struct ir_ptrmap params;   /* block argument -> struct handle_escape * */
  struct ir_ptrmap destroys; /* block argument -> whether it is destroyed */
  struct ir_ptrmap selves;   /* coroutine -> struct handle_escape * */
};

/* Whether the frame the func.call `call` of the coroutine `callee` makes
 * stays local (see the invariant), checked in this order: the callee keeps
 * its own handle to itself (its coro.begin and coro.self results feed only
 * coro.end, the ramp's return and consumer ops); the call's handle is used
 * only locally; it is destroyed on every path from the call. On false,
 * `out` says where and why: the op that lets the handle escape, or the
 * exit op a path reaches first without coro.destroy (the call, when a path
 * reaches it again). */
bool handle_escape_call(struct handle_escape_cache *c, MlirOperation call,
                        MlirOperation callee, struct handle_escape *out);

void handle_escape_clear(struct handle_escape *e);
void handle_escape_cache_free(struct handle_escape_cache *c);

#endif /* CORO_DIALECT_HANDLE_ESCAPE_H */
