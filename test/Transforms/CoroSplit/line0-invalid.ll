; RUN: not coro-opt %s --coro-split 2>&1 | FileCheck %s
; RUN: not coro-translate %s --emit=obj --route=mlir-split -o %t.o 2>&1 | FileCheck %s
; RUN: not coro-translate %s --emit=obj --route=mlir-split -O2 -o %t.o 2>&1 | FileCheck %s

; An error about an op whose debug location has line 0 (LLVM's "no source
; line": clang gives its coroutine intrinsics such locations in code built
; with -g) is reported at the function's line, not at "coro.cpp:0:0"
; (unlocated). The promise of llvm.coro.id here is a global, which
; --coro-split refuses.

; CHECK-NOT: :0:0:
; CHECK: coro.cpp:3:0: error: the promise of llvm.coro.id must be an llvm.alloca
; CHECK-NOT: :0:0:

@g = global i32 0
define ptr @f() presplitcoroutine !dbg !5 {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr @g, ptr null, ptr null), !dbg !9
  %size = call i32 @llvm.coro.size.i32(), !dbg !8
  %alloc = call ptr @malloc(i32 %size), !dbg !8
  %hdl = call ptr @llvm.coro.begin(token %id, ptr %alloc), !dbg !8
  %s = call i8 @llvm.coro.suspend(token none, i1 false), !dbg !8
  switch i8 %s, label %ret [ i8 0, label %cleanup
                             i8 1, label %cleanup ], !dbg !8
cleanup:
  %mem = call ptr @llvm.coro.free(token %id, ptr %hdl), !dbg !8
  call void @free(ptr %mem), !dbg !8
  br label %ret, !dbg !8
ret:
  call void @llvm.coro.end(ptr %hdl, i1 false, token none), !dbg !8
  ret ptr %hdl, !dbg !8
}
declare noalias ptr @malloc(i32)
declare void @free(ptr)
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "coro.cpp", directory: "/tmp")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 4, column: 5, scope: !5)
!9 = !DILocation(line: 0, scope: !5)
