/* arena.c - coro.alloc = "arena" on the device: frames from a per-thread
 * slice of one buffer the host provides (see arena.h). */
#include "conversion/CoroToNVVM/arena.h"
#include "dialect/contract.h"
#include "ir/blocks.h"
#include "ir/builder.h"
#include "ir/func.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <string.h>

#define MSG_NONE "__coro_arena_msg_none"
#define MSG_FULL "__coro_arena_msg_full"

static MlirValue sreg(struct ir_builder *b, const char *name) {
  MlirType i32 = ir_int_type(b->ctx, 32);
  MlirValue v = ir_val(b, name, 0, NULL, i32);
  return ir_val(b, "llvm.zext", 1, &v, ir_int_type(b->ctx, 64));
}

/* The thread's index in the whole grid (3-D blocks of 3-D threads). */
static MlirValue global_thread(struct ir_builder *b) {
  MlirValue bx = sreg(b, "nvvm.read.ptx.sreg.ctaid.x");
  MlirValue by = sreg(b, "nvvm.read.ptx.sreg.ctaid.y");
  MlirValue bz = sreg(b, "nvvm.read.ptx.sreg.ctaid.z");
  MlirValue gx = sreg(b, "nvvm.read.ptx.sreg.nctaid.x");
  MlirValue gy = sreg(b, "nvvm.read.ptx.sreg.nctaid.y");
  MlirValue tx = sreg(b, "nvvm.read.ptx.sreg.tid.x");
  MlirValue ty = sreg(b, "nvvm.read.ptx.sreg.tid.y");
  MlirValue tz = sreg(b, "nvvm.read.ptx.sreg.tid.z");
  MlirValue nx = sreg(b, "nvvm.read.ptx.sreg.ntid.x");
  MlirValue ny = sreg(b, "nvvm.read.ptx.sreg.ntid.y");
  MlirValue nz = sreg(b, "nvvm.read.ptx.sreg.ntid.z");
  MlirValue block =
      ir_binop(b, "add",
               ir_binop(b, "mul",
                        ir_binop(b, "add", ir_binop(b, "mul", bz, gy), by), gx),
               bx);
  MlirValue per = ir_binop(b, "mul", ir_binop(b, "mul", nx, ny), nz);
  MlirValue in =
      ir_binop(b, "add",
               ir_binop(b, "mul",
                        ir_binop(b, "add", ir_binop(b, "mul", tz, ny), ty), nx),
               tx);
  return ir_binop(b, "add", ir_binop(b, "mul", block, per), in);
}

static MlirValue to_ptr(struct ir_builder *b, MlirValue i) {
  return ir_val(b, "llvm.inttoptr", 1, &i, ir_ptr_type(b->ctx));
}

static MlirValue at_offset(struct ir_builder *b, MlirValue base_i,
                           MlirValue off) {
  return to_ptr(b, ir_binop(b, "add", base_i, off));
}

/* The start of this thread's slice as an integer, and the slice size;
 * `none` is where to go when the host gave no arena. */
static MlirValue slice(struct ir_builder *b, MlirValue *per, MlirBlock none,
                       MlirBlock *go, MlirLocation loc) {
  MlirType i64 = ir_int_type(b->ctx, 64);
  MlirValue base = ir_load(b, ir_addressof(b, CORO_ARENA_GLOBAL), i64, 8);
  *per = ir_load(b, ir_addressof(b, CORO_ARENA_SIZE_GLOBAL), i64, 8);
  MlirValue have = ir_binop(
      b, "and", ir_icmp(b, IR_NE, base, ir_const_int(b, 64, 0)),
      ir_icmp(b, IR_UGE, *per, ir_const_int(b, 64, CORO_ARENA_HEADER)));
  MlirValue s =
      ir_binop(b, "add", base, ir_binop(b, "mul", global_thread(b), *per));
  *go = ir_block_after(b->block, 0, NULL, loc);
  ir_cond_br(b, have, *go, none);
  *b = ir_at_end(*go, loc);
  return s;
}

