/* RUN: %capi_bin/ir 2>&1 | FileCheck %s
 *
 * White-box test of the IR-building layer (ir/): cloning a function body
 * with a value map (block arguments, values used in later blocks and in
 * nested regions, successors), the type layout calculator on the types it
 * must size and those it must refuse, and the dominator tree of a graph
 * shaped like a coroutine's, and ops built again and again under an op
 * cache (copied from a template of their kind, with their own operands,
 * successors and location; no cache for another context), with the types
 * and attributes the builder asks for kept by it). */
#include "coro-c/Coro.h"
#include "dialect/dialect.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/cfg.h"
#include "ir/op_cache.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdio.h>

static void printToStderr(MlirStringRef s, void *user) {
  (void)user;
  fwrite(s.data, 1, s.length, stderr);
}

static void testCloneRegion(void) {
  fprintf(stderr, "@testCloneRegion\n");
  MlirContext ctx = mlirContextCreate();
  coroDialectLoad(ctx);
  MlirModule m = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @src(%a: i32, %c: i1) -> i32 {\n"
               "  %one = arith.constant 1 : i32\n"
               "  cf.cond_br %c, ^bb1(%a : i32), ^bb2\n"
               "^bb1(%x: i32):\n"
               "  %s = scf.if %c -> i32 {\n"
               "    %y = arith.addi %x, %one : i32\n"
               "    scf.yield %y : i32\n"
               "  } else {\n"
               "    scf.yield %a : i32\n"
               "  }\n"
               "  return %s : i32\n"
               "^bb2:\n"
               "  return %one : i32\n"
               "}\n"
               "func.func private @dst(%b: i32, %d: i1) -> i32\n"));
  MlirBlock body = mlirModuleGetBody(m);
  MlirOperation src = mlirBlockGetFirstOperation(body);
  MlirOperation dst = mlirOperationGetNextInBlock(src);
  /* Give @dst a body: the arguments map to a new entry block's. */
  mlirOperationRemoveAttributeByName(
      dst, mlirStringRefCreateFromCString("sym_visibility"));
  MlirRegion sr = mlirOperationGetRegion(src, 0);
  MlirRegion dr = mlirOperationGetRegion(dst, 0);
  MlirBlock sentry = mlirRegionGetFirstBlock(sr);
  struct ir_map map = {0};
  MlirBlock first = ir_clone_region(sr, dr, &map);
  /* The clone of the entry block keeps its arguments: they are the new
   * function's. */
  // CHECK: entry args: 2 mapped: 1
  fprintf(stderr, "entry args: %d mapped: %d\n",
          (int)mlirBlockGetNumArguments(first),
          mlirValueEqual(ir_map_lookup(&map, mlirBlockGetArgument(sentry, 0)),
                         mlirBlockGetArgument(first, 0)));
  ir_map_free(&map);
  // CHECK: verified: 1
  fprintf(stderr, "verified: %d\n",
          mlirOperationVerify(mlirModuleGetOperation(m)));
  // CHECK-LABEL: func.func @dst(%arg0: i32, %arg1: i1) -> i32 {
  // CHECK-NEXT: %[[ONE:.*]] = arith.constant 1 : i32
  // CHECK-NEXT: cf.cond_br %arg1, ^bb1(%arg0 : i32), ^bb2
  // CHECK-NEXT: ^bb1(%[[X:.*]]: i32):
  // CHECK-NEXT: %[[S:.*]] = scf.if %arg1 -> (i32) {
  // CHECK-NEXT: %[[Y:.*]] = arith.addi %[[X]], %[[ONE]] : i32
  // CHECK-NEXT: scf.yield %[[Y]] : i32
  // CHECK-NEXT: } else {
  // CHECK-NEXT: scf.yield %arg0 : i32
  // CHECK-NEXT: }
  // CHECK-NEXT: return %[[S]] : i32
  // CHECK-NEXT: ^bb2:
  // CHECK-NEXT: return %[[ONE]] : i32
  mlirOperationPrint(dst, printToStderr, NULL);
  fprintf(stderr, "\n");
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
}

static void layout(const char *text, MlirContext ctx) {
  MlirType t = mlirTypeParseGet(ctx, mlirStringRefCreateFromCString(text));
  uint64_t size = 0, align = 0;
  bool ok = ir_type_layout(t, &size, &align);
  fprintf(stderr, "%s: %d %llu %llu\n", text, ok, (unsigned long long)size,
          (unsigned long long)align);
}

