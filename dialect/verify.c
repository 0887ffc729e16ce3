/* verify.c - the --coro-verify pass: the dialect's rules, checked before
 * any lowering so that LLVM never sees input it would abort on.
 *
 * The checks run per coroutine (a func.func with coro.abi), then per coro op
 * anywhere. Every violation is one error at the offending op's location
 * (mlirEmitError); all of them are reported, and any one fails the pass. The
 * rules, in order of the dialect reference (docs/dialect.md):
 *   placement   coroutine-only ops inside a coroutine; one coro.begin, in
 *               the entry block; at least one coro.end, each followed by
 *               func.return of the handle; suspensions only in ops that
 *               lower to a CFG (scf.if/for/while/index_switch/
 *               execute_region, affine.for/if)
 *   types       coro.abi known; one !coro.handle<T> result; begin, self,
 *               end, yield, await, promise and resume agree with T
 *               (and R, the value passed on resume)
 *   arity       resume values only under retcon/retcon.once, the same R for
 *               every yield of a coroutine
 *   once        retcon.once: exactly one suspension on every path to
 *               coro.end (retcon_once.c)
 *   liveness    no dynamic alloca (any ABI) and no !llvm.token live
 *               across a suspension (suspend_points.c)
 *   attributes  coro.alloc, coro.alloc_fn/coro.free_fn, coro.buffer
 * Nothing here keeps state beyond one run. */
#include "dialect/verify.h"
#include "dialect/contract.h"
#include "dialect/dialect.h"
#include "dialect/handle_origin.h"
#include "dialect/retcon_once.h"
#include "dialect/suspend_points.h"
#include "dialect/value_types.h"
#include "ir/support.h"
#include "ir/types.h"

#include "mlir-c/BuiltinAttributes.h"
#include "mlir-c/BuiltinTypes.h"
#include "mlir-c/Diagnostics.h"
#include "mlir-c/Dialect/LLVM.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct verifier {
  MlirOperation module; /* the root the pass runs on */
  bool failed;
};

/* A coroutine under check. */
struct coro {
  MlirOperation func;
  MlirType handle; /* null if the signature is wrong */
  MlirType elem;   /* T */
  MlirStringRef abi;
  bool abi_known;
  MlirOperation begin; /* the first coro.begin, or null */
};

/* Formats and emits an error at `op`; %T in `fmt` is not supported, types
 * are formatted by the callers with type_name. */
static void error(struct verifier *v, MlirOperation op, const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof(msg), fmt, ap);
  va_end(ap);
  mlirEmitError(mlirOperationGetLocation(op), msg);
  v->failed = true;
}

/* The printed form of `t` in a static-size buffer for messages. */
struct tname {
  char s[160];
};
static struct tname type_name(MlirType t) {
  struct tname n = {{0}};
  if (mlirTypeIsNull(t)) {
    strcpy(n.s, "<none>");
    return n;
  }
  struct coro_str str = coro_type_str(t);
  snprintf(n.s, sizeof(n.s), "%s", coro_str_cstr(&str));
  coro_str_free(&str);
  return n;
}

static MlirStringRef name_of(MlirOperation op) { return coro_op_name(op); }

static MlirAttribute attr(MlirOperation op, const char *name) {
  return mlirOperationGetAttributeByName(op,
                                         mlirStringRefCreateFromCString(name));
}

static MlirOperation parent_func(MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p); p = mlirOperationGetParentOperation(p))
    if (coro_op_named(p, "func.func") || coro_op_named(p, "llvm.func"))
      return p;
  return (MlirOperation){NULL};
}

static bool is_abi(const struct coro *c, const char *abi) {
  return c->abi_known && coro_ref_eq(c->abi, abi);
}
static bool is_retcon(const struct coro *c) {
  return is_abi(c, "retcon") || is_abi(c, "retcon.once");
}

/*===-- The coroutine's signature and attributes --------------------------===*/

#define STORABLE_TYPES                                                         \
  "index, signless integers, f16, bf16, f32, f64, f80, f128, 1-D vectors "     \
  "of those, complex numbers of those floats, memrefs, coroutine handles, "    \
  "!llvm.ptr, and "                                                            \
  "!llvm.struct/!llvm.array of those, "                                        \
  "of at most 1 GiB"

/* A type a coroutine stores (published, passed on resume, an async
 * argument) must be storable (value_types.h); `what` says which. */