/* vprintf(msg) and a trap: the defined end of a thread without arena. */
static void report(MlirBlock block, const char *msg, MlirLocation loc) {
  struct ir_builder b = ir_at_end(block, loc);
  MlirValue args[2] = {ir_addressof(&b, msg), ir_null(&b)};
  ir_call(&b,
          mlirFlatSymbolRefAttrGet(b.ctx,
                                   mlirStringRefCreateFromCString("vprintf")),
          false, 2, args, ir_int_type(b.ctx, 32));
  ir_op(&b, "llvm.intr.trap", 0, NULL, 0, NULL, 0, NULL, 0, NULL);
  ir_unreachable(&b);
}

static void string(MlirOperation module, const char *name, const char *text,
                   MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  size_t n = strlen(text) + 1; /* with its NUL: vprintf reads a C string */
  struct ir_global_spec spec = {
      .name = mlirStringRefCreateFromCString(name),
      .type = mlirLLVMArrayTypeGet(ir_int_type(ctx, 8), (unsigned)n),
      .linkage = MlirLLVMLinkageInternal,
      .constant = true,
      .value = mlirStringAttrGet(ctx, mlirStringRefCreate(text, n))};
  ir_llvm_global(module, &spec, loc);
}

static void counter(MlirOperation module, const char *name, MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType i64 = ir_int_type(ctx, 64);
  struct ir_global_spec spec = {.name = mlirStringRefCreateFromCString(name),
                                .type = i64,
                                .linkage = MlirLLVMLinkageExternal,
                                .value = mlirIntegerAttrGet(i64, 0),
                                .align = 8};
  ir_llvm_global(module, &spec, loc);
}

/* ptr __coro_arena_alloc(i64 size) */
static void make_alloc(MlirOperation module, MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType i64 = ir_int_type(ctx, 64), ptr = ir_ptr_type(ctx);
  struct ir_func_spec spec = {.name = CORO_ARENA_ALLOC,
                              .result = ptr,
                              .nargs = 1,
                              .args = &i64,
                              .linkage = MlirLLVMLinkageInternal};
  MlirOperation fn = ir_llvm_func(module, &spec, false, loc);
  MlirBlock entry = ir_func_entry(fn);
  MlirValue size = mlirBlockGetArgument(entry, 0);
  MlirBlock none = ir_block_after(entry, 0, NULL, loc);
  MlirBlock full = ir_block_after(none, 0, NULL, loc);
  report(none, MSG_NONE, loc);
  report(full, MSG_FULL, loc);
  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue per;
  MlirBlock go;
  MlirValue s = slice(&b, &per, none, &go, loc);
  /* the slice starts with {i64 top, i64 last}: offsets in the slice */
  MlirValue sp = to_ptr(&b, s);
  MlirValue top = ir_load(&b, sp, i64, 8);
  MlirValue lastp = at_offset(&b, s, ir_const_int(&b, 64, 8));
  MlirValue last = ir_load(&b, lastp, i64, 8);
  MlirValue fresh = ir_icmp(&b, IR_EQ, top, ir_const_int(&b, 64, 0));
  MlirValue sel[3] = {fresh, ir_const_int(&b, 64, CORO_ARENA_HEADER), top};
  MlirValue top0 = ir_val(&b, "llvm.select", 3, sel, i64);
  /* a 16-byte record {prev top, prev last} before each frame, aligned */
  MlirValue hdr = ir_binop(
      &b, "and",
      ir_binop(&b, "add", top0, ir_const_int(&b, 64, CORO_ARENA_RECORD - 1)),
      ir_const_int(&b, 64, -CORO_ARENA_RECORD));
  MlirValue p =
      ir_binop(&b, "add", hdr, ir_const_int(&b, 64, CORO_ARENA_RECORD));
  MlirValue end = ir_binop(&b, "add", p, size);
  MlirBlock ok = ir_block_after(go, 0, NULL, loc);
  ir_cond_br(&b, ir_icmp(&b, IR_ULE, end, per), ok, full);
  b = ir_at_end(ok, loc);
  ir_store(&b, top0, at_offset(&b, s, hdr), 8);
  ir_store(&b, last,
           at_offset(&b, s, ir_binop(&b, "add", hdr, ir_const_int(&b, 64, 8))),
           8);
  ir_store(&b, end, sp, 8);
  ir_store(&b, p, lastp, 8);
  ir_return(&b, at_offset(&b, s, p));
}

/* void __coro_arena_free(ptr frame): pops the last frame; another one
 * stays until the thread's last frame above it is popped */
