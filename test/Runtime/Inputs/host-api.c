/* host-api.c - a C host driving the coroutines of host-api.mlir, compiled
 * ahead of time (coro-translate --emit=obj), through coro-runtime/Runtime.h
 * alone: no offset into a handle is written here. One testX(void) per
 * feature; the CHECK lines (../host-api.test runs FileCheck on this file)
 * sit above the prints. Every handle is destroyed (the sanitizer build
 * checks for leaks).
 *
 *   count_switch/retcon/async  resume, done, promise, destroy for each ABI
 *   cell_once                  retcon.once: resume with a value, final result
 *   acc_*                      retcon: resume with i64, i32, f64, f32, ptr,
 *                              and any type by size and alignment (i16,
 *                              i128)
 *   walk, doubler, wide        pointer promises, setters, an i128 promise
 *   null and ended handles     the error codes */
#include "coro-runtime/Runtime.h"

#include <stdint.h>
#include <stdio.h>

void *count_switch(int64_t n);
void *count_retcon(int64_t n);
void *count_async(int64_t n);
void *cell_once(int64_t *p);
void *acc_i64(int64_t *log);
void *acc_i32(void);
void *acc_f64(void);
void *acc_f32(void);
void *acc_ptr(void);
void *acc_i16(void);
void *acc_i128(void);
void *walk(int64_t *base, int64_t n);
void *doubler(void);
void *wide(int64_t n);

/* Drains a counter: prints what it yields, its final result, and what
 * resuming it once more says. */
static void drain(const char *abi, void *h) {
  printf("%s:", abi);
  while (!coro_rt_done(h)) {
    printf(" %lld", (long long)coro_rt_promise_i64(h));
    if (coro_rt_resume(h) != CORO_RT_OK)
      printf(" (resume failed)");
  }
  printf(" | final %lld, again %d, done %d\n",
         (long long)coro_rt_promise_i64(h), coro_rt_resume(h), coro_rt_done(h));
  printf("%s: destroy %d\n", abi, coro_rt_destroy(h));
}

/* Destroys a counter after two resumptions: it ends with the sum so far. */
static void destroy_early(const char *abi, void *h) {
  coro_rt_resume(h);
  coro_rt_resume(h);
  long long at = (long long)coro_rt_promise_i64(h);
  int done = coro_rt_done(h);
  printf("%s early: at %lld done %d destroy %d\n", abi, at, done,
         coro_rt_destroy(h));
}

static void testEveryABI(void) {
  printf("@every-abi\n");
  // CHECK-LABEL: @every-abi
  // CHECK-NEXT: switch: 0 10 20 30 40 | final 100, again -3, done 1
  // CHECK-NEXT: switch: destroy 0
  drain("switch", count_switch(5));
  // CHECK-NEXT: retcon: 0 10 20 30 40 | final 100, again -3, done 1
  // CHECK-NEXT: retcon: destroy 0
  drain("retcon", count_retcon(5));
  // CHECK-NEXT: async: 0 10 20 30 40 | final 100, again -3, done 1
  // CHECK-NEXT: async: destroy 0
  drain("async", count_async(5));
  /* No value at all: done at once, the final result is 0. */
  // CHECK-NEXT: switch: | final 0, again -3, done 1
  drain("switch", count_switch(0));
  // CHECK-NEXT: switch: destroy 0
  // CHECK-NEXT: retcon: | final 0, again -3, done 1
  drain("retcon", count_retcon(0));
  // CHECK-NEXT: retcon: destroy 0
  // CHECK-NEXT: async: | final 0, again -3, done 1
  drain("async", count_async(0));
  // CHECK-NEXT: async: destroy 0
  // CHECK-NEXT: switch early: at 20 done 0 destroy 0
  destroy_early("switch", count_switch(5));
  // CHECK-NEXT: retcon early: at 20 done 0 destroy 0
  destroy_early("retcon", count_retcon(5));
  // CHECK-NEXT: async early: at 20 done 0 destroy 0
  destroy_early("async", count_async(5));
}