static void check_storable(struct verifier *v, MlirOperation op,
                           const char *what, MlirType t) {
  if (mlirTypeIsNull(t) || coro_type_is_none(t) || coro_type_storable(t))
    return;
  struct tname n = type_name(t);
  error(v, op,
        "'%.*s' op %s type %s, which a coroutine cannot store; it can "
        "store " STORABLE_TYPES,
        (int)name_of(op).length, name_of(op).data, what, n.s);
}

static void check_signature(struct verifier *v, struct coro *c) {
  MlirAttribute abi = attr(c->func, CORO_ABI_ATTR);
  static const char *const abis[] = {"switch", "retcon", "retcon.once",
                                     "async"};
  if (mlirAttributeIsAString(abi)) {
    c->abi = mlirStringAttrGetValue(abi);
    for (size_t i = 0; i < sizeof(abis) / sizeof(*abis); ++i)
      c->abi_known |= coro_ref_eq(c->abi, abis[i]);
  }
  if (!c->abi_known)
    error(v, c->func,
          "'func.func' op has an unknown coro.abi; expected one of \"switch\", "
          "\"retcon\", \"retcon.once\", \"async\"");
  MlirType fty = mlirTypeAttrGetValue(attr(c->func, "function_type"));
  /* An async coroutine's arguments live in its task. */
  for (intptr_t i = 0;
       is_abi(c, "async") && i < mlirFunctionTypeGetNumInputs(fty); ++i)
    if (!coro_type_is_handle(mlirFunctionTypeGetInput(fty, i)) &&
        !coro_type_storable(mlirFunctionTypeGetInput(fty, i))) {
      struct tname n = type_name(mlirFunctionTypeGetInput(fty, i));
      error(v, c->func,
            "an argument of this async coroutine has a type its context "
            "cannot hold (%s); a coroutine can store " STORABLE_TYPES,
            n.s);
    }
  if (mlirFunctionTypeGetNumResults(fty) == 1 &&
      coro_type_is_handle(mlirFunctionTypeGetResult(fty, 0))) {
    c->handle = mlirFunctionTypeGetResult(fty, 0);
    c->elem = coro_handle_elem_type(c->handle);
    if (!mlirTypeIsNull(c->elem) && !coro_type_is_none(c->elem) &&
        !coro_type_storable(c->elem) && c->abi_known) {
      struct tname n = type_name(c->elem);
      error(v, c->func,
            "values of type %s cannot be published by a%s %.*s coroutine; "
            "a coroutine can store " STORABLE_TYPES,
            n.s, strchr("aeiou", c->abi.data[0]) ? "n" : "", (int)c->abi.length,
            c->abi.data);
    }
  } else {
    error(v, c->func,
          "'func.func' op is a coroutine, so it must have exactly one result, "
          "of type !coro.handle<T>");
  }
}

/* Whether the module defines `name` as something other than a function
 * (an absent allocator is declared by the lowering, as malloc is). */
static bool symbol_is_non_function(struct verifier *v, MlirStringRef name) {
  MlirOperation op = coro_lookup_symbol(v->module, name);
  return !mlirOperationIsNull(op) && !coro_op_named(op, "func.func") &&
         !coro_op_named(op, "llvm.func");
}

static void check_allocator(struct verifier *v, struct coro *c,
                            const char *which) {
  MlirAttribute fn = attr(c->func, which);
  if (mlirAttributeIsNull(fn))
    return;
  if (!mlirAttributeIsAFlatSymbolRef(fn)) {
    error(v, c->func, "'func.func' op %s must be a symbol reference (@name)",
          which);
    return;
  }
  MlirStringRef name = mlirFlatSymbolRefAttrGetValue(fn);
  if (symbol_is_non_function(v, name))
    error(v, c->func,
          "'func.func' op %s refers to @%.*s, which is not a "
          "function",
          which, (int)name.length, name.data);
}