static void make_free(MlirOperation module, MlirLocation loc) {
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType i64 = ir_int_type(ctx, 64), ptr = ir_ptr_type(ctx);
  struct ir_func_spec spec = {.name = CORO_ARENA_FREE,
                              .nargs = 1,
                              .args = &ptr,
                              .linkage = MlirLLVMLinkageInternal};
  MlirOperation fn = ir_llvm_func(module, &spec, false, loc);
  MlirBlock entry = ir_func_entry(fn);
  MlirValue frame = mlirBlockGetArgument(entry, 0);
  MlirBlock none = ir_block_after(entry, 0, NULL, loc);
  report(none, MSG_NONE, loc);
  struct ir_builder b = ir_at_end(entry, loc);
  MlirValue per;
  MlirBlock go;
  MlirValue s = slice(&b, &per, none, &go, loc);
  MlirValue off = ir_binop(&b, "sub", ir_ptrtoint(&b, frame, 64), s);
  MlirValue lastp = at_offset(&b, s, ir_const_int(&b, 64, 8));
  MlirValue last = ir_load(&b, lastp, i64, 8);
  MlirBlock pop = ir_block_after(go, 0, NULL, loc);
  MlirBlock done = ir_block_after(pop, 0, NULL, loc);
  ir_cond_br(&b, ir_icmp(&b, IR_EQ, off, last), pop, done);
  b = ir_at_end(pop, loc);
  MlirValue hdr =
      ir_binop(&b, "sub", off, ir_const_int(&b, 64, CORO_ARENA_RECORD));
  MlirValue prev_top = ir_load(&b, at_offset(&b, s, hdr), i64, 8);
  MlirValue prev_last = ir_load(
      &b, at_offset(&b, s, ir_binop(&b, "add", hdr, ir_const_int(&b, 64, 8))),
      i64, 8);
  ir_store(&b, prev_top, to_ptr(&b, s), 8);
  ir_store(&b, prev_last, lastp, 8);
  ir_br(&b, done, 0, NULL);
  b = ir_at_end(done, loc);
  ir_return(&b, (MlirValue){NULL});
}

bool coro_nvvm_make_arena(MlirOperation module, MlirLocation loc) {
  static const char *const names[] = {CORO_ARENA_GLOBAL, CORO_ARENA_SIZE_GLOBAL,
                                      CORO_ARENA_ALLOC,  CORO_ARENA_FREE,
                                      MSG_NONE,          MSG_FULL};
  for (size_t i = 0; i < sizeof names / sizeof names[0]; ++i)
    if (!mlirOperationIsNull(coro_lookup_symbol(
            module, mlirStringRefCreateFromCString(names[i])))) {
      struct coro_str msg = {0};
      coro_str_appendz(&msg, "coro.alloc = \"arena\" needs the symbol '");
      coro_str_appendz(&msg, names[i]);
      coro_str_appendz(&msg, "', but the module defines it");
      mlirEmitError(loc, coro_str_cstr(&msg));
      coro_str_free(&msg);
      return false;
    }
  MlirContext ctx = mlirLocationGetContext(loc);
  MlirType ptr = ir_ptr_type(ctx);
  MlirType vargs[2] = {ptr, ptr};
  if (mlirOperationIsNull(coro_lookup_symbol(
          module, mlirStringRefCreateFromCString("vprintf")))) {
    struct ir_func_spec spec = {.name = "vprintf",
                                .result = ir_int_type(ctx, 32),
                                .nargs = 2,
                                .args = vargs};
    ir_llvm_func(module, &spec, true, loc);
  }
  counter(module, CORO_ARENA_GLOBAL, loc);
  counter(module, CORO_ARENA_SIZE_GLOBAL, loc);
  string(module, MSG_NONE,
         "coro: a coroutine with coro.alloc = \"arena\" ran without an "
         "arena: set " CORO_ARENA_GLOBAL " and " CORO_ARENA_SIZE_GLOBAL
         " (coro-gpu-run --arena=BYTES)\n",
         loc);
  string(module, MSG_FULL,
         "coro: a thread's coroutine arena is exhausted (more bytes per "
         "thread: " CORO_ARENA_SIZE_GLOBAL ", coro-gpu-run --arena=BYTES)\n",
         loc);
  make_alloc(module, loc);
  make_free(module, loc);
  return true;
}
