/*
 * coro-progen: a random-program generator for switch-ABI coroutines.
 *
 * `coro-progen SEED` prints one `.mlir` module (coro dialect, generic op
 * syntax) holding one to three coroutines @co0..@co2 (coro.abi = "switch")
 * and an `@main() -> i64` that drives them and returns a checksum of all it
 * observes: every promise it reads, done flags, and a global counter
 * (@counter) that coroutine bodies and destroy paths update. The program is
 * a function of SEED alone, so a seed names the same program on every
 * machine and with every compiler: the generator draws from its own
 * xorshift64*, and every draw is its own statement (C leaves the order in
 * which arguments are evaluated unspecified). A program longer than 200
 * lines is drawn again from where the generator stands, up to 8 times (the
 * shortest wins). The differential test
 * (test/Integration/Split/differential.test) runs each program under route A
 * and route B and compares the printed checksums. `coro-progen --once SEED`
 * draws programs whose coroutines suspend exactly once on every path (valid
 * as retcon.once; the switch programs are the same as without it);
 * `coro-progen --dynamic SEED` gives the slot arrays counts known only at
 * run time (allocas of dynamic size, which only route B splits).
 *
 * What a program may contain: loops (cf.br back edges carrying i64/i32/f64/i1
 * block arguments, trip counts bounded by 4 through `andi x, 3`), branches
 * (cf.cond_br with join block arguments, sometimes an early coro.end in one
 * arm), values of those types computed before a suspension and used after
 * it, an `llvm.alloca` array of one, two or four slots in the entry block
 * read and written across suspensions (constant and masked dynamic
 * indices), coro.yield publishing a value (its destroy flag ignored, or
 * branching to an inline or a shared cleanup block that updates @counter),
 * coro.await of a lower-numbered coroutine, a coroutine resuming and
 * destroying a child itself, and coro.end with a final result. Most
 * constants are hoisted into the entry block and shared (the rest are
 * defined at their use), so some values live across every suspension.
 * main creates one to three coroutines, resumes each in one or two rounds,
 * destroys some mid-way (before, between or after the rounds) and drives
 * the others to their end.
 *
 * Invariants that keep every program free of undefined behaviour:
 * - Coroutine K only calls coroutines J < K, and every loop is bounded, so
 *   every run terminates.
 * - Every coro.yield publishes a value and every normal coro.end carries a
 *   final result, so a coroutine suspended at a yield, or done, has a
 *   defined promise. A coroutine that may suspend in a coro.await has a
 *   defined promise there only if a yield came first (`leading_yield`);
 *   otherwise readers look at its promise only once it is done.
 * - Nothing is resumed once done (every resume is guarded by coro.done).
 * - A coroutine that contains a coro.await is never destroyed before it is
 *   done (its frame would be freed while the child it awaits still runs);
 *   coroutines without awaits may be destroyed at any suspension. Child
 *   handles never live across a suspension of their owner other than the
 *   await itself, so no handle leaks when the owner is destroyed.
 * - Every handle is destroyed exactly once: by main, or by the coroutine
 *   that created it right after awaiting or driving it.
 * - Floating-point values stay non-negative and only ever get added or
 *   multiplied by positive constants (no NaN); they enter the checksum
 *   through a bitcast, integer arithmetic wraps, shifts are by constants
 *   below the width, and there is no division.
 */

#include "tools/common/alloc.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum ty { T_I1, T_I32, T_I64, T_F64 };
/* --once: retcon.once coroutines, which suspend exactly once on every
 * path: one yield, at the top level of the body (in no loop or branch, so
 * every path passes it; one is added before the end when none came), no
 * early end before it, and no await. */
static int once_mode;

/* --dynamic: the slot arrays' allocas take a count the compiler cannot see
 * (the slots plus a global that holds 0), after coro.begin; the count is
 * also in a comment (`// count N`), so a harness can make the static
 * program back with sed (differential.sh DYNAMIC=1). */
static int dynamic_mode;

static const char *const ty_name[] = {"i1", "i32", "i64", "f64"};

#define MAX_POOL 1024
#define MAX_CORO 3
#define MAX_ARGS 3
#define MAX_JOBS 3
#define MAX_JOIN 2
#define MAX_LINES 200
#define MAX_ATTEMPTS 8

struct val {
  int id;
  enum ty ty;
};

struct coro {
  int nargs;
  enum ty arg[MAX_ARGS];
  enum ty prom;      /* T of !coro.handle<T>: i32, i64 or f64 */
  int may_await;     /* chosen up front: awaits are allowed in the body */
  int has_await;     /* some path of the body suspends in a coro.await */
  int leading_yield; /* the body starts with a yield */
  int nslots;        /* elements of the alloca slot array, 0 for none */
  enum ty slot_ty;   /* i32 or i64 */
};

/* Growing text buffer. */
struct buf {
  char *p;
  size_t len, cap;
};

/* A constant hoisted to the entry block of the function being generated. */
struct konst {
  enum ty ty;
  long long v;
  const char *f; /* f64: the literal */
  int id;
};

#define MAX_KONST 256