static void check_attributes(struct verifier *v, struct coro *c) {
  MlirAttribute alloc = attr(c->func, CORO_ALLOC_ATTR);
  bool has_fn = !mlirAttributeIsNull(attr(c->func, CORO_ALLOC_FN_ATTR));
  bool has_free = !mlirAttributeIsNull(attr(c->func, CORO_FREE_FN_ATTR));
  if (!mlirAttributeIsNull(alloc)) {
    MlirStringRef s = mlirAttributeIsAString(alloc)
                          ? mlirStringAttrGetValue(alloc)
                          : mlirStringRefCreate(NULL, 0);
    if (!coro_ref_eq(s, "heap") && !coro_ref_eq(s, "elide") &&
        !coro_ref_eq(s, "arena"))
      error(v, c->func,
            "'func.func' op has an unknown coro.alloc; expected "
            "\"heap\", \"elide\" or \"arena\"");
    if (has_fn || has_free)
      error(v, c->func,
            "'func.func' op has both coro.alloc and "
            "coro.alloc_fn/coro.free_fn; give one or the other");
  }
  if (has_fn != has_free)
    error(v, c->func, "'func.func' op has %s without %s; give both",
          has_fn ? CORO_ALLOC_FN_ATTR : CORO_FREE_FN_ATTR,
          has_fn ? CORO_FREE_FN_ATTR : CORO_ALLOC_FN_ATTR);
  check_allocator(v, c, CORO_ALLOC_FN_ATTR);
  check_allocator(v, c, CORO_FREE_FN_ATTR);

  MlirAttribute buffer = attr(c->func, CORO_BUFFER_ATTR);
  if (mlirAttributeIsNull(buffer))
    return;
  if (c->abi_known && !is_retcon(c)) {
    error(v, c->func,
          "'func.func' op has coro.buffer, which only the retcon "
          "and retcon.once ABIs use");
    return;
  }
  if (!mlirAttributeIsADenseI64Array(buffer) ||
      mlirDenseArrayGetNumElements(buffer) != 2) {
    error(v, c->func,
          "'func.func' op coro.buffer must be array<i64: SIZE, "
          "ALIGN>");
    return;
  }
  int64_t size = mlirDenseI64ArrayGetElement(buffer, 0);
  int64_t align = mlirDenseI64ArrayGetElement(buffer, 1);
  if (size <= 0 || align <= 0 || (align & (align - 1)) != 0)
    error(v, c->func,
          "'func.func' op coro.buffer needs SIZE > 0 and ALIGN a "
          "power of two (got %lld, %lld)",
          (long long)size, (long long)align);
}

/*===-- Ops of the coroutine body -----------------------------------------===*/

static void check_same_handle(struct verifier *v, struct coro *c,
                              MlirOperation op, MlirType t, const char *what) {
  if (mlirTypeIsNull(c->handle) || mlirTypeEqual(t, c->handle))
    return;
  struct tname got = type_name(t), want = type_name(c->handle);
  error(v, op, "'%.*s' op %s has type %s, but the coroutine's handle is %s",
        (int)name_of(op).length, name_of(op).data, what, got.s, want.s);
}

/* A published value (yield operand, end operand) of type `t`. */
static void check_published(struct verifier *v, struct coro *c,
                            MlirOperation op, MlirType t) {
  if (mlirTypeIsNull(c->elem))
    return;
  MlirStringRef n = name_of(op);
  if (coro_type_is_none(c->elem)) {
    error(v, op,
          "'%.*s' op publishes a value, but the coroutine's handle is "
          "!coro.handle<none>",
          (int)n.length, n.data);
  } else if (!mlirTypeEqual(t, c->elem)) {
    struct tname got = type_name(t), want = type_name(c->elem);
    error(v, op,
          "'%.*s' op publishes %s, but the coroutine's handle "
          "publishes %s",
          (int)n.length, n.data, got.s, want.s);
  }
}

static bool is_own_handle(struct coro *c, MlirValue h) {
  if (!mlirValueIsAOpResult(h))
    return false;
  MlirOperation def = mlirOpResultGetOwner(h);
  return coro_op_named(def, "coro.begin") || coro_op_named(def, "coro.self");
}

static void check_end(struct verifier *v, struct coro *c, MlirOperation end) {
  intptr_t n = mlirOperationGetNumOperands(end);
  MlirValue h = mlirOperationGetOperand(end, 0);
  check_same_handle(v, c, end, mlirValueGetType(h), "its handle");
  if (!is_own_handle(c, h))
    error(v, end,
          "'coro.end' op must end the coroutine's own handle (the "
          "result of coro.begin or coro.self)");
  if (n == 2)
    check_published(v, c, end,
                    mlirValueGetType(mlirOperationGetOperand(end, 1)));
  /* a retcon coroutine's frame is freed at its end, and an unranked
   * memref's descriptor is an alloca of the function that made it: the
   * published value would point into freed memory */
  if (n == 2 && coro_ref_starts_with(c->abi, "retcon") &&
      mlirTypeIsAUnrankedMemRef(
          mlirValueGetType(mlirOperationGetOperand(end, 1))) &&
      mlirValueIsAOpResult(mlirOperationGetOperand(end, 1)))
    error(v, end,
          "'coro.end' op cannot publish an unranked memref made in a %.*s "
          "coroutine: its descriptor lives in the coroutine's frame, which "
          "coro.end frees; publish a ranked memref (memref.cast it back), or "
          "yield the unranked one",
          (int)c->abi.length, c->abi.data);
  MlirOperation next = mlirOperationGetNextInBlock(end);
  bool returns = !mlirOperationIsNull(next) &&
                 coro_op_named(next, "func.return") &&
                 mlirOperationGetNumOperands(next) == 1 &&
                 is_own_handle(c, mlirOperationGetOperand(next, 0));
  if (!returns)
    error(v, end,
          "'coro.end' op must be followed by 'func.return' of the "
          "coroutine's handle");
}

