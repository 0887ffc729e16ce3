/* retcon_once.h - the retcon.once rule: exactly one suspension on every
 * path from the entry of a coroutine to each of its coro.end ops. */
#ifndef CORO_DIALECT_RETCON_ONCE_H
#define CORO_DIALECT_RETCON_ONCE_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

/* Checks `func` (a retcon.once coroutine); emits a located error per
 * violation and returns failure if there is any. */
MlirLogicalResult retcon_once_check(MlirOperation func);

#endif /* CORO_DIALECT_RETCON_ONCE_H */
