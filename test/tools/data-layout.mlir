// An access without an alignment gets its type's ABI alignment in the
// target's data layout, which the module is translated under: i64 and f64
// at 8 bytes on x86-64 and NVPTX (LLVM's default layout has them at 4, and
// the NVPTX backend then split each access into two 32-bit ones). A module
// that states its own data layout is translated under it (the target's
// replaces it afterwards).
// RUN: coro-translate --route=llvm %s --emit=llvm | FileCheck %s --check-prefix=HOST
// RUN: coro-translate %s --emit=llvm -O2 --route=mlir-split | FileCheck %s --check-prefix=HOST
// RUN: coro-translate %s --emit=ptx | FileCheck %s --check-prefix=PTX
// RUN: coro-translate %s --emit=ptx -O2 | FileCheck %s --check-prefix=PTX
// RUN: sed 's/^module {/module attributes {llvm.data_layout = "e-i64:32-f64:32"} {/' %s > %t.own.mlir
// RUN: coro-translate --route=llvm %t.own.mlir --emit=llvm | FileCheck %s --check-prefix=OWN

// HOST-LABEL: define {{.*}}void @bump(
// HOST: load i64, ptr %{{.*}}, align 8
// HOST: load double, ptr %{{.*}}, align 8
// HOST: store i64 %{{.*}}, ptr %{{.*}}, align 8
// HOST: store double %{{.*}}, ptr %{{.*}}, align 8

// PTX-LABEL: .entry bump(
// PTX-NOT: .b32
// PTX: ld{{(.global)?}}.b64
// PTX: ld{{(.global)?}}.b64
// PTX: st{{(.global)?}}.b64
// PTX: st{{(.global)?}}.b64

// OWN: load i64, ptr %{{.*}}, align 4
module {
func.func @bump(%p: !llvm.ptr) attributes {gpu.kernel} {
  %q = llvm.getelementptr %p[1] : (!llvm.ptr) -> !llvm.ptr, i64
  %i = llvm.load %p : !llvm.ptr -> i64
  %d = llvm.load %q : !llvm.ptr -> f64
  %c1 = arith.constant 1 : i64
  %i2 = arith.addi %i, %c1 : i64
  %d2 = arith.addf %d, %d : f64
  llvm.store %i2, %p : i64, !llvm.ptr
  llvm.store %d2, %q : f64, !llvm.ptr
  return
}
}