/* Ops that lower to a CFG, so a suspension may sit inside them. */
static bool splittable(MlirOperation op) {
  static const char *const ok[] = {"scf.if",
                                   "scf.for",
                                   "scf.while",
                                   "scf.index_switch",
                                   "scf.execute_region",
                                   "affine.for",
                                   "affine.if"};
  for (size_t i = 0; i < sizeof(ok) / sizeof(*ok); ++i)
    if (coro_op_named(op, ok[i]))
      return true;
  return false;
}

static void check_suspension_placement(struct verifier *v, struct coro *c,
                                       MlirOperation op) {
  for (MlirOperation p = mlirOperationGetParentOperation(op);
       !mlirOperationIsNull(p) && !mlirOperationEqual(p, c->func);
       p = mlirOperationGetParentOperation(p)) {
    if (splittable(p))
      continue;
    MlirStringRef n = name_of(op), pn = name_of(p);
    error(v, op,
          "'%.*s' op suspends inside '%.*s', which cannot be split "
          "across a suspension",
          (int)n.length, n.data, (int)pn.length, pn.data);
    return;
  }
}

/* The R of the first yield with a resume value (null type if none). */
struct yield_arity {
  MlirOperation first;
  MlirType resume; /* null when the first yield passes none */
};

static void check_yield(struct verifier *v, struct coro *c, MlirOperation op,
                        struct yield_arity *arity) {
  if (mlirOperationGetNumOperands(op) == 1)
    check_published(v, c, op, mlirValueGetType(mlirOperationGetOperand(op, 0)));
  bool has_r = mlirOperationGetNumResults(op) == 2;
  MlirType r = has_r ? mlirValueGetType(mlirOperationGetResult(op, 1))
                     : (MlirType){NULL};
  if (has_r && c->abi_known && !is_retcon(c)) {
    error(v, op,
          "'coro.yield' op receives a value on resume, which only the "
          "retcon and retcon.once ABIs can express (this coroutine is "
          "\"%.*s\")",
          (int)c->abi.length, c->abi.data);
    return;
  }
  if (mlirOperationIsNull(arity->first) && !mlirTypeIsNull(r) &&
      !coro_type_storable(r)) {
    struct tname n = type_name(r);
    error(v, c->func,
          "the values this coroutine takes on resume have a type the retcon "
          "ABIs cannot pass (%s); a coroutine can store " STORABLE_TYPES,
          n.s);
  }
  if (mlirOperationIsNull(arity->first)) {
    arity->first = op;
    arity->resume = r;
    return;
  }
  bool same = has_r == !mlirTypeIsNull(arity->resume) &&
              (!has_r || mlirTypeEqual(r, arity->resume));
  if (!same) {
    struct tname a = type_name(arity->resume), b = type_name(r);
    error(v, op,
          "'coro.yield' op receives %s on resume, but an earlier yield "
          "of this coroutine receives %s; all yields must agree",
          b.s, a.s);
  }
}

/* An await that can never continue: on the coroutine's own handle (it
 * would wait for its own end) or on coro.noop's (which never ends). Only
 * what the operand's definition shows; a handle that reaches the await
 * another way is kept suspended by the lowering instead. */
static void check_await_target(struct verifier *v, MlirOperation op) {
  MlirValue h = mlirOperationGetOperand(op, 0);
  if (!mlirValueIsAOpResult(h))
    return;
  MlirOperation def = mlirOpResultGetOwner(h);
  if (coro_op_named(def, "coro.self") || coro_op_named(def, "coro.begin"))
    error(v, op,
          "'coro.await' op awaits the coroutine's own handle: it would "
          "wait for its own end, which never comes");
  else if (coro_op_named(def, "coro.noop"))
    error(v, op,
          "'coro.await' op awaits coro.noop's handle, which never ends: "
          "the coroutine could never continue");
}

