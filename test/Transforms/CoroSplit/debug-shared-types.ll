; RUN: timeout 120 coro-opt %s --coro-split --remarks-filter=coro-split 2>&1 | FileCheck %s
; RUN: timeout 120 coro-translate %s --emit=obj --route=mlir-split -O2 -o %t.o

; A coroutine whose debug info shares its types (clang's for std::map:
; each type reached along many paths). --coro-split asked whether the
; coroutine's location names a subprogram by printing that attribute and
; reading its mnemonic; MLIR's printer writes a shared type out in full
; wherever it occurs, so here (a chain of 40 structs, each with two
; members of the one before) the text would be 2^40 types long: the
; split never ended (clang's std::map coroutines: minutes and gigabytes).
; It now compares the attribute's TypeID. `timeout` only bounds a hang:
; the split takes milliseconds.

; CHECK: remark: Split 'f' (frame_size=

define ptr @f(i32 %n) presplitcoroutine !dbg !5 {
entry:
  %id = call token @llvm.coro.id(i32 0, ptr null, ptr null, ptr null), !dbg !8
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
!7 = !{null, !260}
!8 = !DILocation(line: 4, column: 5, scope: !5)
!10 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!104 = !DICompositeType(tag: DW_TAG_structure_type, name: "s1", file: !1, line: 1, size: 128, elements: !107)
!105 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !104, file: !1, line: 1, baseType: !10, size: 32)
!106 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !104, file: !1, line: 1, baseType: !10, size: 32, offset: 32)
!107 = !{!105, !106}
!108 = !DICompositeType(tag: DW_TAG_structure_type, name: "s2", file: !1, line: 1, size: 256, elements: !111)
!109 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !108, file: !1, line: 1, baseType: !104, size: 32)
!110 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !108, file: !1, line: 1, baseType: !104, size: 32, offset: 32)
!111 = !{!109, !110}
!112 = !DICompositeType(tag: DW_TAG_structure_type, name: "s3", file: !1, line: 1, size: 512, elements: !115)
!113 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !112, file: !1, line: 1, baseType: !108, size: 32)
!114 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !112, file: !1, line: 1, baseType: !108, size: 32, offset: 32)
!115 = !{!113, !114}
!116 = !DICompositeType(tag: DW_TAG_structure_type, name: "s4", file: !1, line: 1, size: 1024, elements: !119)
!117 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !116, file: !1, line: 1, baseType: !112, size: 32)
!118 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !116, file: !1, line: 1, baseType: !112, size: 32, offset: 32)
!119 = !{!117, !118}
!120 = !DICompositeType(tag: DW_TAG_structure_type, name: "s5", file: !1, line: 1, size: 2048, elements: !123)
!121 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !120, file: !1, line: 1, baseType: !116, size: 32)
!122 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !120, file: !1, line: 1, baseType: !116, size: 32, offset: 32)
!123 = !{!121, !122}
!124 = !DICompositeType(tag: DW_TAG_structure_type, name: "s6", file: !1, line: 1, size: 4096, elements: !127)
!125 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !124, file: !1, line: 1, baseType: !120, size: 32)
!126 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !124, file: !1, line: 1, baseType: !120, size: 32, offset: 32)
!127 = !{!125, !126}
!128 = !DICompositeType(tag: DW_TAG_structure_type, name: "s7", file: !1, line: 1, size: 8192, elements: !131)
!129 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !128, file: !1, line: 1, baseType: !124, size: 32)
!130 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !128, file: !1, line: 1, baseType: !124, size: 32, offset: 32)
!131 = !{!129, !130}
!132 = !DICompositeType(tag: DW_TAG_structure_type, name: "s8", file: !1, line: 1, size: 16384, elements: !135)
!133 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !132, file: !1, line: 1, baseType: !128, size: 32)
!134 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !132, file: !1, line: 1, baseType: !128, size: 32, offset: 32)
!135 = !{!133, !134}
!136 = !DICompositeType(tag: DW_TAG_structure_type, name: "s9", file: !1, line: 1, size: 32768, elements: !139)
!137 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !136, file: !1, line: 1, baseType: !132, size: 32)
!138 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !136, file: !1, line: 1, baseType: !132, size: 32, offset: 32)
!139 = !{!137, !138}
!140 = !DICompositeType(tag: DW_TAG_structure_type, name: "s10", file: !1, line: 1, size: 65536, elements: !143)
!141 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !140, file: !1, line: 1, baseType: !136, size: 32)
!142 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !140, file: !1, line: 1, baseType: !136, size: 32, offset: 32)
!143 = !{!141, !142}
!144 = !DICompositeType(tag: DW_TAG_structure_type, name: "s11", file: !1, line: 1, size: 131072, elements: !147)
!145 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !144, file: !1, line: 1, baseType: !140, size: 32)
!146 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !144, file: !1, line: 1, baseType: !140, size: 32, offset: 32)
!147 = !{!145, !146}
!148 = !DICompositeType(tag: DW_TAG_structure_type, name: "s12", file: !1, line: 1, size: 262144, elements: !151)
!149 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !148, file: !1, line: 1, baseType: !144, size: 32)
!150 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !148, file: !1, line: 1, baseType: !144, size: 32, offset: 32)
!151 = !{!149, !150}
!152 = !DICompositeType(tag: DW_TAG_structure_type, name: "s13", file: !1, line: 1, size: 524288, elements: !155)
!153 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !152, file: !1, line: 1, baseType: !148, size: 32)
!154 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !152, file: !1, line: 1, baseType: !148, size: 32, offset: 32)
!155 = !{!153, !154}
!156 = !DICompositeType(tag: DW_TAG_structure_type, name: "s14", file: !1, line: 1, size: 1048576, elements: !159)
!157 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !156, file: !1, line: 1, baseType: !152, size: 32)
!158 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !156, file: !1, line: 1, baseType: !152, size: 32, offset: 32)
!159 = !{!157, !158}
!160 = !DICompositeType(tag: DW_TAG_structure_type, name: "s15", file: !1, line: 1, size: 2097152, elements: !163)
!161 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !160, file: !1, line: 1, baseType: !156, size: 32)
!162 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !160, file: !1, line: 1, baseType: !156, size: 32, offset: 32)
!163 = !{!161, !162}
!164 = !DICompositeType(tag: DW_TAG_structure_type, name: "s16", file: !1, line: 1, size: 4194304, elements: !167)
!165 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !164, file: !1, line: 1, baseType: !160, size: 32)
!166 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !164, file: !1, line: 1, baseType: !160, size: 32, offset: 32)
!167 = !{!165, !166}
!168 = !DICompositeType(tag: DW_TAG_structure_type, name: "s17", file: !1, line: 1, size: 8388608, elements: !171)
!169 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !168, file: !1, line: 1, baseType: !164, size: 32)
!170 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !168, file: !1, line: 1, baseType: !164, size: 32, offset: 32)
!171 = !{!169, !170}
!172 = !DICompositeType(tag: DW_TAG_structure_type, name: "s18", file: !1, line: 1, size: 16777216, elements: !175)
!173 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !172, file: !1, line: 1, baseType: !168, size: 32)
!174 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !172, file: !1, line: 1, baseType: !168, size: 32, offset: 32)
!175 = !{!173, !174}
!176 = !DICompositeType(tag: DW_TAG_structure_type, name: "s19", file: !1, line: 1, size: 33554432, elements: !179)
!177 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !176, file: !1, line: 1, baseType: !172, size: 32)
!178 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !176, file: !1, line: 1, baseType: !172, size: 32, offset: 32)
!179 = !{!177, !178}
!180 = !DICompositeType(tag: DW_TAG_structure_type, name: "s20", file: !1, line: 1, size: 67108864, elements: !183)
!181 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !180, file: !1, line: 1, baseType: !176, size: 32)
!182 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !180, file: !1, line: 1, baseType: !176, size: 32, offset: 32)
!183 = !{!181, !182}
!184 = !DICompositeType(tag: DW_TAG_structure_type, name: "s21", file: !1, line: 1, size: 67108864, elements: !187)
!185 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !184, file: !1, line: 1, baseType: !180, size: 32)
!186 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !184, file: !1, line: 1, baseType: !180, size: 32, offset: 32)
!187 = !{!185, !186}
!188 = !DICompositeType(tag: DW_TAG_structure_type, name: "s22", file: !1, line: 1, size: 67108864, elements: !191)
!189 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !188, file: !1, line: 1, baseType: !184, size: 32)
!190 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !188, file: !1, line: 1, baseType: !184, size: 32, offset: 32)
!191 = !{!189, !190}
!192 = !DICompositeType(tag: DW_TAG_structure_type, name: "s23", file: !1, line: 1, size: 67108864, elements: !195)
!193 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !192, file: !1, line: 1, baseType: !188, size: 32)
!194 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !192, file: !1, line: 1, baseType: !188, size: 32, offset: 32)
!195 = !{!193, !194}
!196 = !DICompositeType(tag: DW_TAG_structure_type, name: "s24", file: !1, line: 1, size: 67108864, elements: !199)
!197 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !196, file: !1, line: 1, baseType: !192, size: 32)
!198 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !196, file: !1, line: 1, baseType: !192, size: 32, offset: 32)
!199 = !{!197, !198}
!200 = !DICompositeType(tag: DW_TAG_structure_type, name: "s25", file: !1, line: 1, size: 67108864, elements: !203)
!201 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !200, file: !1, line: 1, baseType: !196, size: 32)
!202 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !200, file: !1, line: 1, baseType: !196, size: 32, offset: 32)
!203 = !{!201, !202}
!204 = !DICompositeType(tag: DW_TAG_structure_type, name: "s26", file: !1, line: 1, size: 67108864, elements: !207)
!205 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !204, file: !1, line: 1, baseType: !200, size: 32)
!206 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !204, file: !1, line: 1, baseType: !200, size: 32, offset: 32)
!207 = !{!205, !206}
!208 = !DICompositeType(tag: DW_TAG_structure_type, name: "s27", file: !1, line: 1, size: 67108864, elements: !211)
!209 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !208, file: !1, line: 1, baseType: !204, size: 32)
!210 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !208, file: !1, line: 1, baseType: !204, size: 32, offset: 32)
!211 = !{!209, !210}
!212 = !DICompositeType(tag: DW_TAG_structure_type, name: "s28", file: !1, line: 1, size: 67108864, elements: !215)
!213 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !212, file: !1, line: 1, baseType: !208, size: 32)
!214 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !212, file: !1, line: 1, baseType: !208, size: 32, offset: 32)
!215 = !{!213, !214}
!216 = !DICompositeType(tag: DW_TAG_structure_type, name: "s29", file: !1, line: 1, size: 67108864, elements: !219)
!217 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !216, file: !1, line: 1, baseType: !212, size: 32)
!218 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !216, file: !1, line: 1, baseType: !212, size: 32, offset: 32)
!219 = !{!217, !218}
!220 = !DICompositeType(tag: DW_TAG_structure_type, name: "s30", file: !1, line: 1, size: 67108864, elements: !223)
!221 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !220, file: !1, line: 1, baseType: !216, size: 32)
!222 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !220, file: !1, line: 1, baseType: !216, size: 32, offset: 32)
!223 = !{!221, !222}
!224 = !DICompositeType(tag: DW_TAG_structure_type, name: "s31", file: !1, line: 1, size: 67108864, elements: !227)
!225 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !224, file: !1, line: 1, baseType: !220, size: 32)
!226 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !224, file: !1, line: 1, baseType: !220, size: 32, offset: 32)
!227 = !{!225, !226}
!228 = !DICompositeType(tag: DW_TAG_structure_type, name: "s32", file: !1, line: 1, size: 67108864, elements: !231)
!229 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !228, file: !1, line: 1, baseType: !224, size: 32)
!230 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !228, file: !1, line: 1, baseType: !224, size: 32, offset: 32)
!231 = !{!229, !230}
!232 = !DICompositeType(tag: DW_TAG_structure_type, name: "s33", file: !1, line: 1, size: 67108864, elements: !235)
!233 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !232, file: !1, line: 1, baseType: !228, size: 32)
!234 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !232, file: !1, line: 1, baseType: !228, size: 32, offset: 32)
!235 = !{!233, !234}
!236 = !DICompositeType(tag: DW_TAG_structure_type, name: "s34", file: !1, line: 1, size: 67108864, elements: !239)
!237 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !236, file: !1, line: 1, baseType: !232, size: 32)
!238 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !236, file: !1, line: 1, baseType: !232, size: 32, offset: 32)
!239 = !{!237, !238}
!240 = !DICompositeType(tag: DW_TAG_structure_type, name: "s35", file: !1, line: 1, size: 67108864, elements: !243)
!241 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !240, file: !1, line: 1, baseType: !236, size: 32)
!242 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !240, file: !1, line: 1, baseType: !236, size: 32, offset: 32)
!243 = !{!241, !242}
!244 = !DICompositeType(tag: DW_TAG_structure_type, name: "s36", file: !1, line: 1, size: 67108864, elements: !247)
!245 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !244, file: !1, line: 1, baseType: !240, size: 32)
!246 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !244, file: !1, line: 1, baseType: !240, size: 32, offset: 32)
!247 = !{!245, !246}
!248 = !DICompositeType(tag: DW_TAG_structure_type, name: "s37", file: !1, line: 1, size: 67108864, elements: !251)
!249 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !248, file: !1, line: 1, baseType: !244, size: 32)
!250 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !248, file: !1, line: 1, baseType: !244, size: 32, offset: 32)
!251 = !{!249, !250}
!252 = !DICompositeType(tag: DW_TAG_structure_type, name: "s38", file: !1, line: 1, size: 67108864, elements: !255)
!253 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !252, file: !1, line: 1, baseType: !248, size: 32)
!254 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !252, file: !1, line: 1, baseType: !248, size: 32, offset: 32)
!255 = !{!253, !254}
!256 = !DICompositeType(tag: DW_TAG_structure_type, name: "s39", file: !1, line: 1, size: 67108864, elements: !259)
!257 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !256, file: !1, line: 1, baseType: !252, size: 32)
!258 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !256, file: !1, line: 1, baseType: !252, size: 32, offset: 32)
!259 = !{!257, !258}
!260 = !DICompositeType(tag: DW_TAG_structure_type, name: "s40", file: !1, line: 1, size: 67108864, elements: !263)
!261 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !260, file: !1, line: 1, baseType: !256, size: 32)
!262 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !260, file: !1, line: 1, baseType: !256, size: 32, offset: 32)
!263 = !{!261, !262}
