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

/// Loads the coro dialect into `ctx` (borrowed), registers every upstream
/// dialect in it, and loads those coroutines are written with (func, arith,
/// cf, scf, llvm) so that ops built from C are registered ops; the parser
/// loads the other registered dialects on use. Idempotent: a second call
/// on the same context does nothing and succeeds. Not safe to call
/// concurrently on one context. Fails (with a diagnostic on `ctx`) only if
/// the embedded definition does not load.
MlirLogicalResult coroDialectLoad(MlirContext ctx);

/// Whether the coro dialect is loaded in `ctx` (borrowed).
bool coroDialectIsLoaded(MlirContext ctx);

/// The dialect's name, "coro". The string is static (borrowed, never freed).
MlirStringRef coroDialectGetNamespace(void);

/// The IRDL source of the dialect, as embedded. The string is static
/// (borrowed, never freed) and not NUL-terminated.
MlirStringRef coroDialectGetIRDLSource(void);

//===----------------------------------------------------------------------===//
// !coro.handle<T>
//===----------------------------------------------------------------------===//

/// Returns `!coro.handle<elem>` (owned by the context). `elem` is borrowed;
/// use the builtin `none` type for a handle that publishes nothing. Returns a
/// null type if `elem` is null or the dialect is not loaded in its context.
MlirType coroHandleTypeGet(MlirType elem);

/// Whether `type` (borrowed) is a `!coro.handle<T>`. False for a null type.
bool coroTypeIsAHandle(MlirType type);

/// The `T` of `type` (borrowed), a `!coro.handle<T>`; the result is owned by
/// the context. Null type if `type` is not a handle.
MlirType coroHandleTypeGetElementType(MlirType type);

/// Whether `type` (borrowed) is the builtin `none` type. False for null.
bool coroTypeIsNone(MlirType type);

//===----------------------------------------------------------------------===//
// Operations. Each builder returns a detached operation owned by the caller
// (transfer it with mlirBlockAppendOwnedOperation/InsertOwnedOperation...,
// or free it with mlirOperationDestroy). Locations, values and types passed
// in are borrowed. Optional operands and result types are passed as null
// values/types to mean absent; a null required operand gives a null
// operation. The builders check arity only; the types are checked by
// mlirOperationVerify (IRDL constraints) and coroVerify (the dialect rules).
//===----------------------------------------------------------------------===//

/// `%h = "coro.begin"() : () -> !coro.handle<T>`. Owned result.
MlirOperation coroBeginOpCreate(MlirLocation loc, MlirType handleType);

/// `%destroyed[, %resumed] = "coro.yield"(%value?) : (T?) -> (i1, R?)`.
/// `value` may be null (publishes nothing); `resumeType` may be null (no
/// value passed on resume; only the retcon ABIs accept one). Owned result.
MlirOperation coroYieldOpCreate(MlirLocation loc, MlirValue value,
                                MlirType resumeType);

/// `[%r =] "coro.await"(%awaited)`. `resultType` may be null (no result).
/// Owned result.
MlirOperation coroAwaitOpCreate(MlirLocation loc, MlirValue awaited,
                                MlirType resultType);

/// `"coro.end"(%handle, %value?)`. `value` may be null (no final result).
/// Owned result.
MlirOperation coroEndOpCreate(MlirLocation loc, MlirValue handle,
                              MlirValue value);

/// `%h = "coro.self"() : () -> !coro.handle<T>`. Owned result.
MlirOperation coroSelfOpCreate(MlirLocation loc, MlirType handleType);

/// `"coro.resume"(%handle, %value?)`. `value` may be null. Owned result.
MlirOperation coroResumeOpCreate(MlirLocation loc, MlirValue handle,
                                 MlirValue value);

/// `"coro.destroy"(%handle)`. Owned result.
MlirOperation coroDestroyOpCreate(MlirLocation loc, MlirValue handle);

/// `%done = "coro.done"(%handle) : (!coro.handle<T>) -> i1`. Owned result.
MlirOperation coroDoneOpCreate(MlirLocation loc, MlirValue handle);

/// `%v = "coro.promise"(%handle) : (!coro.handle<T>) -> T`; the result type
/// is the handle's element type. Null if `handle` is not a handle. Owned
/// result. coroVerify rejects it on a `!coro.handle<none>`.
MlirOperation coroPromiseOpCreate(MlirLocation loc, MlirValue handle);

/// `%h = "coro.noop"() : () -> !coro.handle<none>`. Owned result.
MlirOperation coroNoopOpCreate(MlirLocation loc);

/// Whether `op` (borrowed) is the coro op named `name` without the dialect
/// prefix ("begin", "yield", ...). `name` is borrowed and NUL-terminated.
/// False for a null operation.
bool coroOpIsA(MlirOperation op, const char *name);

/// Whether `op` (borrowed) is a coroutine: a `func.func` with a `coro.abi`
/// attribute. False for a null operation.
bool coroOpIsCoroutine(MlirOperation op);

/// The `coro.abi` string of the coroutine `op` (borrowed), e.g. "switch";
/// the string is borrowed from the context and not NUL-terminated. A null
/// string (data NULL, length 0) if `op` is not a coroutine or its `coro.abi`
/// is not a string attribute. The value is not checked against the known
/// ABIs: coroVerify does that.
MlirStringRef coroCoroutineGetABI(MlirOperation op);

/// Creates a coroutine `func.func @name(argTypes...) -> handleType` with
/// `coro.abi = abi` ("switch", "retcon", "retcon.once" or "async") and an
/// empty entry block whose arguments match `argTypes`. The name and abi
/// strings, `loc` and the types are borrowed; the result is detached and
/// owned by the caller. Further function attributes (`coro.alloc`, ...) are
/// set with mlirOperationSetAttributeByName.
MlirOperation coroCoroutineCreate(MlirLocation loc, MlirStringRef name,
                                  MlirStringRef abi, intptr_t nArgs,
                                  const MlirType *argTypes,
                                  MlirType handleType);

//===----------------------------------------------------------------------===//
// Parsing and listing, as mlir-opt does them
//===----------------------------------------------------------------------===//

/// Parses `source` (borrowed) as mlir-opt does: a lone top-level
/// builtin.module is the result; anything else (no op, several ops, one op
/// of another kind) is wrapped in a new module. Every location, the
/// implicit module's included, carries `sourceName` (borrowed, copied) as
/// its file name, where mlirModuleCreateParse writes "-". Returns a module
/// owned by the caller, or a null module after error diagnostics on `ctx`
/// (borrowed).
MlirModule coroModuleCreateParseWithName(MlirContext ctx, MlirStringRef source,
                                         MlirStringRef sourceName);

/// Calls `callback(name, userData)` for every dialect `ctx` (borrowed) can
/// load or has loaded (the registered ones and those loaded from IRDL, such
/// as coro), each once, sorted by name. `name` is borrowed from the context.
void coroContextForEachAvailableDialect(MlirContext ctx,
                                        void (*callback)(MlirStringRef name,
                                                         void *userData),
                                        void *userData);

#ifdef __cplusplus
}
#endif

#endif /* CORO_C_DIALECT_H */