static void testTypeLayout(void) {
  fprintf(stderr, "@testTypeLayout\n");
  MlirContext ctx = mlirContextCreate();
  coroDialectLoad(ctx);
  // CHECK-LABEL: @testTypeLayout
  // CHECK-NEXT: i1: 1 1 1
  // CHECK-NEXT: i64: 1 8 8
  // CHECK-NEXT: f80: 1 16 16
  // CHECK-NEXT: vector<3xi32>: 1 16 16
  // CHECK-NEXT: !llvm.struct<(i8, i64, i16)>: 1 24 8
  // CHECK-NEXT: !llvm.struct<packed (i8, i64)>: 1 9 1
  // CHECK-NEXT: !llvm.array<5 x i32>: 1 20 4
  // CHECK-NEXT: vector<268435457xi64>: 0
  // CHECK-NEXT: !llvm.struct<"o", opaque>: 0
  // CHECK-NEXT: !llvm.void: 0
  const char *types[] = {"i1",
                         "i64",
                         "f80",
                         "vector<3xi32>",
                         "!llvm.struct<(i8, i64, i16)>",
                         "!llvm.struct<packed (i8, i64)>",
                         "!llvm.array<5 x i32>",
                         "vector<268435457xi64>",
                         "!llvm.struct<\"o\", opaque>",
                         "!llvm.void"};
  for (size_t i = 0; i < sizeof types / sizeof *types; ++i)
    layout(types[i], ctx);
  mlirContextDestroy(ctx);
}

/* A chain of suspensions as a coroutine has them: each block goes on to
 * the next, to a shared cleanup block and to the shared last block, which
 * a loop (^bb5, ^bb6) and a side branch (^bb7) reach as well. Prints the
 * immediate dominator of each block, by position in the function. */
static void testDominators(void) {
  fprintf(stderr, "@testDominators\n");
  MlirContext ctx = mlirContextCreate();
  coroDialectLoad(ctx);
  MlirModule m = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString(
               "func.func @f(%c: i1, %k: i32) {\n"
               "  cf.cond_br %c, ^bb1, ^bb7\n"
               "^bb1:\n"
               "  cf.switch %k : i32, [default: ^bb9, 0: ^bb2, 1: ^bb8]\n"
               "^bb2:\n"
               "  cf.switch %k : i32, [default: ^bb9, 0: ^bb3, 1: ^bb8]\n"
               "^bb3:\n"
               "  cf.switch %k : i32, [default: ^bb9, 0: ^bb4, 1: ^bb8]\n"
               "^bb4:\n"
               "  cf.switch %k : i32, [default: ^bb9, 0: ^bb5, 1: ^bb8]\n"
               "^bb5:\n"
               "  cf.cond_br %c, ^bb6, ^bb9\n"
               "^bb6:\n"
               "  cf.cond_br %c, ^bb5, ^bb8\n"
               "^bb7:\n"
               "  cf.br ^bb9\n"
               "^bb8:\n"
               "  cf.br ^bb9\n"
               "^bb9:\n"
               "  return\n"
               "}\n"));
  MlirOperation f = mlirBlockGetFirstOperation(mlirModuleGetBody(m)); /* @f */
  MlirRegion r = mlirOperationGetRegion(f, 0);
  MlirBlock blocks[16];
  size_t n = 0;
  for (MlirBlock b = mlirRegionGetFirstBlock(r); !mlirBlockIsNull(b);
       b = mlirBlockGetNextInRegion(b))
    blocks[n++] = b;
  struct ir_cfg g;
  ir_cfg_build(&g, r);
  ir_cfg_dominators(&g);
  // CHECK-LABEL: @testDominators
  // CHECK-NEXT: idom: 0 0 1 2 3 4 5 0 1 0
  fprintf(stderr, "idom:");
  for (size_t i = 0; i < n; ++i) {
    MlirBlock d = g.block[g.idom[ir_cfg_index(&g, blocks[i])]];
    size_t at = 0;
    while (!mlirBlockEqual(blocks[at], d))
      ++at;
    fprintf(stderr, " %zu", at);
  }
  fprintf(stderr, "\n");
  ir_cfg_free(&g);
  mlirModuleDestroy(m);
  mlirContextDestroy(ctx);
}