struct gen {
  uint64_t state;
  struct buf out;          /* the module so far */
  struct buf consts, body; /* the current function: hoisted constants, rest */
  struct konst k[MAX_KONST];
  int nk;
  int next_val, next_blk;
  struct val pool[MAX_POOL]; /* values usable at the current point */
  int npool;
  struct coro co[MAX_CORO];
  int nco;
  int cur;         /* the coroutine being generated */
  int budget;      /* statements left in it */
  int cleanup_blk; /* its shared cleanup block, -1 until a yield uses it */
  int site;        /* a number per side effect, so that each is told apart */
  int nyield;      /* yields in the current coroutine */
};

/* xorshift64*, seeded through splitmix64 so that small seeds differ. */
static uint64_t rnd(struct gen *g) {
  uint64_t x = g->state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  g->state = x;
  return x * 0x2545F4914F6CDD1DULL;
}

static void seed_rng(struct gen *g, uint64_t seed) {
  uint64_t z = seed + 0x9E3779B97F4A7C15ULL;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
  z ^= z >> 31;
  g->state = z ? z : 1;
}

static int below(struct gen *g, int n) { return (int)(rnd(g) % (uint64_t)n); }

static int chance(struct gen *g, int pct) { return below(g, 100) < pct; }

/* --- Printing ----------------------------------------------------------- */

static void vappend(struct buf *b, const char *fmt, va_list ap) {
  va_list aq;
  va_copy(aq, ap);
  int n = vsnprintf(NULL, 0, fmt, aq);
  va_end(aq);
  if (b->len + n + 1 > b->cap) {
    b->cap = 2 * (b->len + n + 1);
    b->p = drv_xrealloc(b->p, b->cap);
  }
  vsnprintf(b->p + b->len, n + 1, fmt, ap);
  b->len += n;
}

static void append(struct buf *b, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vappend(b, fmt, ap);
  va_end(ap);
}

/* Text of the current function, as is. */
static void emit(struct gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  vappend(&g->body, fmt, ap);
  va_end(ap);
}

/* One indented line of the current function. */
static void line(struct gen *g, const char *fmt, ...) {
  va_list ap;
  va_start(ap, fmt);
  emit(g, "  ");
  vappend(&g->body, fmt, ap);
  emit(g, "\n");
  va_end(ap);
}

/* Start a function whose signature line is already in g->out. */
static void begin_func(struct gen *g) {
  g->consts.len = g->body.len = 0;
  g->nk = 0;
}

/* Add the current function to the module, constants first, so that they
   dominate every use. */
static void end_func(struct gen *g) {
  append(&g->out, "%.*s", (int)g->consts.len, g->consts.p);
  append(&g->out, "%.*s}\n\n", (int)g->body.len, g->body.p);
}

/* "(%v1, %v2 : i64, f64)", or "" for no values. */
static const char *operands(const struct val *v, int n) {
  static char buf[512];
  int len = 0;
  if (n == 0)
    return "";
  len += snprintf(buf + len, sizeof buf - len, "(");
  for (int i = 0; i < n; ++i)
    len += snprintf(buf + len, sizeof buf - len, "%s%%v%d", i ? ", " : "",
                    v[i].id);
  len += snprintf(buf + len, sizeof buf - len, " : ");
  for (int i = 0; i < n; ++i)
    len += snprintf(buf + len, sizeof buf - len, "%s%s", i ? ", " : "",
                    ty_name[v[i].ty]);
  snprintf(buf + len, sizeof buf - len, ")");
  return buf;
}

/* "^bN(%v1: i64, %v2: f64):" */
static void label(struct gen *g, int blk, const struct val *args, int n) {
  emit(g, "^b%d", blk);
  for (int i = 0; i < n; ++i)
    emit(g, "%s%%v%d: %s", i ? ", " : "(", args[i].id, ty_name[args[i].ty]);
  emit(g, "%s:\n", n ? ")" : "");
}

static void br(struct gen *g, int blk, const struct val *args, int n) {
  line(g, "cf.br ^b%d%s", blk, operands(args, n));
}

static const char *handle_ty(enum ty t) {
  static char buf[4][32];
  static int k;
  k = (k + 1) % 4;
  snprintf(buf[k], sizeof buf[k], "!coro.handle<%s>", ty_name[t]);
  return buf[k];
}

/* --- Values ------------------------------------------------------------- */

static struct val fresh(struct gen *g, enum ty t) {
  struct val v = {g->next_val++, t};
  return v;
}

static int new_blk(struct gen *g) { return g->next_blk++; }

static void push(struct gen *g, struct val v) {
  if (g->npool < MAX_POOL)
    g->pool[g->npool++] = v;
}

/* A constant: usually one shared from the entry block, sometimes one
   defined right here. f is the literal of an f64, else NULL. */
static struct val konst(struct gen *g, enum ty t, long long c, const char *f) {
  struct val v;
  struct buf *b = &g->body;
  if (chance(g, 80)) {
    for (int i = 0; i < g->nk; ++i)
      if (g->k[i].ty == t && g->k[i].v == c && g->k[i].f == f) {
        v.id = g->k[i].id;
        v.ty = t;
        return v;
      }
    if (g->nk < MAX_KONST) {
      b = &g->consts;
      g->k[g->nk++] = (struct konst){t, c, f, g->next_val};
    }
  }
  v = fresh(g, t);
  if (t == T_I1)
    append(b, "  %%v%d = arith.constant %s\n", v.id, c ? "true" : "false");
  else if (f)
    append(b, "  %%v%d = arith.constant %s : f64\n", v.id, f);
  else
    append(b, "  %%v%d = arith.constant %lld : %s\n", v.id, c, ty_name[t]);
  return v;
}