static void testRetconOnce(void) {
  printf("@retcon-once\n");
  // CHECK-LABEL: @retcon-once
  int64_t cell = 40;
  void *h = cell_once(&cell);
  // CHECK-NEXT: yielded 40 done 0
  printf("yielded %lld done %d\n", (long long)coro_rt_promise_i64(h),
         coro_rt_done(h));
  // CHECK-NEXT: resume 0 done 1 final 42 cell 2
  int rc = coro_rt_resume_with_i64(h, 2);
  printf("resume %d done %d final %lld cell %lld\n", rc, coro_rt_done(h),
         (long long)coro_rt_promise_i64(h), (long long)cell);
  /* Ended: the value is not stored, nothing runs. */
  // CHECK-NEXT: again -3 cell 2
  rc = coro_rt_resume_with_i64(h, 7);
  printf("again %d cell %lld\n", rc, (long long)cell);
  coro_rt_destroy(h);
  /* Destroyed while suspended: resumed abnormally, *p is left alone. */
  h = cell_once(&cell);
  // CHECK-NEXT: destroy 0 cell 2
  rc = coro_rt_destroy(h);
  printf("destroy %d cell %lld\n", rc, (long long)cell);
}

static void testRetconValues(void) {
  printf("@retcon-values\n");
  // CHECK-LABEL: @retcon-values
  int64_t log = -1;
  void *h = acc_i64(&log);
  for (int64_t i = 1; i <= 10; ++i)
    coro_rt_resume_with_i64(h, i);
  // CHECK-NEXT: i64 55
  printf("i64 %lld\n", (long long)coro_rt_promise_i64(h));
  /* Destroyed: the cleanup path logs the sum. */
  // CHECK-NEXT: destroyed 0 log 55
  int rc = coro_rt_destroy(h);
  printf("destroyed %d log %lld\n", rc, (long long)log);

  h = acc_i32();
  coro_rt_resume_with_i32(h, -5);
  coro_rt_resume_with_i32(h, 2000000000);
  // CHECK-NEXT: i32 1999999995
  printf("i32 %d\n", (int)coro_rt_promise_i32(h));
  coro_rt_destroy(h);

  h = acc_f64();
  coro_rt_resume_with_f64(h, 1.5);
  coro_rt_resume_with_f64(h, 0.25);
  // CHECK-NEXT: f64 1.75
  printf("f64 %g\n", coro_rt_promise_f64(h));
  coro_rt_destroy(h);

  h = acc_f32();
  coro_rt_resume_with_f32(h, 2.5f);
  coro_rt_resume_with_f32(h, -0.5f);
  // CHECK-NEXT: f32 2
  printf("f32 %g\n", (double)coro_rt_promise_f32(h));
  coro_rt_destroy(h);

  int64_t xs[3] = {100, 20, 3};
  h = acc_ptr();
  for (int i = 0; i < 3; ++i)
    coro_rt_resume_with_ptr(h, &xs[i]);
  // CHECK-NEXT: ptr 123
  printf("ptr %lld\n", (long long)coro_rt_promise_i64(h));
  coro_rt_destroy(h);

  /* Any type, by size and alignment: an i16. */
  h = acc_i16();
  int16_t a = -300, b = 1000;
  coro_rt_resume_with(h, &a, sizeof a, _Alignof(int16_t));
  coro_rt_resume_with(h, &b, sizeof b, _Alignof(int16_t));
  // CHECK-NEXT: i16 700
  printf("i16 %lld\n", (long long)coro_rt_promise_i64(h));
  /* Bad arguments leave the coroutine alone. */
  // CHECK-NEXT: bad align -4 null value -4 still 700
  int r1 = coro_rt_resume_with(h, &a, sizeof a, 3);
  int r2 = coro_rt_resume_with(h, NULL, sizeof a, 2);
  printf("bad align %d null value %d still %lld\n", r1, r2,
         (long long)coro_rt_promise_i64(h));
  coro_rt_destroy(h);
  /* A resume value aligned to 16 sits further into the control block. */
  h = acc_i128();
  unsigned __int128 w = ((unsigned __int128)3 << 64) | 4;
  coro_rt_resume_with(h, &w, sizeof w, _Alignof(__int128));
  w = ((unsigned __int128)100 << 64) | 200;
  coro_rt_resume_with(h, &w, sizeof w, _Alignof(__int128));
  // CHECK-NEXT: i128 307
  printf("i128 %lld\n", (long long)coro_rt_promise_i64(h));
  coro_rt_destroy(h);
}

