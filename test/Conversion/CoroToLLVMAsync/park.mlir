// RUN: coro-opt %S/lowering.mlir --convert-coro-to-llvm-async | FileCheck %s --check-prefix=ROUTEA
// RUN: sed -e '1i module attributes {coro.route = "mlir-split"} {' -e '$a }' %S/lowering.mlir \
// RUN:   | coro-opt --convert-coro-to-llvm-async | FileCheck %s --check-prefix=ROUTEB

// __coro_async_park records where a task continues. Under route B (a
// module marked coro.route = "mlir-split") it stores only another
// function: route B's resume entry calls the parked continuation directly
// and tells LLVM which it is, so once both are inlined a generator that
// parks where it was resumed stores nothing (docs/route-b.md, Resume
// cost). Under route A, which never knows, the store is unconditional (a
// test would only cost).

// ROUTEA-LABEL: llvm.func internal swifttailcc @__coro_async_park(
// ROUTEA-NEXT: %[[AT:.*]] = llvm.getelementptr %arg0[-32]
// ROUTEA-NEXT: llvm.store %arg1, %[[AT]] : !llvm.ptr, !llvm.ptr
// ROUTEA-NEXT: llvm.return

// ROUTEB-LABEL: llvm.func internal swifttailcc @__coro_async_park(
// ROUTEB-NEXT: %[[AT:.*]] = llvm.getelementptr %arg0[-32]
// ROUTEB-NEXT: %[[NOW:.*]] = llvm.load %[[AT]] : !llvm.ptr -> !llvm.ptr
// ROUTEB-NEXT: %[[SAME:.*]] = llvm.icmp "eq" %[[NOW]], %arg1 : !llvm.ptr
// ROUTEB-NEXT: llvm.cond_br %[[SAME]], ^[[RET:.*]], ^[[SET:[^ ]*]]
// ROUTEB: ^[[SET]]:
// ROUTEB-NEXT: llvm.store %arg1, %[[AT]] : !llvm.ptr, !llvm.ptr
// ROUTEB-NEXT: llvm.br ^[[RET]]
// ROUTEB: ^[[RET]]:
// ROUTEB-NEXT: llvm.return
