// RUN: coro-opt %S/lowering.mlir --convert-coro-to-llvm-async | FileCheck %s --check-prefix=ROUTEA
// RUN: sed -e '1i module attributes {coro.route = "mlir-split"} {' -e '$a }' %S/lowering.mlir \
// RUN:   | coro-opt --convert-coro-to-llvm-async | FileCheck %s --check-prefix=ROUTEB

// __coro_async_park records where a task continues. Under route B (a
// module marked coro.route = "mlir-split") it stores only another
// function: route B's resume entry calls the parked continuation directly
// and tells LLVM which it is, so once both are inlined a generator that
// parks where it was resumed stores nothing (docs/route-b.md, Resume
// cost). Under route A, which never knows, the store is unconditional (a
// test would only cost). Then, under both, a task the runtime knows (its
// state word at -80 is not 0) tells it that it parked: it may have been
// submitted while it ran (docs/async-lowering.md, Across threads).

// ROUTEA-LABEL: llvm.func internal swifttailcc @__coro_async_park(
// ROUTEA-NEXT: %[[AT:.*]] = llvm.getelementptr %arg0[-32]
// ROUTEA-NEXT: llvm.store %arg1, %[[AT]] : !llvm.ptr, !llvm.ptr
// ROUTEA-NEXT: %[[SP:.*]] = llvm.getelementptr %arg0[-80]
// ROUTEA-NEXT: %[[S:.*]] = llvm.load %[[SP]] {{.*}} : !llvm.ptr -> i64
// ROUTEA-NEXT: %[[Z:.*]] = llvm.mlir.constant(0 : i64)
// ROUTEA-NEXT: %[[KNOWN:.*]] = llvm.icmp "ne" %[[S]], %[[Z]]
// ROUTEA-NEXT: llvm.cond_br %[[KNOWN]], ^[[TELL:.*]], ^[[DONE:[^ ]*]]
// ROUTEA: ^[[TELL]]:
// ROUTEA-NEXT: llvm.call @coro_rt_task_park(%arg0)
// ROUTEA-NEXT: llvm.br ^[[DONE]]
// ROUTEA: ^[[DONE]]:
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
// ROUTEB-NEXT: llvm.getelementptr %arg0[-80]
// ROUTEB: llvm.call @coro_rt_task_park(%arg0)
// ROUTEB: llvm.return
