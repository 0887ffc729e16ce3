; An intrinsic of another LLVM's signature (llvm.coro.end returned i1
; before LLVM 21) in a module with debug info.
define void @f(ptr %h) !dbg !5 {
  %r = call i1 @llvm.coro.end(ptr %h, i1 false, token none), !dbg !8
  ret void, !dbg !8
}
declare i1 @llvm.coro.end(ptr, i1, token)
!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!3, !4}
!0 = distinct !DICompileUnit(language: DW_LANG_C, file: !1, producer: "x", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug)
!1 = !DIFile(filename: "f.c", directory: "/tmp")
!3 = !{i32 7, !"Dwarf Version", i32 5}
!4 = !{i32 2, !"Debug Info Version", i32 3}
!5 = distinct !DISubprogram(name: "f", scope: !1, file: !1, line: 3, type: !6, scopeLine: 3, spFlags: DISPFlagDefinition, unit: !0)
!6 = !DISubroutineType(types: !7)
!7 = !{}
!8 = !DILocation(line: 4, column: 5, scope: !5)
