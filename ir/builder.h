/* builder.h - the one way the library builds IR: named builders over the
 * MLIR C API for the ops the project emits.
 *
 * Every op is created from its name, operands, result types and typed
 * attributes (never from printed text); inherent attributes with a default
 * value (fastmath flags, calling convention, tail-call kind, overflow
 * flags) are left out, so the op gets its default. Ops are inserted where
 * the builder points: before `before` when it is set, else at the end of
 * `block`. Each op carries `loc`: the location of the user's op it comes
 * from, or a NameLoc/FusedLoc saying what generated it (ir_generated_loc).
 * Nothing here keeps state beyond the builder value itself. */
#ifndef CORO_IR_BUILDER_H
#define CORO_IR_BUILDER_H

#include "mlir-c/IR.h"
#include "mlir-c/Support.h"

#include <stdbool.h>
#include <stdint.h>

struct ir_builder {
  MlirContext ctx;
  MlirLocation loc;
  MlirBlock block;
  MlirOperation before; /* null: append to `block` */
};

struct ir_builder ir_at_end(MlirBlock block, MlirLocation loc);
/* Before `op`, with `op`'s location. */
struct ir_builder ir_before(MlirOperation op);
/* Puts `op` (detached) where `b` builds. */
void ir_insert(struct ir_builder *b, MlirOperation op);

/* A location saying that code was generated for `what` (e.g.
 * "coro.settle") from the user's `from`: a NameLoc named `what` around
 * `from`, so diagnostics still point at the user's source. */
MlirLocation ir_generated_loc(MlirLocation from, const char *what);

/* A named attribute `name` = `attr`. */
MlirNamedAttribute ir_named(MlirContext ctx, const char *name,
                            MlirAttribute attr);
MlirAttribute ir_i64_attr(MlirContext ctx, int64_t v);
MlirAttribute ir_i32_attr(MlirContext ctx, int32_t v);
MlirAttribute ir_i32_array(MlirContext ctx, intptr_t n, const int32_t *v);
MlirAttribute ir_sym_ref(MlirContext ctx, const char *name);
/* `operandSegmentSizes` of `n` groups. */
MlirNamedAttribute ir_segments(MlirContext ctx, intptr_t n,
                               const int32_t *sizes);

/* An llvm.invoke of the function `sym` on args[0..n) returning `result`
 * (none when null), going on at `normal` (passing normal_ops) or, when
 * the callee unwinds, at `unwind` (passing unwind_ops). With a null `sym`
 * the invoke is indirect: args[0] is the function pointer. */
MlirOperation ir_invoke(struct ir_builder *b, MlirAttribute sym, intptr_t n,
                        const MlirValue *args, MlirType result,
                        MlirBlock normal, intptr_t nnormal,
                        const MlirValue *normal_ops, MlirBlock unwind,
                        intptr_t nunwind, const MlirValue *unwind_ops);

/* An llvm.invoke (as ir_invoke) with the destinations of the invoke `like`
 * and the operands it passes them. */
MlirOperation ir_invoke_like(struct ir_builder *b, MlirOperation like,
                             MlirAttribute sym, intptr_t n,
                             const MlirValue *args, MlirType result);
/* Replaces the llvm.call `call` by an llvm.invoke of the same callee,
 * operands and calling convention with the destinations (and their
 * operands) of the invoke `like`; returns it. */
MlirOperation ir_call_to_invoke(MlirOperation call, MlirOperation like);

/* The generic builder: creates `name` and inserts it at `b`. */
MlirOperation ir_op(struct ir_builder *b, const char *name, intptr_t nOperands,
                    const MlirValue *operands, intptr_t nResults,
                    const MlirType *results, intptr_t nAttrs,
                    const MlirNamedAttribute *attrs, intptr_t nSuccessors,
                    MlirBlock *successors);
/* The same with no attributes nor successors; returns the first result
 * (null when `result` is null). */
MlirValue ir_val(struct ir_builder *b, const char *name, intptr_t nOperands,
                 const MlirValue *operands, MlirType result);