static void testOpCache(void) {
  fprintf(stderr, "@testOpCache\n");
  MlirContext ctx = mlirContextCreate();
  coroDialectLoad(ctx);
  MlirContext other = mlirContextCreate();
  coroDialectLoad(other);
  MlirModule m = mlirModuleCreateParse(
      ctx, mlirStringRefCreateFromCString("llvm.func @f(%p: !llvm.ptr) {\n"
                                          "  llvm.br ^a\n"
                                          "^a:\n"
                                          "  llvm.br ^b\n"
                                          "^b:\n"
                                          "  llvm.return\n"
                                          "}\n"));
  MlirOperation fn = mlirBlockGetFirstOperation(mlirModuleGetBody(m));
  MlirRegion r = mlirOperationGetRegion(fn, 0);
  MlirBlock entry = mlirRegionGetFirstBlock(r);
  MlirBlock a = mlirBlockGetNextInRegion(entry);
  MlirBlock bb = mlirBlockGetNextInRegion(a);
  MlirValue p = mlirBlockGetArgument(entry, 0);
  struct ir_op_cache cache;
  ir_op_cache_enter(&cache, ctx);
  /* the entry block: three constants 7, one 9, two GEPs to offset 16 and
   * one to 24, two loads; then a branch to ^b in place of the one to ^a,
   * and in ^a one to ^b (the same kind, another successor) */
  MlirLocation here = mlirLocationFileLineColGet(
      ctx, mlirStringRefCreateFromCString("here.c"), 3, 4);
  struct ir_builder b = ir_before(mlirBlockGetTerminator(entry));
  struct ir_builder at = b;
  at.loc = here;
  ir_const_int(&b, 64, 7);
  ir_const_int(&b, 64, 7);
  MlirValue c7 = ir_const_int(&at, 64, 7);
  ir_const_int(&b, 64, 9);
  MlirValue g16 = ir_gep_bytes(&b, p, 16);
  ir_gep_bytes(&b, g16, 16);
  MlirValue g24 = ir_gep_bytes(&b, p, 24);
  MlirType i64 = mlirIntegerTypeGet(ctx, 64);
  ir_load(&b, g16, i64, 8);
  ir_load(&b, g24, i64, 8);
  // CHECK-LABEL: @testOpCache
  // CHECK-NEXT: copies: 4
  fprintf(stderr, "copies: %zu\n", cache.copies);
  // CHECK-NEXT: location kept: 1
  fprintf(stderr, "location kept: %d\n",
          mlirLocationEqual(mlirOperationGetLocation(mlirOpResultGetOwner(c7)),
                            here));
  mlirOperationDestroy(mlirBlockGetTerminator(entry));
  struct ir_builder e = ir_at_end(entry, mlirOperationGetLocation(fn));
  ir_br(&e, bb, 0, NULL);
  mlirOperationDestroy(mlirBlockGetTerminator(a));
  struct ir_builder ea = ir_at_end(a, mlirOperationGetLocation(fn));
  ir_br(&ea, bb, 0, NULL);
  // CHECK-NEXT: copies: 5
  fprintf(stderr, "copies: %zu\n", cache.copies);
  /* another context's ops are built as before */
  MlirModule o = mlirModuleCreateEmpty(mlirLocationUnknownGet(other));
  struct ir_builder ob =
      ir_at_end(mlirModuleGetBody(o), mlirLocationUnknownGet(other));
  ir_const_int(&ob, 64, 7);
  ir_const_int(&ob, 64, 7);
  // CHECK-NEXT: copies: 5
  fprintf(stderr, "copies: %zu\n", cache.copies);
  /* the types and attributes the builder asks for are kept for the
   * cache's context only, and each is MLIR's own for its key however many
   * keys share a slot */
  /* (read back at once: a slot is shared by keys whose hashes depend on
   * where MLIR placed their types, so a key met earlier may have given
   * way to another since) */
  MlirAttribute seven = ir_i32_attr(ctx, 7);
  MlirType i32 = mlirIntegerTypeGet(ctx, 32);
  // CHECK-NEXT: memo kept: 1
  fprintf(
      stderr, "memo kept: %d\n",
      ir_op_cache_memo(ctx, IR_MEMO_INT_ATTR, (uint64_t)(uintptr_t)i32.ptr, 7)
                  ->ptr == seven.ptr &&
          seven.ptr == mlirIntegerAttrGet(i32, 7).ptr);
  // CHECK-NEXT: other context: 0 1
  fprintf(stderr, "other context: %d %d\n",
          ir_op_cache_memo(other, IR_MEMO_PTR_TYPE, 0, 0) != NULL,
          mlirTypeEqual(ir_ptr_type(other), mlirLLVMPointerTypeGet(other, 0)));
  int same = 1;
  for (int32_t k = 0; k < 3 * IR_OP_CACHE_MEMO; ++k) {
    same &= mlirAttributeEqual(ir_i32_array(ctx, 1, &k),
                               mlirDenseI32ArrayGet(ctx, 1, &k));
    same &=
        mlirAttributeEqual(ir_i32_attr(ctx, k),
                           mlirIntegerAttrGet(mlirIntegerTypeGet(ctx, 32), k));
    same &= mlirTypeEqual(ir_ptr_type(ctx), mlirLLVMPointerTypeGet(ctx, 0));
    /* a handle's element type, which the dialect reads back from the
     * handle's text once per cache */
    MlirType elem = mlirIntegerTypeGet(ctx, 1 + (unsigned)k % 7);
    same &= mlirTypeEqual(coro_handle_elem_type(coro_handle_type_get(elem)),
                          elem);
  }
  // CHECK-NEXT: memo right: 1
  fprintf(stderr, "memo right: %d\n", same);
  MlirType h64 = coro_handle_type_get(mlirIntegerTypeGet(ctx, 64));
  MlirType e64 = coro_handle_elem_type(h64);
  // CHECK-NEXT: handle element kept: 1
  fprintf(stderr, "handle element kept: %d\n",
          ir_op_cache_memo(ctx, IR_MEMO_HANDLE_ELEM,
                           (uint64_t)(uintptr_t)h64.ptr, 0)
                  ->ptr == e64.ptr);
  MlirType token = ir_token_type(ctx);
  MlirType parsed =
      mlirTypeParseGet(ctx, mlirStringRefCreateFromCString("!llvm.token"));
  // CHECK-NEXT: token kept: 1 1
  fprintf(stderr, "token kept: %d %d\n",
          ir_op_cache_memo(ctx, IR_MEMO_TOKEN_TYPE, 0, 0)->ptr == token.ptr,
          mlirTypeEqual(token, parsed));
  ir_op_cache_exit(&cache);
  // CHECK-NEXT: memo after exit: 0
  fprintf(stderr, "memo after exit: %d\n",
          ir_op_cache_memo(ctx, IR_MEMO_PTR_TYPE, 0, 0) != NULL);
  // CHECK-NEXT: verified: 1
  fprintf(stderr, "verified: %d\n", mlirOperationVerify(fn));
  // CHECK-NEXT: llvm.func @f(%arg0: !llvm.ptr) {
  // CHECK-NEXT: llvm.mlir.constant(7 : i64) : i64
  // CHECK-NEXT: llvm.mlir.constant(7 : i64) : i64
  // CHECK-NEXT: llvm.mlir.constant(7 : i64) : i64
  // CHECK-NEXT: llvm.mlir.constant(9 : i64) : i64
  // CHECK-NEXT: %[[G:.*]] = llvm.getelementptr %arg0[16]
  // CHECK-SAME: : (!llvm.ptr) -> !llvm.ptr, i8
  // CHECK-NEXT: llvm.getelementptr %[[G]][16]
  // CHECK-SAME: : (!llvm.ptr) -> !llvm.ptr, i8
  // CHECK-NEXT: %[[H:.*]] = llvm.getelementptr %arg0[24]
  // CHECK-SAME: : (!llvm.ptr) -> !llvm.ptr, i8
  // CHECK-NEXT: llvm.load %[[G]] {alignment = 8 : i64} : !llvm.ptr -> i64
  // CHECK-NEXT: llvm.load %[[H]] {alignment = 8 : i64} : !llvm.ptr -> i64
  // CHECK-NEXT: llvm.br ^bb2
  // CHECK-NEXT: ^bb1:  // no predecessors
  // CHECK-NEXT: llvm.br ^bb2
  // CHECK-NEXT: ^bb2:  // 2 preds: ^bb0, ^bb1
  // CHECK-NEXT: llvm.return
  mlirOperationPrint(fn, printToStderr, NULL);
  fprintf(stderr, "\n");
  mlirModuleDestroy(o);
  mlirModuleDestroy(m);
  mlirContextDestroy(other);
  mlirContextDestroy(ctx);
}

int main(void) {
  testCloneRegion();
  testTypeLayout();
  testDominators();
  testOpCache();
  return 0;
}
