/* handle_origin.h - which coroutine a handle comes from: the one answer the
 * verifier, every conversion and the coming split share.
 *
 * Invariant: a handle's origin is known only when its definition shows it
 * directly: the result of a func.call of a coroutine of the module, or
 * coro.begin/coro.self inside a coroutine. Every other handle (a function
 * or block argument, a value loaded from memory or chosen by a select) has
 * an unknown origin, and code that uses it must work through the handle
 * header every ABI shares (coro-runtime/HandleLayout.h). The analysis is
 * local: O(1) per query plus one symbol lookup, nothing cached. */
#ifndef CORO_DIALECT_HANDLE_ORIGIN_H
#define CORO_DIALECT_HANDLE_ORIGIN_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* The coroutine (a func.func with coro.abi) the handle `h` comes from, or
 * null when its origin is unknown. `module` is the symbol table the callee
 * is looked up in. */
MlirOperation coro_handle_origin(MlirOperation module, MlirValue h);

/* The coro.abi of the coroutine `h` comes from; empty when unknown (or when
 * that coroutine's coro.abi is not a string). */
MlirStringRef coro_handle_abi(MlirOperation module, MlirValue h);

/* The coro.abi of the coroutine `func`; empty when `func` is not one. */
MlirStringRef coro_coroutine_abi(MlirOperation func);

/* Calls fn(abi, user) with the coro.abi of every coroutine of `module` (and
 * of the modules nested in it), in order, without entering any function's
 * body: what a pass needs to know which ABIs a module uses costs a look at
 * its functions, not a walk of every op. */
void coro_each_coroutine_abi(MlirOperation module,
                             void (*fn)(MlirStringRef abi, void *user),
                             void *user);

/* The func.func enclosing `op`, or null. */
MlirOperation coro_enclosing_func(MlirOperation op);

/* R, the type of the values `coroutine`'s yields receive on resume (the
 * verifier makes every yield agree), or a null type when they receive
 * none. */
MlirType coro_resume_type(MlirOperation coroutine);

#endif /* CORO_DIALECT_HANDLE_ORIGIN_H */