static struct val cst(struct gen *g, enum ty t, long long c) {
  return konst(g, t, c, t == T_F64 ? "1.0" : NULL);
}

/* A positive f64 constant (multiplying by it keeps values non-negative). */
static struct val fcst(struct gen *g) {
  static const char *const k[] = {"0.5", "0.25", "1.5", "2.0", "0.75"};
  return konst(g, T_F64, 0, k[below(g, 5)]);
}

static struct val unop(struct gen *g, const char *op, struct val a,
                       enum ty to) {
  struct val v = fresh(g, to);
  line(g, "%%v%d = arith.%s %%v%d : %s to %s", v.id, op, a.id, ty_name[a.ty],
       ty_name[to]);
  return v;
}

static struct val binop(struct gen *g, const char *op, struct val a,
                        struct val b) {
  struct val v = fresh(g, a.ty);
  line(g, "%%v%d = arith.%s %%v%d, %%v%d : %s", v.id, op, a.id, b.id,
       ty_name[a.ty]);
  return v;
}

static struct val cmpi(struct gen *g, const char *pred, struct val a,
                       struct val b) {
  struct val v = fresh(g, T_I1);
  line(g, "%%v%d = arith.cmpi %s, %%v%d, %%v%d : %s", v.id, pred, a.id, b.id,
       ty_name[a.ty]);
  return v;
}

static struct val conv(struct gen *g, struct val v, enum ty to);

/* A non-negative f64 made from an integer: its low 20 bits, exactly. */
static struct val int_to_f64(struct gen *g, struct val v) {
  struct val m = binop(g, "andi", v, cst(g, v.ty, 0xfffff));
  return unop(g, "sitofp", m, T_F64);
}

/* v converted to type `to`, by whatever op fits (the value changes). */
static struct val conv(struct gen *g, struct val v, enum ty to) {
  static const char *const preds[] = {"slt", "sgt", "eq", "ne", "ult", "sge"};
  if (v.ty == to)
    return v;
  switch (to) {
  case T_I64:
    if (v.ty == T_F64)
      return unop(g, "bitcast", v, T_I64);
    return unop(g, v.ty == T_I1 || chance(g, 30) ? "extui" : "extsi", v, T_I64);
  case T_I32:
    if (v.ty == T_I1)
      return unop(g, "extui", v, T_I32);
    if (v.ty == T_F64)
      v = unop(g, "bitcast", v, T_I64);
    return unop(g, "trunci", v, T_I32);
  case T_F64:
    if (v.ty == T_I1)
      return unop(g, "uitofp", v, T_F64);
    return int_to_f64(g, v);
  case T_I1:
    if (v.ty == T_F64) {
      struct val k = fcst(g), c = fresh(g, T_I1);
      line(g, "%%v%d = arith.cmpf ogt, %%v%d, %%v%d : f64", c.id, v.id, k.id);
      return c;
    }
    const char *pred = preds[below(g, 6)];
    struct val k = cst(g, v.ty, below(g, 64) - 16);
    return cmpi(g, pred, v, k);
  }
  return v;
}

/* A value of type t usable here: from the pool (same type preferred),
   converted, or a fresh constant. */
static struct val get(struct gen *g, enum ty t) {
  if (g->npool == 0 || chance(g, 8))
    return t == T_F64 ? fcst(g) : cst(g, t, below(g, 100) - 20);
  if (chance(g, 75)) {
    int n = 0;
    for (int i = 0; i < g->npool; ++i)
      n += g->pool[i].ty == t;
    if (n) {
      int k = below(g, n);
      for (int i = 0; i < g->npool; ++i)
        if (g->pool[i].ty == t && k-- == 0)
          return g->pool[i];
    }
  }
  return conv(g, g->pool[below(g, g->npool)], t);
}

static enum ty rand_ty(struct gen *g) {
  int k = below(g, 100);
  return k < 40 ? T_I64 : k < 65 ? T_I32 : k < 82 ? T_F64 : T_I1;
}

/* A new value of type t computed from the pool. Every draw is its own
   statement: C leaves the order of argument evaluation unspecified, and the
   program must not depend on the compiler. */
static struct val compute(struct gen *g, enum ty t) {
  static const char *const iops[] = {"addi", "subi", "muli",
                                     "xori", "andi", "ori"};
  static const char *const bops[] = {"xori", "andi", "ori"};
  static const char *const preds[] = {"slt", "sgt", "eq", "ne", "ule", "sge"};
  const char *op;
  struct val a, b;
  switch (t) {
  case T_I32:
  case T_I64:
    if (chance(g, 15)) {
      op = chance(g, 50) ? "shli" : "shrsi";
      a = get(g, t);
      b = cst(g, t, 1 + below(g, 7));
    } else {
      op = iops[below(g, 6)];
      a = get(g, t);
      b = get(g, t);
    }
    return binop(g, op, a, b);
  case T_F64:
    op = chance(g, 50) ? "mulf" : "addf";
    a = get(g, T_F64);
    b = op[0] == 'm' ? fcst(g) : get(g, T_F64);
    return binop(g, op, a, b);
  case T_I1:
    if (chance(g, 35)) {
      op = bops[below(g, 3)];
      a = get(g, T_I1);
      b = get(g, T_I1);
      return binop(g, op, a, b);
    }
    enum ty it = chance(g, 50) ? T_I32 : T_I64;
    op = preds[below(g, 6)];
    a = get(g, it);
    b = get(g, it);
    return cmpi(g, op, a, b);
  }
  return get(g, t);
}

