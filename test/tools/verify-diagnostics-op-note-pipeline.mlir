// The note on a diagnostic of a requested pass does not count either.
// RUN: coro-opt --verify-diagnostics %s --pass-pipeline='builtin.module(func.func(symbol-dce))'

func.func @g() { // expected-error {{was scheduled to run under SymbolDCE}}
  return
}
