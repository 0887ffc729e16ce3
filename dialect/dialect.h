/* dialect.h - the coro dialect inside the library: loading it, the
 * !coro.handle<T> type, op builders and predicates.
 *
 * The layers below capi/ (dialect, ir, conversion, transforms) use these;
 * the public C API (coro-c/Dialect.h) wraps them one to one in
 * capi/dialect.c. The semantics, ownership and null conventions are the
 * public header's: builders return detached ops the caller owns; a null
 * required operand gives a null op. */
#ifndef CORO_DIALECT_DIALECT_H
#define CORO_DIALECT_DIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>

MlirLogicalResult coro_dialect_load(MlirContext ctx);
bool coro_dialect_is_loaded(MlirContext ctx);
MlirStringRef coro_dialect_namespace(void);
MlirStringRef coro_dialect_irdl_source(void);

MlirType coro_handle_type_get(MlirType elem);
bool coro_type_is_handle(MlirType type);
MlirType coro_handle_elem_type(MlirType type);
bool coro_type_is_none(MlirType type);

MlirOperation coro_begin_op_create(MlirLocation loc, MlirType handleType);
MlirOperation coro_yield_op_create(MlirLocation loc, MlirValue value,
                                   MlirType resumeType);
MlirOperation coro_await_op_create(MlirLocation loc, MlirValue awaited,
                                   MlirType resultType);
MlirOperation coro_end_op_create(MlirLocation loc, MlirValue handle,
                                 MlirValue value);
MlirOperation coro_self_op_create(MlirLocation loc, MlirType handleType);
MlirOperation coro_resume_op_create(MlirLocation loc, MlirValue handle,
                                    MlirValue value);
MlirOperation coro_destroy_op_create(MlirLocation loc, MlirValue handle);
MlirOperation coro_done_op_create(MlirLocation loc, MlirValue handle);
MlirOperation coro_promise_op_create(MlirLocation loc, MlirValue handle);
MlirOperation coro_noop_op_create(MlirLocation loc);
bool coro_op_is_a(MlirOperation op, const char *name);
bool coro_op_is_coroutine(MlirOperation op);
MlirStringRef coro_coroutine_get_abi(MlirOperation op);
MlirOperation coro_coroutine_create(MlirLocation loc, MlirStringRef name,
                                    MlirStringRef abi, intptr_t nArgs,
                                    const MlirType *argTypes,
                                    MlirType handleType);

#endif /* CORO_DIALECT_DIALECT_H */