/*===--- constants and addresses -------------------------------------------*/

/* %c = llvm.mlir.constant(V : iW) : iW   (i1: true/false) */
MlirValue ir_const_int(struct ir_builder *b, unsigned width, long long value);
/* %z = llvm.mlir.zero : !llvm.ptr */
MlirValue ir_null(struct ir_builder *b);
/* %z = llvm.mlir.zero : T */
MlirValue ir_zero(struct ir_builder *b, MlirType t);
/* %t = llvm.mlir.none : !llvm.token */
MlirValue ir_none_token(struct ir_builder *b);
/* %p = llvm.mlir.addressof @sym : !llvm.ptr */
MlirValue ir_addressof(struct ir_builder *b, const char *sym);
/* The same, of a symbol named by a string ref (no copy to terminate it). */
MlirValue ir_addressof_ref(struct ir_builder *b, MlirStringRef sym);
/* llvm.intr.assume %cond (no operand bundles) */
void ir_assume(struct ir_builder *b, MlirValue cond);

/*===--- arithmetic ---------------------------------------------------------*/

enum ir_icmp {
  IR_EQ = 0,
  IR_NE = 1,
  IR_SLT = 2,
  IR_SLE = 3,
  IR_SGT = 4,
  IR_SGE = 5,
  IR_ULT = 6,
  IR_ULE = 7,
  IR_UGT = 8,
  IR_UGE = 9
};
/* %c = llvm.icmp "pred" %a, %b : T */
MlirValue ir_icmp(struct ir_builder *b, enum ir_icmp pred, MlirValue a,
                  MlirValue c);
/* %r = llvm.<op> %a, %c : T   (op: "add", "sub", "and", "or", ...) */
MlirValue ir_binop(struct ir_builder *b, const char *op, MlirValue a,
                   MlirValue c);
/* %r = llvm.ptrtoint %p : !llvm.ptr to iW */
MlirValue ir_ptrtoint(struct ir_builder *b, MlirValue p, unsigned width);

/*===--- memory -------------------------------------------------------------*/

/* %p = llvm.alloca %count x T {alignment = A} : (i64) -> !llvm.ptr */
MlirValue ir_alloca(struct ir_builder *b, MlirValue count, MlirType elem,
                    unsigned align);
/* %v = llvm.load %p {alignment = A} : !llvm.ptr -> T   (A = 0: no
 * alignment attribute, so the type's ABI alignment; likewise ir_store) */
MlirValue ir_load(struct ir_builder *b, MlirValue ptr, MlirType t,
                  unsigned align);
/* llvm.store %v, %p {alignment = A} : T, !llvm.ptr */
MlirOperation ir_store(struct ir_builder *b, MlirValue v, MlirValue ptr,
                       unsigned align);
/* %q = llvm.getelementptr %p[0, i, j...] : (!llvm.ptr) -> !llvm.ptr, S
 * (`n` field indices into the struct `structType`, nested). */
MlirValue ir_gep_path(struct ir_builder *b, MlirValue base, MlirType structType,
                      int n, const int *indices);
/* %q = llvm.getelementptr %p[0, index] : ..., S */
MlirValue ir_gep_field(struct ir_builder *b, MlirValue base,
                       MlirType structType, int index);
/* %q = llvm.getelementptr %p[offset] : (!llvm.ptr) -> !llvm.ptr, i8 */
MlirValue ir_gep_bytes(struct ir_builder *b, MlirValue base, int offset);
/* %q = llvm.getelementptr %p[%i] : (!llvm.ptr, iN) -> !llvm.ptr, T
 * (element %i of an array of `elem` at %p). */
MlirValue ir_gep_index(struct ir_builder *b, MlirValue base, MlirType elem,
                       MlirValue i);
/* %e = llvm.extractvalue %agg[pos] : S   /   llvm.insertvalue */
MlirValue ir_extractvalue(struct ir_builder *b, MlirValue agg, int pos,
                          MlirType t);
MlirValue ir_insertvalue(struct ir_builder *b, MlirValue agg, MlirValue v,
                         int pos);

