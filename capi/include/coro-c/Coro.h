/*===-- coro-c/Coro.h - The whole public C API of coro ------------*- C -*-===*\
|*                                                                            *|
|* Include this header to use coro from C: it includes every public header.   *|
|* Ownership follows the MLIR C API: `Create` returns an owned object the     *|
|* caller must destroy or transfer, `Get` returns a borrowed one (usually     *|
|* owned by the context), and each prototype comment says which.              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_C_CORO_H
#define CORO_C_CORO_H

#include "coro-c/Diagnostics.h"
#include "coro-c/Dialect.h"
#include "coro-c/JIT.h"
#include "coro-c/Lowering.h"
#include "coro-c/Passes.h"
#include "coro-c/Translate.h"

#endif /* CORO_C_CORO_H */
