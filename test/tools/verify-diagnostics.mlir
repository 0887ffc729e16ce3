// --verify-diagnostics: every produced diagnostic matches an annotation and
// every annotation is produced; then the exit status is 0.
// RUN: coro-opt --split-input-file --verify-diagnostics %s

func.func @f(%x: i32) {
  // expected-error@+2 {{expected base type 'coro.handle' but got 'builtin.integer'}}
  // expected-note@+1 {{see current operation}}
  %0 = "coro.done"(%x) : (i32) -> i1
  return
}

// -----

func.func @f(%x: i32) {
  %0 = "coro.done"(%x) : (i32) -> i1
  // expected-error@-1 {{expected base type}}
  // expected-note@-2 {{see current operation}}
  return
}

// -----

func.func @f(%x: i32) {
  // expected-error@below {{expected base type}}
  %0 = "coro.done"(%x) : (i32) -> i1
  // expected-note@above {{see current operation}}
  return
}

// -----

func.func @f() {
  return %nope : i32 // expected-error {{use of undeclared SSA value name}}
}

// -----

// A diagnostic without a location matches @unknown.
func.func @f(%x: i32) {
  // expected-error@unknown {{expected base type}}
  // expected-note@unknown {{see current operation}}
  %0 = "coro.done"(%x) : (i32) -> i1 loc(unknown)
  return
}

// -----

// As in mlir-opt, blanks may separate the severity from its '@'.
func.func @f(%x: i32) {
  // expected-error @+2 {{expected base type}}
  // expected-note	@+1 {{see current operation}}
  %0 = "coro.done"(%x) : (i32) -> i1
  return
}