/* --- Coroutine statements ----------------------------------------------- */

static void stmts(struct gen *g, int depth, int n);

static struct coro *cur(struct gen *g) { return &g->co[g->cur]; }

static void end_coro(struct gen *g, int with_value) {
  enum ty t = cur(g)->prom;
  if (with_value) {
    struct val v = get(g, t);
    line(g, "\"coro.end\"(%%h, %%v%d) : (%s, %s) -> ()", v.id, handle_ty(t),
         ty_name[t]);
  } else {
    line(g, "\"coro.end\"(%%h) : (%s) -> ()", handle_ty(t));
  }
  line(g, "return %%h : %s", handle_ty(t));
}

/* A pointer to slot element `idx` (constant), or to a masked dynamic one. */
static struct val slot_ptr(struct gen *g) {
  struct coro *c = cur(g);
  struct val p = fresh(g, T_I64); /* the type is not printed */
  if (c->nslots > 1 && chance(g, 35)) {
    struct val x = get(g, T_I64);
    struct val i = binop(g, "andi", x, cst(g, T_I64, c->nslots - 1));
    line(g,
         "%%v%d = llvm.getelementptr %%slot[%%v%d] : (!llvm.ptr, i64) -> "
         "!llvm.ptr, %s",
         p.id, i.id, ty_name[c->slot_ty]);
  } else {
    line(g,
         "%%v%d = llvm.getelementptr %%slot[%d] : (!llvm.ptr) -> !llvm.ptr, "
         "%s",
         p.id, below(g, c->nslots), ty_name[c->slot_ty]);
  }
  return p;
}

static struct val slot_load(struct gen *g) {
  struct coro *c = cur(g);
  struct val p = slot_ptr(g), v = fresh(g, c->slot_ty);
  line(g, "%%v%d = llvm.load %%v%d : !llvm.ptr -> %s", v.id, p.id,
       ty_name[c->slot_ty]);
  return v;
}

static void slot_store(struct gen *g, struct val x) {
  struct coro *c = cur(g);
  struct val p = slot_ptr(g);
  x = conv(g, x, c->slot_ty);
  line(g, "llvm.store %%v%d, %%v%d : %s, !llvm.ptr", x.id, p.id,
       ty_name[c->slot_ty]);
}

/* @counter = @counter * K + x, K odd and new at each site: an observable
   side effect whose order counts. */
static void bump(struct gen *g, struct val x) {
  struct val a = fresh(g, T_I64), o = fresh(g, T_I64);
  line(g, "%%v%d = llvm.mlir.addressof @counter : !llvm.ptr", a.id);
  line(g, "%%v%d = llvm.load %%v%d : !llvm.ptr -> i64", o.id, a.id);
  struct val m = binop(g, "muli", o, cst(g, T_I64, 2 * ++g->site + 1));
  struct val n = binop(g, "addi", m, conv(g, x, T_I64));
  line(g, "llvm.store %%v%d, %%v%d : i64, !llvm.ptr", n.id, a.id);
}

/* What a destroy path adds to the counter: a live value, or a slot. */
static struct val cleanup_value(struct gen *g) {
  if (cur(g)->nslots && chance(g, 50))
    return slot_load(g);
  return get(g, rand_ty(g));
}

static void st_yield(struct gen *g) {
  enum ty t = cur(g)->prom;
  g->nyield++;
  struct val v = get(g, t), d = fresh(g, T_I1);
  int mode = below(g, 10);
  if (mode < 2) { /* the flag unused: destruction frees the frame directly */
    line(g, "\"coro.yield\"(%%v%d) : (%s) -> i1", v.id, ty_name[t]);
    return;
  }
  line(g, "%%v%d = \"coro.yield\"(%%v%d) : (%s) -> i1", d.id, v.id, ty_name[t]);
  int cont = new_blk(g);
  if (mode < 6) { /* an inline destroy path */
    int dtor = new_blk(g), save = g->npool;
    line(g, "cf.cond_br %%v%d, ^b%d, ^b%d", d.id, dtor, cont);
    label(g, dtor, NULL, 0);
    line(g, "// destroyed at this yield");
    bump(g, cleanup_value(g));
    end_coro(g, chance(g, 30));
    g->npool = save;
  } else { /* the shared cleanup block, given a live value */
    struct val x = conv(g, get(g, rand_ty(g)), T_I64);
    struct val s = binop(g, "addi", x, cst(g, T_I64, ++g->site * 100));
    if (g->cleanup_blk < 0)
      g->cleanup_blk = new_blk(g);
    line(g, "cf.cond_br %%v%d, ^b%d(%%v%d : i64), ^b%d", d.id, g->cleanup_blk,
         s.id, cont);
  }
  label(g, cont, NULL, 0);
}