/* %r = llvm.cmpxchg %p, %expected, %desired acq_rel acquire : !llvm.ptr, T
 * (T: the type of %expected); %r is !llvm.struct<(T, i1)>. */
MlirValue ir_cmpxchg(struct ir_builder *b, MlirValue p, MlirValue expected,
                     MlirValue desired);

/*===--- calls --------------------------------------------------------------*/

/* %r = llvm.call @sym(args) : (...) -> R   (no result when `result` is
 * null); with `is_func`, func.call instead. */
MlirValue ir_call(struct ir_builder *b, MlirAttribute sym, bool is_func,
                  intptr_t n, const MlirValue *args, MlirType result);
/* llvm.call with a calling convention and tail-call kind:
 * %r = llvm.call tail fastcc @sym(args) : ...  (cconv: MlirLLVMCConv;
 * tail: 0 none, 1 tail, 2 musttail, 3 notail). */
MlirValue ir_call_cc(struct ir_builder *b, MlirAttribute sym, int cconv,
                     int tail, intptr_t n, const MlirValue *args,
                     MlirType result);
/* A call of the llvm.func `fn` in its own calling convention (its CConv
 * attribute), returning what it returns (null for void); tail as above. */
MlirValue ir_call_func(struct ir_builder *b, MlirOperation fn, int tail,
                       intptr_t n, const MlirValue *args);
/* An indirect call through the pointer `fn`:
 * %r = llvm.call [tail] <cconv> %fn(args) : !llvm.ptr, (...) -> R */
MlirValue ir_call_indirect(struct ir_builder *b, MlirValue fn, int cconv,
                           int tail, intptr_t n, const MlirValue *args,
                           MlirType result);
/* A vararg call: llvm.call @sym(args) vararg(!llvm.func<R (...)>) */
MlirValue ir_call_vararg(struct ir_builder *b, MlirAttribute sym, intptr_t n,
                         const MlirValue *args, MlirType result);
/* The same with the callee's declared type `fty` (an !llvm.func with fixed
 * parameters before the `...`): llvm.call @sym(args) vararg(fty); its
 * result is fty's (none when void). */
MlirValue ir_call_vararg_typed(struct ir_builder *b, MlirAttribute sym,
                               MlirType fty, intptr_t n, const MlirValue *args);
/* %r = llvm.call_intrinsic "name"(args) : (...) -> R */
MlirValue ir_intrinsic(struct ir_builder *b, const char *name, intptr_t n,
                       const MlirValue *args, MlirType result);

/*===--- control flow -------------------------------------------------------*/

/* llvm.br ^dest(args) */
void ir_br(struct ir_builder *b, MlirBlock dest, intptr_t nArgs,
           const MlirValue *args);
/* llvm.cond_br %c, ^t(targs), ^f(fargs)   (args may be NULL when 0) */
void ir_cond_br_args(struct ir_builder *b, MlirValue cond, MlirBlock t,
                     intptr_t nt, const MlirValue *targs, MlirBlock f,
                     intptr_t nf, const MlirValue *fargs);
/* llvm.cond_br %c, ^t, ^f */
void ir_cond_br(struct ir_builder *b, MlirValue cond, MlirBlock t, MlirBlock f);
/* llvm.switch %v : iW, ^dflt [ values[i]: ^cases[i](args[i]) ]: an N-way
 * switch, each case passing at most one argument (null for none). */
void ir_switch(struct ir_builder *b, MlirValue v, MlirBlock dflt, intptr_t n,
               const int64_t *values, MlirBlock *cases, const MlirValue *args);
/* llvm.return [%v] */
void ir_return(struct ir_builder *b, MlirValue v);
/* llvm.unreachable */
void ir_unreachable(struct ir_builder *b);

/*===--- casts between dialects ---------------------------------------------*/

/* builtin.unrealized_conversion_cast %v : A to T */
MlirValue ir_cast(struct ir_builder *b, MlirValue v, MlirType t);

#endif /* CORO_IR_BUILDER_H */