static void check_await(struct verifier *v, MlirOperation op) {
  check_await_target(v, op);
  MlirType awaited = mlirValueGetType(mlirOperationGetOperand(op, 0));
  MlirType u = coro_handle_elem_type(awaited);
  if (mlirOperationGetNumResults(op) == 0 || mlirTypeIsNull(u))
    return;
  MlirType r = mlirValueGetType(mlirOperationGetResult(op, 0));
  check_storable(v, op, "continues with a result of", r);
  if (coro_type_is_none(u))
    error(v, op,
          "'coro.await' op has a result, but the awaited handle "
          "publishes nothing");
  else if (!mlirTypeEqual(r, u)) {
    struct tname a = type_name(r), b = type_name(u);
    error(v, op,
          "'coro.await' op result has type %s, but the awaited handle "
          "publishes %s",
          a.s, b.s);
  }
}

struct body_walk {
  struct verifier *v;
  struct coro *c;
  int begins;
  int ends;
  struct yield_arity arity;
};

static MlirWalkResult visit_body_op(MlirOperation op, void *user) {
  struct body_walk *w = user;
  struct verifier *v = w->v;
  struct coro *c = w->c;
  if (!mlirOperationEqual(parent_func(op), c->func))
    return MlirWalkResultAdvance;
  if (coro_op_named(op, "coro.begin")) {
    if (w->begins++ > 0)
      error(v, op,
            "'coro.begin' op is repeated; a coroutine has exactly "
            "one");
    else
      c->begin = op;
    MlirBlock entry =
        mlirRegionGetFirstBlock(mlirOperationGetRegion(c->func, 0));
    if (!mlirBlockEqual(mlirOperationGetBlock(op), entry))
      error(v, op,
            "'coro.begin' op must be in the entry block of the "
            "coroutine");
    check_same_handle(v, c, op, mlirValueGetType(mlirOperationGetResult(op, 0)),
                      "its result");
  } else if (coro_op_named(op, "coro.self")) {
    check_same_handle(v, c, op, mlirValueGetType(mlirOperationGetResult(op, 0)),
                      "its result");
  } else if (coro_op_named(op, "coro.end")) {
    ++w->ends;
  } else if (coro_op_named(op, "coro.yield")) {
    check_suspension_placement(v, c, op);
    check_yield(v, c, op, &w->arity);
  } else if (coro_op_named(op, "coro.await") ||
             coro_op_named(op, "coro.group_await")) {
    check_suspension_placement(v, c, op);
  }
  return MlirWalkResultAdvance;
}

static MlirWalkResult visit_end(MlirOperation op, void *user) {
  struct body_walk *w = user;
  if (coro_op_named(op, "coro.end") &&
      mlirOperationEqual(parent_func(op), w->c->func))
    check_end(w->v, w->c, op);
  return MlirWalkResultAdvance;
}

/*===-- Liveness across suspensions ---------------------------------------===*/

static bool is_constant(MlirValue v) {
  if (!mlirValueIsAOpResult(v))
    return false;
  MlirOperation def = mlirOpResultGetOwner(v);
  return coro_op_named(def, "llvm.mlir.constant") ||
         coro_op_named(def, "arith.constant");
}

static bool is_dynamic_alloca(MlirOperation op) {
  if (coro_op_named(op, "memref.alloca"))
    return !mlirShapedTypeHasStaticShape(
        mlirValueGetType(mlirOperationGetResult(op, 0)));
  if (coro_op_named(op, "llvm.alloca"))
    return !is_constant(mlirOperationGetOperand(op, 0));
  return false;
}

/* !llvm.token has no C API predicate: compare with ir_token_type. */
static bool is_token(MlirType t) {
  return mlirTypeEqual(t, ir_token_type(mlirTypeGetContext(t)));
}

static void location_text(MlirOperation op, char *buf, size_t n) {
  MlirStringRef file;
  unsigned line, col;
  if (coro_location_file_line_col(mlirOperationGetLocation(op), &file, &line,
                                  &col))
    snprintf(buf, n, " (line %u, column %u)", line, col);
  else
    buf[0] = '\0';
}

struct live_walk {
  struct verifier *v;
  struct coro *c;
  bool route_b; /* route B lowers it: dynamic allocas may cross */
};