/* An i64 trip count in [0, 4]. */
static struct val trip_count(struct gen *g) {
  if (chance(g, 30))
    return cst(g, T_I64, below(g, 5));
  struct val x = get(g, T_I64);
  struct val b = binop(g, "andi", x, cst(g, T_I64, 3));
  return chance(g, 50) ? binop(g, "addi", b, cst(g, T_I64, 1)) : b;
}

/* Next iteration's value of a loop-carried v (f64 scaled by a constant of
   at most 2 and added to: it stays finite over the few iterations). */
static struct val step(struct gen *g, struct val v) {
  if (v.ty == T_F64) {
    struct val m = binop(g, "mulf", v, fcst(g));
    return binop(g, "addf", m, get(g, T_F64));
  }
  if (v.ty == T_I1)
    return binop(g, "xori", v, get(g, T_I1));
  const char *op = chance(g, 50) ? "addi" : "xori";
  return binop(g, op, v, get(g, v.ty));
}

static void st_loop(struct gen *g, int depth) {
  struct val bound = trip_count(g);
  int nc = 1 + below(g, 2);
  struct val in[1 + MAX_JOIN], hd[1 + MAX_JOIN];
  in[0] = cst(g, T_I64, 0);
  for (int i = 1; i <= nc; ++i)
    in[i] = get(g, rand_ty(g));
  int hdr = new_blk(g), body = new_blk(g), exit = new_blk(g);
  br(g, hdr, in, nc + 1);
  for (int i = 0; i <= nc; ++i)
    hd[i] = fresh(g, in[i].ty);
  label(g, hdr, hd, nc + 1);
  for (int i = 0; i <= nc; ++i)
    push(g, hd[i]);
  struct val go = cmpi(g, "slt", hd[0], bound);
  line(g, "cf.cond_br %%v%d, ^b%d, ^b%d", go.id, body, exit);
  label(g, body, NULL, 0);
  int save = g->npool;
  stmts(g, depth + 1, 1 + below(g, 3));
  struct val next[1 + MAX_JOIN];
  next[0] = binop(g, "addi", hd[0], cst(g, T_I64, 1));
  for (int i = 1; i <= nc; ++i)
    next[i] = step(g, hd[i]);
  br(g, hdr, next, nc + 1);
  g->npool = save;
  label(g, exit, NULL, 0);
}

static void st_branch(struct gen *g, int depth) {
  struct val c = get(g, T_I1);
  int nj = 1 + below(g, MAX_JOIN);
  enum ty jt[MAX_JOIN];
  for (int i = 0; i < nj; ++i)
    jt[i] = rand_ty(g);
  int arm[2], join;
  arm[0] = new_blk(g);
  arm[1] = new_blk(g);
  join = new_blk(g);
  line(g, "cf.cond_br %%v%d, ^b%d, ^b%d", c.id, arm[0], arm[1]);
  for (int a = 0; a < 2; ++a) {
    int save = g->npool;
    label(g, arm[a], NULL, 0);
    stmts(g, depth + 1, below(g, 3));
    /* an early end: the join has one predecessor (under --once, only
     * once the one yield is behind: every path suspends exactly once) */
    if (a == 0 && chance(g, 12) && (!once_mode || g->nyield)) {
      end_coro(g, 1);
    } else {
      struct val out[MAX_JOIN];
      for (int i = 0; i < nj; ++i)
        out[i] = get(g, jt[i]);
      br(g, join, out, nj);
    }
    g->npool = save;
  }
  struct val j[MAX_JOIN];
  for (int i = 0; i < nj; ++i)
    j[i] = fresh(g, jt[i]);
  label(g, join, j, nj);
  for (int i = 0; i < nj; ++i)
    push(g, j[i]);
}

/* %h = func.call @coJ(a...): runs the ramp, returns the handle. */
static struct val call_with(struct gen *g, int j, const struct val *a) {
  struct coro *c = &g->co[j];
  struct val h = fresh(g, c->prom);
  emit(g, "  %%v%d = func.call @co%d(", h.id, j);
  for (int i = 0; i < c->nargs; ++i)
    emit(g, "%s%%v%d", i ? ", " : "", a[i].id);
  emit(g, ") : (");
  for (int i = 0; i < c->nargs; ++i)
    emit(g, "%s%s", i ? ", " : "", ty_name[c->arg[i]]);
  emit(g, ") -> %s\n", handle_ty(c->prom));
  return h;
}

/* The call of coroutine J with arguments from the pool. */
static struct val call_coro(struct gen *g, int j) {
  struct val a[MAX_ARGS];
  for (int i = 0; i < g->co[j].nargs; ++i)
    a[i] = get(g, g->co[j].arg[i]);
  return call_with(g, j, a);
}

static void st_await(struct gen *g) {
  int j = below(g, g->cur);
  enum ty u = g->co[j].prom;
  struct val h = call_coro(g, j), r = fresh(g, u);
  line(g, "%%v%d = \"coro.await\"(%%v%d) : (%s) -> %s", r.id, h.id,
       handle_ty(u), ty_name[u]);
  line(g, "\"coro.destroy\"(%%v%d) : (%s) -> ()", h.id, handle_ty(u));
  push(g, r);
  cur(g)->has_await = 1;
}

/* Resume child J (one without awaits) up to N times while it is not done,
   folding its promise, then destroy it, done or not. */
