/*===-- coro-c/Dialect.h - The coro dialect: loading, types, ops --*- C -*-===*\
|*                                                                            *|
|* The dialect is defined in IRDL (dialect/coro.irdl.mlir), embedded in the   *|
|* library at build time. Its ops print in generic form:                      *|
|*   %h = "coro.begin"() : () -> !coro.handle<i32>                            *|
|* The op builders below create detached operations; the caller owns the     *|
|* result until it inserts it into a block (see mlirBlockAppendOwnedOperation)*|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_C_DIALECT_H
#define CORO_C_DIALECT_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#ifdef __cplusplus
extern "C" {
#endif

/// Loads the coro dialect, and the upstream dialects it is used with (every
/// dialect MLIR registers), into `ctx` (borrowed). Idempotent: a second call
/// on the same context does nothing and succeeds. Not safe to call
/// concurrently on one context. Fails (with a diagnostic on `ctx`) only if
/// the embedded definition does not load.
MlirLogicalResult coroDialectLoad(MlirContext ctx);

/// Whether the coro dialect is loaded in `ctx` (borrowed).
bool coroDialectIsLoaded(MlirContext ctx);

/// The dialect's name, "coro". The string is static.
MlirStringRef coroDialectGetNamespace(void);

/// The IRDL source of the dialect, as embedded. The string is static.
MlirStringRef coroDialectGetIRDLSource(void);

//===----------------------------------------------------------------------===//
// !coro.handle<T>
//===----------------------------------------------------------------------===//

/// Returns `!coro.handle<elem>` (owned by the context). `elem` is borrowed;
/// use the builtin `none` type for a handle that publishes nothing. The
/// dialect must be loaded in `elem`'s context; returns a null type otherwise.
MlirType coroHandleTypeGet(MlirType elem);

/// Whether `type` (borrowed) is a `!coro.handle<T>`.
bool coroTypeIsAHandle(MlirType type);

/// The `T` of a `!coro.handle<T>` (owned by the context); null type if
/// `type` is not a handle.
MlirType coroHandleTypeGetElementType(MlirType type);

/// Whether `type` is the builtin `none` type.
bool coroTypeIsNone(MlirType type);

//===----------------------------------------------------------------------===//
// Operations. Each returns a detached, caller-owned operation. Optional
// operands and result types are passed as null values/types to mean absent.
//===----------------------------------------------------------------------===//

/// `%h = "coro.begin"() : () -> !coro.handle<T>`.
MlirOperation coroBeginOpCreate(MlirLocation loc, MlirType handleType);

/// `%destroyed[, %resumed] = "coro.yield"(%value?)`. `value` may be null
/// (publishes nothing); `resumeType` may be null (no value passed on resume;
/// only the retcon ABIs accept one).
MlirOperation coroYieldOpCreate(MlirLocation loc, MlirValue value,
                                MlirType resumeType);

/// `[%r =] "coro.await"(%awaited)`. `resultType` may be null (no result).
MlirOperation coroAwaitOpCreate(MlirLocation loc, MlirValue awaited,
                                MlirType resultType);

/// `"coro.end"(%handle, %value?)`. `value` may be null (no final result).
MlirOperation coroEndOpCreate(MlirLocation loc, MlirValue handle,
                              MlirValue value);

/// `%h = "coro.self"() : () -> !coro.handle<T>`.
MlirOperation coroSelfOpCreate(MlirLocation loc, MlirType handleType);

/// `"coro.resume"(%handle, %value?)`. `value` may be null.
MlirOperation coroResumeOpCreate(MlirLocation loc, MlirValue handle,
                                 MlirValue value);

/// `"coro.destroy"(%handle)`.
MlirOperation coroDestroyOpCreate(MlirLocation loc, MlirValue handle);

/// `%done = "coro.done"(%handle) : (...) -> i1`.
MlirOperation coroDoneOpCreate(MlirLocation loc, MlirValue handle);

/// `%v = "coro.promise"(%handle) : (!coro.handle<T>) -> T`; the result type
/// is the handle's element type.
MlirOperation coroPromiseOpCreate(MlirLocation loc, MlirValue handle);

/// `%h = "coro.noop"() : () -> !coro.handle<none>`.
MlirOperation coroNoopOpCreate(MlirLocation loc);

/// Whether `op` (borrowed) is the coro op named `name` without the dialect
/// prefix ("begin", "yield", ...). `name` is borrowed.
bool coroOpIsA(MlirOperation op, const char *name);

/// Whether `op` is a coroutine: a `func.func` with a `coro.abi` attribute.
bool coroOpIsCoroutine(MlirOperation op);

/// Creates a coroutine `func.func @name(argTypes...) -> !coro.handle<T>` with
/// `coro.abi = abi` ("switch", "retcon", "retcon.once" or "async") and an
/// empty entry block whose arguments match `argTypes`. The name and abi
/// strings and the types are borrowed; the result is detached and owned by
/// the caller.
MlirOperation coroCoroutineCreate(MlirLocation loc, MlirStringRef name,
                                  MlirStringRef abi, intptr_t nArgs,
                                  const MlirType *argTypes,
                                  MlirType handleType);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_DIALECT_H */