static MlirWalkResult visit_liveness(MlirOperation op, void *user) {
  struct live_walk *w = user;
  /* Every ABI: LLVM's CoroSplit aborts on a dynamic alloca in the frame
   * ("Coroutines cannot handle non static allocas yet"), retcon included. */
  bool dyn = is_dynamic_alloca(op) && !w->route_b;
  for (intptr_t i = 0, n = mlirOperationGetNumResults(op); i < n; ++i) {
    MlirValue r = mlirOperationGetResult(op, i);
    bool token = is_token(mlirValueGetType(r));
    MlirOperation s, esc = {NULL};
    if (dyn && sp_address_escapes(r, &esc)) {
      /* LLVM's CoroSplit keeps an alloca whose address escapes in the
       * frame, suspension or not (nothing tells where it is used) */
      char at[64];
      location_text(esc, at, sizeof(at));
      MlirStringRef n = name_of(op), e = name_of(esc);
      error(w->v, op,
            "'%.*s' op allocates a dynamically sized stack buffer whose "
            "address escapes ('%.*s'%s); LLVM's CoroSplit (route A) keeps "
            "it in the frame, which needs a static size: lower with route B "
            "(--route=mlir-split, or coro.route = \"mlir-split\" on the "
            "module), which gives it heap memory the frame owns, or allocate "
            "it on the heap",
            (int)n.length, n.data, (int)e.length, e.data, at);
      continue;
    }
    if (!(dyn || token) || !sp_live_across(r, &s))
      continue;
    char where[64];
    location_text(s, where, sizeof(where));
    MlirStringRef n = name_of(op);
    if (token)
      error(w->v, op,
            "'%.*s' op defines a token that is used after a "
            "suspension%s; tokens cannot live across suspensions",
            (int)n.length, n.data, where);
    else
      error(w->v, op,
            "'%.*s' op allocates a dynamically sized stack buffer "
            "that is live across a suspension%s; LLVM's CoroSplit (route "
            "A) needs a static size: lower with route B (--route=mlir-split, "
            "or coro.route = \"mlir-split\" on the module), which gives it "
            "heap memory the frame owns, or allocate it on the heap",
            (int)n.length, n.data, where);
  }
  return MlirWalkResultAdvance;
}

/*===-- Driver ------------------------------------------------------------===*/

static void check_coroutine(struct verifier *v, MlirOperation func) {
  struct coro c = {.func = func};
  check_signature(v, &c);
  check_attributes(v, &c);
  struct body_walk w = {.v = v, .c = &c};
  mlirOperationWalk(func, visit_body_op, &w, MlirWalkPreOrder);
  if (w.begins == 0)
    error(v, func, "'func.func' op is a coroutine without 'coro.begin'");
  if (w.ends == 0)
    error(v, func, "'func.func' op is a coroutine without 'coro.end'");
  mlirOperationWalk(func, visit_end, &w, MlirWalkPreOrder);
  if (is_abi(&c, "retcon.once") &&
      mlirLogicalResultIsFailure(retcon_once_check(func)))
    v->failed = true;
  struct live_walk lw = {v, &c, coro_route_b(func)};
  mlirOperationWalk(func, visit_liveness, &lw, MlirWalkPreOrder);
}

/* The function (func.func or llvm.func) whose body holds `op`, if it is a
 * coroutine. */
static bool inside_coroutine(MlirOperation op) {
  MlirOperation f = parent_func(op);
  return !mlirOperationIsNull(f) && coro_op_is_coroutine(f);
}

static void check_promise(struct verifier *v, MlirOperation op) {
  MlirType t =
      coro_handle_elem_type(mlirValueGetType(mlirOperationGetOperand(op, 0)));
  MlirType r = mlirValueGetType(mlirOperationGetResult(op, 0));
  if (mlirTypeIsNull(t))
    return;
  check_storable(v, op, "reads values of", r);
  if (coro_type_is_none(t)) {
    error(v, op, "'coro.promise' op reads a handle that publishes nothing");
  } else if (!mlirTypeEqual(t, r)) {
    struct tname a = type_name(r), b = type_name(t);
    error(v, op,
          "'coro.promise' op result has type %s, but the handle "
          "publishes %s",
          a.s, b.s);
  }
}

static void check_resume(struct verifier *v, MlirOperation op) {
  if (mlirOperationGetNumOperands(op) == 2)
    check_storable(v, op, "passes a value of",
                   mlirValueGetType(mlirOperationGetOperand(op, 1)));
  MlirOperation callee =
      coro_handle_origin(v->module, mlirOperationGetOperand(op, 0));
  if (mlirOperationIsNull(callee) || !coro_op_is_coroutine(callee))
    return;
  MlirAttribute abi = attr(callee, CORO_ABI_ATTR);
  bool retcon = mlirAttributeIsAString(abi) &&
                (coro_ref_eq(mlirStringAttrGetValue(abi), "retcon") ||
                 coro_ref_eq(mlirStringAttrGetValue(abi), "retcon.once"));
  MlirType want = coro_resume_type(callee);
  bool has = mlirOperationGetNumOperands(op) == 2;
  if (has && !retcon) {
    error(v, op,
          "'coro.resume' op passes a value, but the coroutine it "
          "resumes is not a retcon coroutine");
  } else if (has && mlirTypeIsNull(want)) {
    error(v, op,
          "'coro.resume' op passes a value, but the coroutine's yields "
          "receive none");
  } else if (has) {
    MlirType got = mlirValueGetType(mlirOperationGetOperand(op, 1));
    if (!mlirTypeEqual(got, want)) {
      struct tname a = type_name(got), b = type_name(want);
      error(v, op,
            "'coro.resume' op passes %s, but the coroutine's yields "
            "receive %s",
            a.s, b.s);
    }
  } else if (!mlirTypeIsNull(want)) {
    struct tname b = type_name(want);
    error(v, op,
          "'coro.resume' op passes no value, but the coroutine's "
          "yields receive %s",
          b.s);
  }
}