static void st_drive(struct gen *g, int j) {
  enum ty u = g->co[j].prom;
  struct val h = call_coro(g, j);
  struct val n = cst(g, T_I64, 1 + below(g, 3)), one = cst(g, T_I64, 1);
  struct val tru = cst(g, T_I1, 1), in[2], hd[2], next[2];
  in[0] = cst(g, T_I64, 0);
  in[1] = get(g, T_I64);
  int hdr = new_blk(g), body = new_blk(g), exit = new_blk(g);
  br(g, hdr, in, 2);
  hd[0] = fresh(g, T_I64);
  hd[1] = fresh(g, T_I64);
  struct val dn = fresh(g, T_I1);
  label(g, hdr, hd, 2);
  line(g, "%%v%d = \"coro.done\"(%%v%d) : (%s) -> i1", dn.id, h.id,
       handle_ty(u));
  struct val lt = cmpi(g, "slt", hd[0], n);
  struct val nd = binop(g, "xori", dn, tru);
  struct val go = binop(g, "andi", nd, lt);
  line(g, "cf.cond_br %%v%d, ^b%d, ^b%d", go.id, body, exit);
  label(g, body, NULL, 0);
  line(g, "\"coro.resume\"(%%v%d) : (%s) -> ()", h.id, handle_ty(u));
  struct val p = fresh(g, u);
  line(g, "%%v%d = \"coro.promise\"(%%v%d) : (%s) -> %s", p.id, h.id,
       handle_ty(u), ty_name[u]);
  next[0] = binop(g, "addi", hd[0], one);
  struct val m = binop(g, "muli", hd[1], cst(g, T_I64, 31));
  next[1] = binop(g, "addi", m, conv(g, p, T_I64));
  br(g, hdr, next, 2);
  label(g, exit, NULL, 0);
  struct val q = fresh(g, u);
  line(g, "%%v%d = \"coro.promise\"(%%v%d) : (%s) -> %s", q.id, h.id,
       handle_ty(u), ty_name[u]);
  line(g, "\"coro.destroy\"(%%v%d) : (%s) -> ()", h.id, handle_ty(u));
  push(g, hd[1]);
  push(g, q);
}

static void stmt(struct gen *g, int depth) {
  struct coro *c = cur(g);
  int k = below(g, 100), nest = depth < 2 && g->budget > 1;
  int child = g->cur > 0 ? below(g, g->cur) : -1;
  g->budget--;
  if (k < 22 && (!once_mode || (depth == 0 && g->nyield == 0)))
    st_yield(g);
  else if (k < 22)
    bump(g, get(g, rand_ty(g)));
  else if (k < 32 && nest)
    st_loop(g, depth);
  else if (k < 41 && nest)
    st_branch(g, depth);
  else if (k < 56 && c->may_await)
    st_await(g);
  else if (k < 63 && child >= 0 && !g->co[child].has_await)
    st_drive(g, child);
  else if (k < 69)
    bump(g, get(g, rand_ty(g)));
  else if (k < 77 && c->nslots)
    slot_store(g, chance(g, 30) ? compute(g, c->slot_ty) : get(g, c->slot_ty));
  else if (k < 85 && c->nslots)
    push(g, slot_load(g));
  else
    push(g, compute(g, rand_ty(g)));
}

static void stmts(struct gen *g, int depth, int n) {
  for (int i = 0; i < n && g->budget > 0; ++i)
    stmt(g, depth);
}

