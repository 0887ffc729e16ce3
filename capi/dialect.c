/* dialect.c - coro-c/Dialect.h: the public face of dialect/dialect.h, one
 * wrapper per entry point (the layers below capi/ never include the public
 * headers). */
#include "coro-c/Dialect.h"
#include "dialect/dialect.h"

MlirLogicalResult coroDialectLoad(MlirContext ctx) {
  return coro_dialect_load(ctx);
}
bool coroDialectIsLoaded(MlirContext ctx) {
  return coro_dialect_is_loaded(ctx);
}
MlirStringRef coroDialectGetNamespace(void) { return coro_dialect_namespace(); }
MlirStringRef coroDialectGetIRDLSource(void) {
  return coro_dialect_irdl_source();
}

MlirType coroHandleTypeGet(MlirType elem) { return coro_handle_type_get(elem); }
bool coroTypeIsAHandle(MlirType type) { return coro_type_is_handle(type); }
MlirType coroHandleTypeGetElementType(MlirType type) {
  return coro_handle_elem_type(type);
}
bool coroTypeIsNone(MlirType type) { return coro_type_is_none(type); }

MlirOperation coroBeginOpCreate(MlirLocation loc, MlirType handleType) {
  return coro_begin_op_create(loc, handleType);
}
MlirOperation coroYieldOpCreate(MlirLocation loc, MlirValue value,
                                MlirType resumeType) {
  return coro_yield_op_create(loc, value, resumeType);
}
MlirOperation coroAwaitOpCreate(MlirLocation loc, MlirValue awaited,
                                MlirType resultType) {
  return coro_await_op_create(loc, awaited, resultType);
}
MlirOperation coroEndOpCreate(MlirLocation loc, MlirValue handle,
                              MlirValue value) {
  return coro_end_op_create(loc, handle, value);
}
MlirOperation coroSelfOpCreate(MlirLocation loc, MlirType handleType) {
  return coro_self_op_create(loc, handleType);
}
MlirOperation coroResumeOpCreate(MlirLocation loc, MlirValue handle,
                                 MlirValue value) {
  return coro_resume_op_create(loc, handle, value);
}
MlirOperation coroDestroyOpCreate(MlirLocation loc, MlirValue handle) {
  return coro_destroy_op_create(loc, handle);
}
MlirOperation coroDoneOpCreate(MlirLocation loc, MlirValue handle) {
  return coro_done_op_create(loc, handle);
}
MlirOperation coroPromiseOpCreate(MlirLocation loc, MlirValue handle) {
  return coro_promise_op_create(loc, handle);
}
MlirOperation coroNoopOpCreate(MlirLocation loc) {
  return coro_noop_op_create(loc);
}
bool coroOpIsA(MlirOperation op, const char *name) {
  return coro_op_is_a(op, name);
}
bool coroOpIsCoroutine(MlirOperation op) { return coro_op_is_coroutine(op); }
MlirStringRef coroCoroutineGetABI(MlirOperation op) {
  return coro_coroutine_get_abi(op);
}
MlirOperation coroCoroutineCreate(MlirLocation loc, MlirStringRef name,
                                  MlirStringRef abi, intptr_t nArgs,
                                  const MlirType *argTypes,
                                  MlirType handleType) {
  return coro_coroutine_create(loc, name, abi, nArgs, argTypes, handleType);
}