/*===-- Tasks across threads: groups and errors ---------------------------===*/

static bool is_group_op(MlirOperation op) {
  return coro_op_named(op, "coro.group_create") ||
         coro_op_named(op, "coro.group_add") ||
         coro_op_named(op, "coro.group_await") ||
         coro_op_named(op, "coro.group_destroy");
}

/* The handle operand of coro.failed or coro.group_add must be an async
 * task's (they read its prefix): an error when its origin shows another
 * ABI. */
static void check_task_handle(struct verifier *v, MlirOperation op) {
  MlirStringRef abi =
      coro_handle_abi(v->module, mlirOperationGetOperand(op, 0));
  if (!abi.length || coro_ref_eq(abi, "async"))
    return;
  MlirStringRef opname = name_of(op);
  error(v, op,
        "'%.*s' op takes an async task (coro.abi = \"async\"); this handle "
        "is a '%.*s' coroutine's",
        (int)opname.length, opname.data, (int)abi.length, abi.data);
}

/* Whether `p` is before `op` in op's block. */
static bool before_in_block(MlirOperation p, MlirOperation op) {
  return mlirBlockEqual(mlirOperationGetBlock(p), mlirOperationGetBlock(op)) &&
         mlirOperationIsBeforeInBlock(p, op);
}

/* An op `name` using the value `x` as operand `idx`, before `op` in its
 * block (null if none): found among x's uses, so a block of many ops costs
 * what x's uses do. */
static MlirOperation earlier_use(MlirValue x, intptr_t idx, const char *name,
                                 MlirOperation op) {
  for (MlirOpOperand u = mlirValueGetFirstUse(x); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation p = mlirOpOperandGetOwner(u);
    if ((intptr_t)mlirOpOperandGetOperandNumber(u) == idx &&
        coro_op_named(p, name) && before_in_block(p, op))
      return p;
  }
  return (MlirOperation){NULL};
}

/* An earlier op `name` of the block on the same operand 0 as `op`: a
 * coro.group_add of the task `op` adds (to this group or another), a
 * coro.destroy of the handle `op` awaits. */
static MlirOperation earlier_on_same(MlirOperation op, const char *name) {
  return earlier_use(mlirOperationGetOperand(op, 0), 0, name, op);
}

/* A coro.group_add to the group of `op` (a coro.group_destroy) earlier in
 * its block with no coro.group_await of the group after it. */
static MlirOperation pending_add(MlirOperation op) {
  MlirValue g = mlirOperationGetOperand(op, 0);
  MlirOperation last_add = {NULL}, last_await = {NULL};
  for (MlirOpOperand u = mlirValueGetFirstUse(g); !mlirOpOperandIsNull(u);
       u = mlirOpOperandGetNextUse(u)) {
    MlirOperation p = mlirOpOperandGetOwner(u);
    if (!before_in_block(p, op))
      continue;
    MlirOperation *last = coro_op_named(p, "coro.group_add")     ? &last_add
                          : coro_op_named(p, "coro.group_await") ? &last_await
                                                                 : NULL;
    if (last &&
        (mlirOperationIsNull(*last) || mlirOperationIsBeforeInBlock(*last, p)))
      *last = p;
  }
  if (mlirOperationIsNull(last_add) ||
      (!mlirOperationIsNull(last_await) &&
       mlirOperationIsBeforeInBlock(last_add, last_await)))
    return (MlirOperation){NULL};
  return last_add;
}