static void gen_coro(struct gen *g, int k) {
  struct coro *c = &g->co[k];
  g->cur = k;
  g->npool = 0;
  g->cleanup_blk = -1;
  c->nargs = 1 + below(g, MAX_ARGS);
  for (int i = 0; i < c->nargs; ++i)
    c->arg[i] = chance(g, 50) ? T_I32 : T_I64;
  c->prom = chance(g, 50) ? T_I64 : chance(g, 60) ? T_I32 : T_F64;
  c->may_await = k > 0 && chance(g, 85) && !once_mode;
  c->has_await = 0;
  c->leading_yield = chance(g, c->may_await ? 60 : 30);
  c->nslots = chance(g, 55) ? 1 << below(g, 3) : 0;
  c->slot_ty = chance(g, 60) ? T_I64 : T_I32;

  struct val a[MAX_ARGS];
  append(&g->out, "func.func @co%d(", k);
  for (int i = 0; i < c->nargs; ++i) {
    a[i] = fresh(g, c->arg[i]);
    append(&g->out, "%s%%v%d: %s", i ? ", " : "", a[i].id, ty_name[a[i].ty]);
  }
  append(&g->out, ") -> %s attributes {coro.abi = \"switch\"} {\n",
         handle_ty(c->prom));
  begin_func(g);
  int alloca_first = chance(g, 50) && !dynamic_mode;
  if (c->nslots && alloca_first) {
    struct val n = cst(g, T_I64, c->nslots);
    line(g, "%%slot = llvm.alloca %%v%d x %s : (i64) -> !llvm.ptr", n.id,
         ty_name[c->slot_ty]);
  }
  line(g, "%%h = \"coro.begin\"() : () -> %s", handle_ty(c->prom));
  if (c->nslots && !alloca_first && dynamic_mode) {
    struct val n = cst(g, T_I64, c->nslots);
    line(g, "%%zp = llvm.mlir.addressof @progen_zero : !llvm.ptr");
    line(g, "%%zdyn = llvm.load %%zp : !llvm.ptr -> i64");
    line(g, "%%cnt = llvm.add %%zdyn, %%v%d : i64 // count %d", n.id,
         c->nslots);
    line(g, "%%slot = llvm.alloca %%cnt x %s : (i64) -> !llvm.ptr",
         ty_name[c->slot_ty]);
  } else if (c->nslots && !alloca_first) {
    struct val n = cst(g, T_I64, c->nslots);
    line(g, "%%slot = llvm.alloca %%v%d x %s : (i64) -> !llvm.ptr", n.id,
         ty_name[c->slot_ty]);
  }
  for (int i = 0; i < c->nargs; ++i)
    push(g, a[i]);
  for (int i = 0; i < c->nslots; ++i) { /* no slot is ever read unset */
    struct val p = fresh(g, T_I64), x = get(g, c->slot_ty);
    line(g,
         "%%v%d = llvm.getelementptr %%slot[%d] : (!llvm.ptr) -> !llvm.ptr, "
         "%s",
         p.id, i, ty_name[c->slot_ty]);
    line(g, "llvm.store %%v%d, %%v%d : %s, !llvm.ptr", x.id, p.id,
         ty_name[c->slot_ty]);
  }
  g->budget = 3 + below(g, 4) + (k == g->nco - 1);
  g->nyield = 0;
  if (c->leading_yield)
    st_yield(g);
  stmts(g, 0, g->budget);
  /* most coroutines suspend; under --once, every one does */
  if (g->nyield == 0 && (chance(g, 70) || once_mode))
    st_yield(g);
  end_coro(g, 1);
  if (g->cleanup_blk >= 0) {
    struct val x = fresh(g, T_I64);
    label(g, g->cleanup_blk, &x, 1);
    line(g, "// destroyed at a yield");
    g->npool = 0;
    push(g, x);
    if (c->nslots && chance(g, 60))
      x = binop(g, "addi", x, conv(g, slot_load(g), T_I64));
    bump(g, x);
    end_coro(g, chance(g, 30));
  }
  end_func(g);
}

/* --- main --------------------------------------------------------------- */

struct job {
  int co;
  int stop;  /* destroy before round `stop` (0: right after the ramp); -1:
                drive to the end first */
  int alive; /* not destroyed yet */
  struct val h;
};

struct main_state {
  struct val acc, c31;
};

static void fold(struct gen *g, struct main_state *m, struct val x) {
  struct val t = binop(g, "muli", m->acc, m->c31);
  m->acc = binop(g, "addi", t, conv(g, x, T_I64));
}

static struct val done(struct gen *g, struct job *j) {
  struct val d = fresh(g, T_I1);
  line(g, "%%v%d = \"coro.done\"(%%v%d) : (%s) -> i1", d.id, j->h.id,
       handle_ty(g->co[j->co].prom));
  return d;
}

static struct val promise(struct gen *g, struct job *j) {
  enum ty t = g->co[j->co].prom;
  struct val p = fresh(g, t);
  line(g, "%%v%d = \"coro.promise\"(%%v%d) : (%s) -> %s", p.id, j->h.id,
       handle_ty(t), ty_name[t]);
  return p;
}

/* Fold the promise of a suspended or done job: directly when it is always
   defined, else only once the job is done. */
static void fold_promise(struct gen *g, struct main_state *m, struct job *j) {
  struct coro *c = &g->co[j->co];
  if (!c->has_await || c->leading_yield) {
    fold(g, m, promise(g, j));
    return;
  }
  struct val d = done(g, j);
  int rd = new_blk(g), join = new_blk(g);
  line(g, "cf.cond_br %%v%d, ^b%d, ^b%d(%%v%d : i64)", d.id, rd, join,
       m->acc.id);
  label(g, rd, NULL, 0);
  fold(g, m, promise(g, j));
  br(g, join, &m->acc, 1);
  m->acc = fresh(g, T_I64);
  label(g, join, &m->acc, 1);
}

static void resume_if_suspended(struct gen *g, struct job *j) {
  struct val d = done(g, j);
  int rs = new_blk(g), join = new_blk(g);
  line(g, "cf.cond_br %%v%d, ^b%d, ^b%d", d.id, join, rs);
  label(g, rs, NULL, 0);
  line(g, "\"coro.resume\"(%%v%d) : (%s) -> ()", j->h.id,
       handle_ty(g->co[j->co].prom));
  br(g, join, NULL, 0);
  label(g, join, NULL, 0);
}

static void destroy(struct gen *g, struct main_state *m, struct job *j) {
  fold(g, m, done(g, j));
  line(g, "\"coro.destroy\"(%%v%d) : (%s) -> ()", j->h.id,
       handle_ty(g->co[j->co].prom));
  j->alive = 0;
}