static void testPromises(void) {
  printf("@promises\n");
  // CHECK-LABEL: @promises
  int64_t base[3] = {0};
  void *h = walk(base, 3);
  int ok = 1;
  for (int k = 0; !coro_rt_done(h); ++k) {
    ok &= coro_rt_promise_ptr(h) == &base[k];
    coro_rt_resume(h);
  }
  // CHECK-NEXT: walk ok 1 final base 1
  printf("walk ok %d final base %d\n", ok, coro_rt_promise_ptr(h) == base);
  coro_rt_destroy(h);

  /* The host sets the promise; the coroutine reads it when resumed. */
  h = doubler();
  coro_rt_promise_set_i64(h, 21);
  coro_rt_resume(h);
  // CHECK-NEXT: doubled 42
  printf("doubled %lld\n", (long long)coro_rt_promise_i64(h));
  coro_rt_promise_set_i64(h, -8);
  coro_rt_resume(h);
  // CHECK-NEXT: doubled -16
  printf("doubled %lld\n", (long long)coro_rt_promise_i64(h));
  coro_rt_destroy(h);

  /* Round trips of the other setters through real promises. */
  h = acc_f64();
  coro_rt_promise_set_f64(h, 3.25);
  // CHECK-NEXT: set f64 3.25
  printf("set f64 %g\n", coro_rt_promise_f64(h));
  coro_rt_destroy(h);
  h = acc_f32();
  coro_rt_promise_set_f32(h, -1.5f);
  // CHECK-NEXT: set f32 -1.5
  printf("set f32 %g\n", (double)coro_rt_promise_f32(h));
  coro_rt_destroy(h);
  h = acc_i32();
  coro_rt_promise_set_i32(h, -7);
  // CHECK-NEXT: set i32 -7
  printf("set i32 %d\n", (int)coro_rt_promise_i32(h));
  coro_rt_destroy(h);
  h = walk(base, 2);
  coro_rt_promise_set_ptr(h, &base[2]);
  // CHECK-NEXT: set ptr 1
  printf("set ptr %d\n", coro_rt_promise_ptr(h) == &base[2]);
  coro_rt_destroy(h);

  /* A value aligned to 16: coro_rt_promise_aligned. */
  h = wide(3);
  printf("wide:");
  while (!coro_rt_done(h)) {
    unsigned __int128 v =
        *(unsigned __int128 *)coro_rt_promise_aligned(h, _Alignof(__int128));
    printf(" %llu:%llu", (unsigned long long)(v >> 64), (unsigned long long)v);
    coro_rt_resume(h);
  }
  // CHECK-NEXT: wide: 0:1 1:2 2:3
  printf("\n");
  coro_rt_destroy(h);
}

static void testMisuse(void) {
  printf("@misuse\n");
  // CHECK-LABEL: @misuse
  // CHECK-NEXT: null: resume -2 destroy -2 done -2 with -2 set -2
  printf("null: resume %d destroy %d done %d with %d set %d\n",
         coro_rt_resume(NULL), coro_rt_destroy(NULL), coro_rt_done(NULL),
         coro_rt_resume_with_i64(NULL, 1), coro_rt_promise_set_i64(NULL, 1));
  // CHECK-NEXT: null: promise 1 aligned 1 i64 0 f64 0 ptr 1
  printf("null: promise %d aligned %d i64 %lld f64 %g ptr %d\n",
         coro_rt_promise(NULL) == NULL,
         coro_rt_promise_aligned(NULL, 8) == NULL,
         (long long)coro_rt_promise_i64(NULL), coro_rt_promise_f64(NULL),
         coro_rt_promise_ptr(NULL) == NULL);
  void *h = count_retcon(1);
  coro_rt_resume(h);
  // CHECK-NEXT: ended: done 1 resume -3 with -3 final 0
  printf("ended: done %d resume %d with %d final %lld\n", coro_rt_done(h),
         coro_rt_resume(h), coro_rt_resume_with_i64(h, 5),
         (long long)coro_rt_promise_i64(h));
  // CHECK-NEXT: not a power of two: 1
  printf("not a power of two: %d\n", coro_rt_promise_aligned(h, 12) == NULL);
  coro_rt_destroy(h);
}

int main(void) {
  testEveryABI();
  testRetconOnce();
  testRetconValues();
  testPromises();
  testMisuse();
  return 0;
}