static void check_group_op(struct verifier *v, MlirOperation op) {
  MlirStringRef opname = name_of(op);
  MlirValue g =
      coro_op_named(op, "coro.group_create") ? mlirOperationGetResult(op, 0)
      : coro_op_named(op, "coro.group_add")  ? mlirOperationGetOperand(op, 1)
                                             : mlirOperationGetOperand(op, 0);
  if (!mlirTypeIsALLVMPointerType(mlirValueGetType(g))) {
    struct tname t = type_name(mlirValueGetType(g));
    error(v, op, "'%.*s' op group has type %s; a group is an !llvm.ptr",
          (int)opname.length, opname.data, t.s);
    return;
  }
  if (coro_op_named(op, "coro.group_add")) {
    check_task_handle(v, op);
    if (!mlirOperationIsNull(earlier_on_same(op, "coro.group_add")))
      error(v, op,
            "'coro.group_add' op adds a task an earlier coro.group_add of "
            "this block already added; a task belongs to one group");
  } else if (coro_op_named(op, "coro.group_await")) {
    MlirOperation f = parent_func(op);
    if (!mlirOperationIsNull(f) && coro_op_is_coroutine(f)) {
      MlirStringRef abi = coro_coroutine_abi(f);
      if (!coro_ref_eq(abi, "async"))
        error(v, op,
              "'coro.group_await' op suspends an async coroutine only (this "
              "one is '%.*s'); outside coroutines it blocks the thread",
              (int)abi.length, abi.data);
    }
  } else if (coro_op_named(op, "coro.group_destroy") &&
             !mlirOperationIsNull(pending_add(op))) {
    error(v, op,
          "'coro.group_destroy' op destroys a group with tasks pending: a "
          "coro.group_add before it in this block is not followed by a "
          "coro.group_await");
  }
}

static MlirWalkResult visit_op(MlirOperation op, void *user) {
  struct verifier *v = user;
  if (coro_op_is_coroutine(op)) {
    check_coroutine(v, op);
    return MlirWalkResultAdvance;
  }
  MlirStringRef n = name_of(op);
  if (!coro_ref_starts_with(n, "coro."))
    return MlirWalkResultAdvance;
  static const char *const inner[] = {"coro.begin", "coro.yield", "coro.await",
                                      "coro.end", "coro.self"};
  for (size_t i = 0; i < sizeof(inner) / sizeof(*inner); ++i)
    if (coro_op_named(op, inner[i]) && !inside_coroutine(op))
      error(v, op,
            "'%s' op must be inside a coroutine (a func.func with "
            "coro.abi)",
            inner[i]);
  if (is_group_op(op))
    check_group_op(v, op);
  else if (coro_op_named(op, "coro.failed"))
    check_task_handle(v, op);
  if (coro_op_named(op, "coro.await") &&
      !mlirOperationIsNull(earlier_on_same(op, "coro.destroy")))
    error(v, op,
          "'coro.await' op awaits a coroutine that a coro.destroy before it "
          "in this block destroyed");
  if (coro_op_named(op, "coro.await"))
    check_await(v, op);
  else if (coro_op_named(op, "coro.promise"))
    check_promise(v, op);
  else if (coro_op_named(op, "coro.resume"))
    check_resume(v, op);
  /* coro.noop's type is constrained by the IRDL definition itself. */
  return MlirWalkResultAdvance;
}

MlirLogicalResult coro_verify_run(MlirOperation root) {
  struct verifier v = {.module = root, .failed = false};
  mlirOperationWalk(root, visit_op, &v, MlirWalkPreOrder);
  return v.failed ? mlirLogicalResultFailure() : mlirLogicalResultSuccess();
}

bool coro_check_lowered_visit(MlirOperation op, bool *failed) {
  if (coro_op_is_coroutine(op)) {
    MlirStringRef abi = coro_coroutine_get_abi(op);
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "this ");
    coro_str_append(&msg, abi.data, abi.length);
    coro_str_appendz(&msg, " coroutine was left unlowered: --coro-lower-");
    for (size_t i = 0; i < abi.length; ++i)
      coro_str_append(&msg, abi.data[i] == '.' ? "-" : abi.data + i, 1);
    coro_str_appendz(&msg, " lowers its ABI, --coro-lower lowers every ABI");
    mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
    coro_str_free(&msg);
    *failed = true;
    return true;
  }
  MlirStringRef n = coro_op_name(op);
  if (coro_ref_starts_with(n, "coro.")) {
    struct coro_str msg = {0};
    coro_str_appendz(&msg, "'");
    coro_str_append(&msg, n.data, n.length);
    coro_str_appendz(&msg, "' op was left unlowered: no coroutine conversion "
                           "of this pipeline took it (--coro-lower lowers "
                           "every ABI)");
    mlirEmitError(mlirOperationGetLocation(op), coro_str_cstr(&msg));
    coro_str_free(&msg);
    *failed = true;
  }
  return false;
}