static void drive_to_end(struct gen *g, struct main_state *m, struct job *j) {
  int hdr = new_blk(g), body = new_blk(g), exit = new_blk(g);
  br(g, hdr, &m->acc, 1);
  m->acc = fresh(g, T_I64);
  label(g, hdr, &m->acc, 1);
  struct val d = done(g, j);
  line(g, "cf.cond_br %%v%d, ^b%d, ^b%d", d.id, exit, body);
  label(g, body, NULL, 0);
  struct val keep = m->acc;
  line(g, "\"coro.resume\"(%%v%d) : (%s) -> ()", j->h.id,
       handle_ty(g->co[j->co].prom));
  fold_promise(g, m, j);
  br(g, hdr, &m->acc, 1);
  m->acc = keep;
  label(g, exit, NULL, 0);
  fold(g, m, promise(g, j)); /* the final result */
}

static void gen_main(struct gen *g) {
  struct job jobs[MAX_JOBS];
  struct main_state m;
  int njobs = 1 + below(g, MAX_JOBS), rounds = 1 + below(g, 2);
  g->npool = 0;
  append(&g->out, "func.func @main() -> i64 {\n");
  begin_func(g);
  m.acc = cst(g, T_I64, 1 + below(g, 1000));
  m.c31 = cst(g, T_I64, 31);
  for (int i = 0; i < njobs; ++i) {
    struct job *j = &jobs[i];
    j->co = chance(g, 30) ? g->nco - 1 : below(g, g->nco);
    struct coro *c = &g->co[j->co];
    j->stop = c->has_await || chance(g, 35) ? -1 : below(g, rounds + 2);
    j->alive = 1;
    struct val a[MAX_ARGS];
    for (int k = 0; k < c->nargs; ++k)
      a[k] =
          cst(g, c->arg[k],
              chance(g, 80) ? below(g, 40) - 8 : (long long)below(g, 1 << 30));
    j->h = call_with(g, j->co, a);
    fold_promise(g, &m, j);
    if (j->stop == 0)
      destroy(g, &m, j);
  }
  for (int r = 1; r <= rounds; ++r)
    for (int i = 0; i < njobs; ++i) {
      struct job *j = &jobs[i];
      if (!j->alive)
        continue;
      if (j->stop == r) {
        destroy(g, &m, j);
        continue;
      }
      resume_if_suspended(g, j);
      fold_promise(g, &m, j);
    }
  for (int i = 0; i < njobs; ++i) {
    struct job *j = &jobs[i];
    if (!j->alive)
      continue;
    if (j->stop < 0)
      drive_to_end(g, &m, j);
    destroy(g, &m, j);
  }
  struct val a = fresh(g, T_I64), n = fresh(g, T_I64);
  line(g, "%%v%d = llvm.mlir.addressof @counter : !llvm.ptr", a.id);
  line(g, "%%v%d = llvm.load %%v%d : !llvm.ptr -> i64", n.id, a.id);
  fold(g, &m, n);
  line(g, "return %%v%d : i64", m.acc.id);
  end_func(g);
}

/* One program from the generator's current state into g->out. */
static void gen_module(struct gen *g) {
  g->out.len = 0;
  g->next_val = g->next_blk = g->site = 0;
  g->nco = 1 + (chance(g, 80) ? 1 + chance(g, 50) : 0);
  append(&g->out, "llvm.mlir.global internal @counter(0 : i64) : i64\n\n");
  if (dynamic_mode)
    append(&g->out,
           "llvm.mlir.global internal @progen_zero(0 : i64) : i64\n\n");
  for (int k = 0; k < g->nco; ++k)
    gen_coro(g, k);
  gen_main(g);
}

static int count_lines(const struct buf *b) {
  int n = 0;
  for (size_t i = 0; i < b->len; ++i)
    n += b->p[i] == '\n';
  return n;
}

int main(int argc, char **argv) {
  drv_set_tool_name("coro-progen");
  once_mode = argc == 3 && !strcmp(argv[1], "--once");
  dynamic_mode = argc == 3 && !strcmp(argv[1], "--dynamic");
  if (argc != 2 && !once_mode && !dynamic_mode) {
    fprintf(stderr, "usage: coro-progen [--once|--dynamic] SEED\n"
                    "prints a random switch-coroutine program (.mlir) whose "
                    "@main returns a checksum; with --once, its coroutines "
                    "suspend exactly once (valid as retcon.once); with "
                    "--dynamic, their allocas have counts only known at "
                    "run time\n");
    return 2;
  }
  const char *arg = argv[argc - 1];
  char *end;
  unsigned long long seed = strtoull(arg, &end, 10);
  if (*arg == '\0' || *end != '\0') {
    fprintf(stderr, "coro-progen: SEED must be a decimal integer, not '%s'\n",
            arg);
    return 2;
  }
  /* Programs past MAX_LINES are drawn again from where the generator's
     state stands (still a function of the seed); the shortest is kept. */
  static struct gen g;
  struct buf best = {0};
  int best_lines = 0;
  seed_rng(&g, seed);
  for (int attempt = 0; attempt < MAX_ATTEMPTS; ++attempt) {
    gen_module(&g);
    int n = count_lines(&g.out);
    if (attempt == 0 || n < best_lines) {
      struct buf t = best;
      best = g.out;
      g.out = t;
      best_lines = n;
    }
    if (best_lines <= MAX_LINES)
      break;
  }
  printf("// coro-progen %llu: switch coroutines and a @main returning a "
         "checksum.\n",
         seed);
  fwrite(best.p, 1, best.len, stdout);
  free(best.p);
  free(g.out.p);
  free(g.consts.p);
  free(g.body.p);
  return 0;
}
