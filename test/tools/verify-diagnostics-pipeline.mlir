// --verify-diagnostics checks the diagnostics of the requested passes too.
// RUN: coro-opt --verify-diagnostics %s --pass-pipeline='builtin.module(func.func(symbol-dce))'

func.func @g() { // expected-error {{was scheduled to run under SymbolDCE}}
  // expected-note@-1 {{see current operation}}
  return
}
