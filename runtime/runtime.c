/* runtime.c - coro's run-time library (see coro-runtime/Runtime.h).
 *
 * The host API reaches into handles only at the offsets HandleLayout.h
 * states (checked below against C structs of the same shape), and checks
 * what it can see before it calls an entry: a null handle, an ended
 * coroutine (null resume entry).
 * Tasks are calloc'd with a 16-byte block header and their prefix in front
 * (malloc aligns to 16 on the platforms we build for, and the prefix is 80
 * bytes, so handles are 16-aligned), and released blocks are kept for the
 * next tasks of their size (Task blocks, below). The executor is a
 * growable ring buffer of handles; an event keeps its waiters in a growable
 * array until it is signalled. The only global state is those kept blocks:
 * everything else lives in the executor, event, pool and group objects and
 * in the tasks' prefixes. Three pointers are thread-local: the worker a
 * pool thread runs (so that what it submits goes to its own queue), the
 * task it is resuming (this_claim), and its kept blocks.
 *
 * Across threads (the pool, scheduled tasks, groups): a task's state word
 * is the one place threads agree on it, changed by compare-and-swap; the
 * lowered code reads it with a plain load and calls in here only when it
 * is not 0, so a task the runtime never saw pays one load per suspension.
 * Waiting for a task's end is a lock-free list (its `waiters`, linked
 * through the waiters' `link`) closed by the end with an exchange; a group
 * is a counter with one token for its waiter. The pool gives each worker a
 * mutex-guarded deque (its own end newest first, thieves take the oldest)
 * and one shared queue for other threads; idle workers sleep on `work`,
 * coro_rt_pool_wait on `idle`. A thread that blocks (coro_rt_task_wait,
 * coro_rt_group_wait) sleeps on a mutex and condition of its own stack. */
#include "coro-runtime/Runtime.h"

#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* The header every handle starts with (see HandleLayout.h). */
typedef void (*coro_rt_entry)(void *);
struct coro_rt_header {
  coro_rt_entry resume;
  coro_rt_entry destroy;
  void *continuation; /* the promise's first field */
};
_Static_assert(offsetof(struct coro_rt_header, resume) ==
                   CORO_HANDLE_RESUME_OFFSET,
               "resume entry");
_Static_assert(offsetof(struct coro_rt_header, destroy) ==
                   CORO_HANDLE_DESTROY_OFFSET,
               "destroy entry");
_Static_assert(offsetof(struct coro_rt_header, continuation) ==
                   CORO_HANDLE_PROMISE_OFFSET,
               "promise");
/* The start of a retcon control block whose value and resume value are at
 * most 8 bytes, aligned to at most 8 (the conversion's control prefix
 * type, {ptr, ptr, {ptr, S}, ptr, R}). */
struct coro_rt_retcon_prefix {
  struct coro_rt_header header; /* resume, destroy, promise continuation */
  int64_t value;                /* the promise's value */
  void *continuation;           /* LLVM's retcon continuation */
  int64_t slot;                 /* the resume slot */
};
_Static_assert(offsetof(struct coro_rt_retcon_prefix, value) ==
                   CORO_HANDLE_PROMISE_VALUE_OFFSET,
               "promise value");
_Static_assert(offsetof(struct coro_rt_retcon_prefix, continuation) ==
                   CORO_RETCON_CONTINUATION_OFFSET,
               "retcon continuation");
_Static_assert(offsetof(struct coro_rt_retcon_prefix, slot) ==
                   CORO_RETCON_RESUME_SLOT_OFFSET,
               "retcon resume slot");
/* The task prefix, at negative offsets from the handle. */
#define PREFIX_AT(field)                                                       \
  ((int)offsetof(coro_rt_task_prefix, field) - CORO_TASK_PREFIX_SIZE)
_Static_assert(sizeof(coro_rt_task_prefix) == CORO_TASK_PREFIX_SIZE, "prefix");
_Static_assert(PREFIX_AT(seen_entry) == CORO_TASK_SEEN_ENTRY_OFFSET,
               "seen entry");
_Static_assert(PREFIX_AT(state) == CORO_TASK_STATE_OFFSET, "state");
_Static_assert(PREFIX_AT(waiters) == CORO_TASK_WAITERS_OFFSET, "waiters");
_Static_assert(PREFIX_AT(home) == CORO_TASK_HOME_OFFSET, "home");
_Static_assert(PREFIX_AT(group) == CORO_TASK_GROUP_OFFSET, "group");
_Static_assert(PREFIX_AT(error) == CORO_TASK_ERROR_OFFSET, "error");
_Static_assert(PREFIX_AT(link) == CORO_TASK_LINK_OFFSET, "link");
_Static_assert(PREFIX_AT(parked) == CORO_TASK_PARKED_OFFSET, "parked");
_Static_assert(PREFIX_AT(handoff) == CORO_TASK_HANDOFF_OFFSET, "handoff");
_Static_assert(PREFIX_AT(destroying) == CORO_TASK_DESTROYING_OFFSET,
               "destroying");
_Static_assert(PREFIX_AT(awaiter) == CORO_TASK_AWAITER_OFFSET, "awaiter");
_Static_assert(CORO_TASK_PREFIX_SIZE % CORO_TASK_ALIGN == 0,
               "handles stay aligned after the prefix");

/* The runtime's thread-local variables are pointers, read at every task's
 * making, resumption and release. A shared library's default TLS model
 * reads each through a call of __tls_get_addr; the initial-exec model
 * reads it at a fixed offset from the thread pointer. Three pointers fit
 * the static TLS space glibc keeps for libraries that dlopen loads after
 * the program starts (a JIT's). */
#if defined(__GNUC__) || defined(__clang__)
#define TLS_FAST __attribute__((tls_model("initial-exec")))
#else
#define TLS_FAST
#endif

/*===-- Task blocks -------------------------------------------------------===*/

/* coro_rt_task_free keeps the blocks it is given, by size class (16 bytes
 * apart, as malloc's bins), and coro_rt_task_alloc gives them out again,
 * zeroed. Each thread keeps up to LOCAL_KEEP blocks a class of its own,
 * which it takes and gives without a shared cache line (a fib tree's
 * tasks, made and destroyed on one worker); past those, its oldest kept
 * block goes on the class's shared list, which a thread short of blocks
 * takes whole. So a task made on one thread and released on another (a
 * fan-out's producer and the workers that end its detached tasks) costs
 * neither thread glibc's arena lock, which both took for every task
 * (calloc on one side, free on the other, waiting for each other). A
 * thread's kept blocks go out oldest first, and only while more than
 * LOCAL_RESERVE are kept: a task released here is not at once the next
 * task's address, so the checked mode's table of destroyed handles
 * (docs/checked-mode.md) still tells a use after coro.destroy from a new
 * task (calloc, which takes no block from glibc's per-thread cache, did
 * not give it either). The shared lists are pushed by compare-and-swap
 * and taken by exchange (no ABA); a thread that ends gives its blocks to
 * them. A block carries its class in a header in front of the prefix.
 * Kept blocks are not given back to the system: a class keeps at most as
 * many as were alive at once. Larger blocks, and every block under
 * AddressSanitizer (which then still sees the use of a released task), go
 * to calloc and free. */
#if defined(__SANITIZE_ADDRESS__)
#define RECYCLE_BLOCKS 0
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define RECYCLE_BLOCKS 0
#endif
#endif
#ifndef RECYCLE_BLOCKS
#define RECYCLE_BLOCKS 1
#endif

enum {
  BLOCK_HEADER = 16, /* keeps the handle 16-aligned */
  CLASS_BYTES = 16,
  CLASSES = 64, /* blocks up to 1 KiB, header and prefix included */
  LOCAL_KEEP = 64,
  LOCAL_RESERVE = 16
};

struct block {
  struct block *next; /* while kept */
  int64_t cls;        /* its class, or -1: from calloc, to free */
};
_Static_assert(sizeof(struct block) <= BLOCK_HEADER, "block header");

static _Atomic(struct block *) shared_blocks[CLASSES];

/* A thread's kept blocks, oldest first. */
struct local_blocks {
  struct block *head[CLASSES], *tail[CLASSES];
  int64_t count[CLASSES];
};

/* This thread's kept blocks, made at its first task block; a pthread key
 * gives them to the shared lists when the thread ends. */
static _Thread_local TLS_FAST struct local_blocks *this_blocks;

static pthread_key_t local_blocks_key;
static pthread_once_t local_blocks_once = PTHREAD_ONCE_INIT;

/* Puts the list `first`..`last` on the shared list of `cls`. */
static void share_blocks(int64_t cls, struct block *first, struct block *last) {
  last->next = atomic_load_explicit(&shared_blocks[cls], memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(
      &shared_blocks[cls], &last->next, first, memory_order_release,
      memory_order_relaxed))
    ;
}

/* A thread that ends gives its kept blocks to the shared lists. */
static void local_blocks_end(void *arg) {
  struct local_blocks *l = arg;
  for (int64_t c = 0; c < CLASSES; ++c)
    if (l->head[c])
      share_blocks(c, l->head[c], l->tail[c]);
  if (this_blocks == l)
    this_blocks = NULL;
  free(l);
}

static void local_blocks_key_make(void) {
  pthread_key_create(&local_blocks_key, local_blocks_end);
}

/* This thread's kept blocks, or NULL when there is no memory for them. */
static struct local_blocks *local(void) {
  struct local_blocks *l = this_blocks;
  if (l)
    return l;
  pthread_once(&local_blocks_once, local_blocks_key_make);
  l = calloc(1, sizeof *l);
  if (!l)
    return NULL;
  if (pthread_setspecific(local_blocks_key, l)) {
    free(l);
    return NULL;
  }
  return this_blocks = l;
}

/* Appends `b` to this thread's blocks of `cls`. */
static void keep_local(struct local_blocks *l, int64_t cls, struct block *b) {
  b->next = NULL;
  if (l->tail[cls])
    l->tail[cls]->next = b;
  else
    l->head[cls] = b;
  l->tail[cls] = b;
  ++l->count[cls];
}

/* Takes this thread's oldest block of `cls` (there is one). */
static struct block *take_local(struct local_blocks *l, int64_t cls) {
  struct block *b = l->head[cls];
  l->head[cls] = b->next;
  if (!l->head[cls])
    l->tail[cls] = NULL;
  --l->count[cls];
  return b;
}

void *coro_rt_task_alloc(int64_t size) {
  if (size <= 0 ||
      size > INT64_MAX - CORO_RT_TASK_PREFIX_SIZE - BLOCK_HEADER - CLASS_BYTES)
    return NULL;
  size_t bytes = (size_t)size + CORO_RT_TASK_PREFIX_SIZE + BLOCK_HEADER;
  int64_t cls = (int64_t)((bytes + CLASS_BYTES - 1) / CLASS_BYTES) - 1;
  struct block *b;
  struct local_blocks *l = RECYCLE_BLOCKS && cls < CLASSES ? local() : NULL;
  if (l) {
    /* Short of blocks: take the shared list whole. It is looked at before
     * it is taken, so that two threads short of blocks do not pass its
     * cache line to and fro with every task while it is empty. */
    if (l->count[cls] <= LOCAL_RESERVE &&
        atomic_load_explicit(&shared_blocks[cls], memory_order_relaxed)) {
      struct block *t = atomic_exchange_explicit(&shared_blocks[cls], NULL,
                                                 memory_order_acquire);
      while (t) {
        struct block *n = t->next;
        keep_local(l, cls, t);
        t = n;
      }
    }
    if (l->count[cls] > LOCAL_RESERVE) {
      b = take_local(l, cls);
      memset(b, 0, (size_t)(cls + 1) * CLASS_BYTES);
    } else {
      b = calloc(1, (size_t)(cls + 1) * CLASS_BYTES);
    }
  } else {
    cls = -1;
    b = calloc(1, bytes);
  }
  if (!b)
    return NULL;
  b->cls = cls;
  return (char *)b + BLOCK_HEADER + CORO_RT_TASK_PREFIX_SIZE;
}

void coro_rt_task_free(void *handle) {
  if (!handle)
    return;
  struct block *b = (struct block *)((char *)handle - CORO_RT_TASK_PREFIX_SIZE -
                                     BLOCK_HEADER);
  int64_t cls = b->cls;
  if (cls < 0) {
    free(b);
    return;
  }
  struct local_blocks *l = local();
  if (!l) {
    free(b); /* a class block is calloc's too */
    return;
  }
  if (l->count[cls] >= LOCAL_KEEP) {
    struct block *old = take_local(l, cls);
    share_blocks(cls, old, old);
  }
  keep_local(l, cls, b);
}

void *coro_rt_context_alloc(int64_t size) {
  return size > 0 ? calloc(1, (size_t)size) : NULL;
}

void coro_rt_context_free(void *context) { free(context); }

/*===-- Handles -----------------------------------------------------------===*/

int coro_rt_resume(void *handle) {
  struct coro_rt_header *h = handle;
  if (!h)
    return CORO_RT_ERR_NULL;
  if (!h->resume)
    return CORO_RT_ERR_DONE;
  h->resume(handle);
  return CORO_RT_OK;
}

int coro_rt_destroy(void *handle) {
  struct coro_rt_header *h = handle;
  if (!h)
    return CORO_RT_ERR_NULL;
  h->destroy(handle);
  return CORO_RT_OK;
}

int coro_rt_done(void *handle) {
  struct coro_rt_header *h = handle;
  if (!h)
    return CORO_RT_ERR_NULL;
  return h->resume == NULL;
}

static int is_pow2(size_t n) { return n && !(n & (n - 1)); }

/* `n` rounded up to the power of two `align`. */
static size_t align_up(size_t n, size_t align) {
  return (n + align - 1) & ~(align - 1);
}

void *coro_rt_promise_aligned(void *handle, size_t align) {
  if (!handle || !is_pow2(align))
    return NULL;
  /* Field 1 of {ptr continuation; T value} at the promise. */
  size_t field = align_up(sizeof(void *), align);
  return (char *)handle + CORO_HANDLE_PROMISE_OFFSET + field;
}

void *coro_rt_promise(void *handle) {
  return handle ? (char *)handle + CORO_HANDLE_PROMISE_VALUE_OFFSET : NULL;
}

/* The typed accessors; memcpy keeps them free of aliasing assumptions. */
#define PROMISE_ACCESSORS(SUFFIX, TYPE)                                        \
  TYPE coro_rt_promise_##SUFFIX(void *handle) {                                \
    TYPE value = 0;                                                            \
    if (handle)                                                                \
      memcpy(&value, coro_rt_promise(handle), sizeof value);                   \
    return value;                                                              \
  }                                                                            \
  int coro_rt_promise_set_##SUFFIX(void *handle, TYPE value) {                 \
    if (!handle)                                                               \
      return CORO_RT_ERR_NULL;                                                 \
    memcpy(coro_rt_promise(handle), &value, sizeof value);                     \
    return CORO_RT_OK;                                                         \
  }                                                                            \
  int coro_rt_resume_with_##SUFFIX(void *handle, TYPE value) {                 \
    return coro_rt_resume_with(handle, &value, sizeof value, _Alignof(TYPE));  \
  }
PROMISE_ACCESSORS(i64, int64_t)
PROMISE_ACCESSORS(i32, int32_t)
PROMISE_ACCESSORS(f64, double)
PROMISE_ACCESSORS(f32, float)
PROMISE_ACCESSORS(ptr, void *)
#undef PROMISE_ACCESSORS

int coro_rt_resume_with(void *handle, const void *value, size_t size,
                        size_t align) {
  struct coro_rt_header *h = handle;
  if (!h)
    return CORO_RT_ERR_NULL;
  if (!is_pow2(align) || (!value && size))
    return CORO_RT_ERR_ARG;
  if (!h->resume)
    return CORO_RT_ERR_DONE;
  /* The slot follows LLVM's continuation, after a 16-byte promise. */
  size_t slot =
      align_up(CORO_RETCON_CONTINUATION_OFFSET + sizeof(void *), align);
  if (size)
    memcpy((char *)handle + slot, value, size);
  h->resume(handle);
  return CORO_RT_OK;
}

/*===-- Executor ----------------------------------------------------------===*/

/* A growable ring of entries: the executor's queue, and the pool's
 * (handles, or tasks with TASK_BIT). */
struct ring {
  void **at;
  size_t cap, head, count;
};

static int ring_push(struct ring *r, void *entry) {
  if (r->count == r->cap) {
    size_t cap = r->cap ? 2 * r->cap : 16;
    void **at = malloc(cap * sizeof *at);
    if (!at)
      return CORO_RT_ERR_NOMEM;
    for (size_t i = 0; i < r->count; ++i)
      at[i] = r->at[(r->head + i) % r->cap];
    free(r->at);
    r->at = at;
    r->cap = cap;
    r->head = 0;
  }
  r->at[(r->head + r->count) % r->cap] = entry;
  ++r->count;
  return CORO_RT_OK;
}

static void *ring_pop_front(struct ring *r) {
  if (!r->count)
    return NULL;
  void *e = r->at[r->head];
  r->head = (r->head + 1) % r->cap;
  --r->count;
  return e;
}

static void *ring_pop_back(struct ring *r) {
  if (!r->count)
    return NULL;
  --r->count;
  return r->at[(r->head + r->count) % r->cap];
}

struct coro_rt_executor {
  struct ring queue;
};

coro_rt_executor *coro_rt_executor_create(void) {
  return calloc(1, sizeof(coro_rt_executor));
}

void coro_rt_executor_destroy(coro_rt_executor *executor) {
  if (!executor)
    return;
  free(executor->queue.at);
  free(executor);
}

int coro_rt_schedule(coro_rt_executor *e, void *handle) {
  if (!handle)
    return CORO_RT_ERR_NULL;
  return ring_push(&e->queue, handle);
}

int64_t coro_rt_run(coro_rt_executor *e) {
  int64_t resumed = 0;
  for (void *h; (h = ring_pop_front(&e->queue));)
    if (coro_rt_resume(h) == CORO_RT_OK)
      ++resumed;
  return resumed;
}

int64_t coro_rt_pending(coro_rt_executor *e) { return (int64_t)e->queue.count; }

/*===-- Events ------------------------------------------------------------===*/

struct coro_rt_event {
  coro_rt_executor *executor;
  void **waiters;
  size_t count, cap;
  int set;
};

coro_rt_event *coro_rt_event_create(coro_rt_executor *executor) {
  coro_rt_event *ev = calloc(1, sizeof *ev);
  if (ev)
    ev->executor = executor;
  return ev;
}

void coro_rt_event_destroy(coro_rt_event *event) {
  if (!event)
    return;
  free(event->waiters);
  free(event);
}

int coro_rt_event_wait(coro_rt_event *ev, void *handle) {
  if (!handle)
    return CORO_RT_ERR_NULL;
  if (ev->set)
    return coro_rt_schedule(ev->executor, handle);
  if (ev->count == ev->cap) {
    size_t cap = ev->cap ? 2 * ev->cap : 4;
    void **w = realloc(ev->waiters, cap * sizeof *w);
    if (!w)
      return CORO_RT_ERR_NOMEM;
    ev->waiters = w;
    ev->cap = cap;
  }
  ev->waiters[ev->count++] = handle;
  return CORO_RT_OK;
}

void coro_rt_event_signal(coro_rt_event *ev) {
  if (ev->set)
    return;
  ev->set = 1;
  for (size_t i = 0; i < ev->count; ++i)
    coro_rt_schedule(ev->executor, ev->waiters[i]);
  ev->count = 0;
}

int coro_rt_event_is_set(coro_rt_event *ev) { return ev->set; }

/*===-- Tasks as the runtime sees them ------------------------------------===*/

/* The prefix with the fields other threads touch made atomic (the layout of
 * coro_rt_task_prefix, checked below). */
struct task {
  void *seen_entry; /* written before the handle escapes; read only */
  void *reserved;
  _Atomic int64_t state;
  _Atomic(void *) waiters; /* NULL, a list of waiters, or ENDED_MARK */
  _Atomic(coro_rt_pool *) home;
  _Atomic(coro_rt_group *) group;
  const char *error;
  void *link; /* the next waiter, while this task waits */
  void *parked;
  void *handoff;
  int64_t destroying;
  void *awaiter;
};
#define TASK_AT(field)                                                         \
  ((int)offsetof(struct task, field) - CORO_TASK_PREFIX_SIZE)
_Static_assert(sizeof(struct task) == CORO_TASK_PREFIX_SIZE, "task prefix");
_Static_assert(TASK_AT(state) == CORO_TASK_STATE_OFFSET, "state");
_Static_assert(TASK_AT(waiters) == CORO_TASK_WAITERS_OFFSET, "waiters");
_Static_assert(TASK_AT(home) == CORO_TASK_HOME_OFFSET, "home");
_Static_assert(TASK_AT(group) == CORO_TASK_GROUP_OFFSET, "group");
_Static_assert(TASK_AT(link) == CORO_TASK_LINK_OFFSET, "link");
_Static_assert(TASK_AT(parked) == CORO_TASK_PARKED_OFFSET, "parked");
_Static_assert(TASK_AT(awaiter) == CORO_TASK_AWAITER_OFFSET, "awaiter");

static struct task *task_of(void *handle) {
  return (struct task *)((char *)handle - CORO_TASK_PREFIX_SIZE);
}

/* The runtime sees the task `handle` (a call that may make its state word
 * non-zero): one whose generated code gave it a seen entry gets it as its
 * resume entry from now on, once, unless it has ended (a null entry stays
 * null). Its own entry assumes the runtime never saw it (route B's: it
 * does not look at the state word), so this comes before the state
 * changes; the seen entry looks at the word on every resume. */
static void seen(void *handle) {
  struct task *t = task_of(handle);
  coro_rt_entry k = (coro_rt_entry)t->seen_entry;
  if (!k)
    return;
  struct coro_rt_header *h = handle;
  coro_rt_entry cur = __atomic_load_n(&h->resume, __ATOMIC_ACQUIRE);
  while (cur && cur != k &&
         !__atomic_compare_exchange_n(&h->resume, &cur, k, false,
                                      __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
    ;
}

/* The state word's bits. A task the runtime never saw has 0. */
enum {
  T_SCHED = 1 << 0,   /* submitted to a pool: awaiters wait, never drive it */
  T_QUEUED = 1 << 1,  /* in a pool's queue */
  T_RUNNING = 1 << 2, /* running: a submission waits for its next park */
  T_WAITING = 1 << 3, /* suspended until a task or a group ends */
  T_NOTIFY = 1 << 4,  /* submitted while running or waiting */
  T_ENDED = 1 << 5,
  T_FAILED = 1 << 6,
  T_GROUPED = 1 << 7,
  T_UNSCHEDULED = 1 << 8, /* in a group, counted there as not scheduled */
  T_DRIVEN = 1 << 9,      /* entered by an awaiter that drives it in place */
  T_DETACHED = 1 << 10    /* its end releases it (coro_rt_task_detach) */
};

/* `waiters` once the task has ended: nobody is added any more. */
#define ENDED_MARK ((void *)1)
/* A waiting thread is in the lists as its struct host_wait's address with
 * this bit set (tasks are 16-aligned, so their handles never have it). */
#define HOST_BIT ((uintptr_t)2)
/* An awaiter the runtime knows only as a handle of any ABI (an await that
 * could not see the task is scheduled) is in the lists as a struct
 * foreign_wait's address with both low bits set. */
#define FOREIGN_BITS ((uintptr_t)3)
/* A pool entry that is a task submitted by coro_rt_task_submit, which the
 * worker claims before it resumes it. */
#define TASK_BIT ((uintptr_t)1)
/* The continuation of a scheduled task. An awaiter that cannot see the
 * task is scheduled publishes itself there with a compare-and-swap from
 * NULL, then calls the task's resume entry (coro_rt_task_enter), which
 * takes it. The end swaps in CONT_ENDED: an awaiter that finds it does not
 * call the entry (the task has ended) but goes on. One the end finds there
 * (published, the entry not called yet) it hands to that entry, tagged
 * with CONT_HANDED, and leaves the resume entry set for it: the entry,
 * not the end, clears it, so the awaiter's call never finds it null. */
#define CONT_ENDED ((void *)CORO_HANDLE_CONTINUATION_ENDED)
#define CONT_HANDED ((uintptr_t)2)
_Static_assert((CORO_HANDLE_CONTINUATION_ENDED | CONT_HANDED) ==
                   CORO_HANDLE_CONTINUATION_TAGS,
               "the continuation's tags");
/* What coro_rt_task_end returns for a continuation of another ABI, which
 * the lowered end leaves for its entry to run (a handoff). */
#define HANDOFF_BIT ((uintptr_t)1)

/* A thread blocked until a task or group ends. */
struct host_wait {
  pthread_mutex_t mu;
  pthread_cond_t cv;
  int done;
  void *link; /* the next waiter in a task's list */
};

static void host_wait_init(struct host_wait *w) {
  pthread_mutex_init(&w->mu, NULL);
  pthread_cond_init(&w->cv, NULL);
  w->done = 0;
  w->link = NULL;
}

static void host_wait_destroy(struct host_wait *w) {
  pthread_cond_destroy(&w->cv);
  pthread_mutex_destroy(&w->mu);
}

static void host_wait_block(struct host_wait *w) {
  pthread_mutex_lock(&w->mu);
  while (!w->done)
    pthread_cond_wait(&w->cv, &w->mu);
  pthread_mutex_unlock(&w->mu);
  host_wait_destroy(w);
}

static void host_wait_signal(struct host_wait *w) {
  pthread_mutex_lock(&w->mu);
  w->done = 1;
  pthread_cond_signal(&w->cv);
  pthread_mutex_unlock(&w->mu);
}

/* An awaiter of any ABI waiting for a scheduled task: its end resumes it
 * through its resume entry. */
struct foreign_wait {
  void *link; /* the next waiter */
  void *handle;
};

/* The handle a pool worker took from its queue and is resuming: its resume
 * entry runs it (coro_rt_task_enter); any other resumption of a scheduled
 * task is an awaiter's that could not see it is scheduled. */
static _Thread_local TLS_FAST void *this_claim;

/* Changes the state of `t` by `clear` then `set`; returns the old state. */
static int64_t state_change(struct task *t, int64_t clear, int64_t set) {
  int64_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
  while (!atomic_compare_exchange_weak_explicit(
      &t->state, &s, (s & ~clear) | set, memory_order_acq_rel,
      memory_order_relaxed))
    ;
  return s;
}

static int pool_push(coro_rt_pool *p, void *entry);

/* Resumes `handle` here and now, as the pool does: its resume entry runs
 * it even when it is scheduled (coro_rt_task_enter). */
static int resume_here(void *handle) {
  this_claim = handle;
  int rc = coro_rt_resume(handle);
  this_claim = NULL;
  return rc;
}

/* Marks `t` (whose state was `s`) running: a submission now waits for its
 * next park. */
static void mark_running(struct task *t, int64_t s) {
  if (!(s & T_RUNNING))
    atomic_fetch_or_explicit(&t->state, T_RUNNING, memory_order_acq_rel);
}

/* The waiting task `handle` may go on: it runs on this thread now (the
 * caller transfers to it). */
static void wake_here(void *handle) {
  state_change(task_of(handle), T_WAITING, T_RUNNING);
}

/* The waiting task `handle` may go on elsewhere: queued on its pool, or,
 * having none, resumed here and now (it runs until it suspends). */
static void wake_elsewhere(void *handle) {
  struct task *t = task_of(handle);
  coro_rt_pool *home = atomic_load_explicit(&t->home, memory_order_acquire);
  if (home) {
    state_change(t, T_WAITING, T_QUEUED);
    if (pool_push(home, (void *)((uintptr_t)handle | TASK_BIT)) == CORO_RT_OK)
      return;
    state_change(t, T_QUEUED, T_WAITING); /* no memory: run it here */
  }
  wake_here(handle);
  resume_here(handle);
}

/* Marks the running task `self` as waiting; undone by `wake_here`. */
static void begin_wait(void *self) {
  state_change(task_of(self), T_RUNNING, T_WAITING);
}

static bool add_waiter(struct task *t, void *entry, void **link);
static void wait_ended(void *handle);

void *coro_rt_task_enter(void *handle) {
  seen(handle);
  struct task *t = task_of(handle);
  int64_t s = atomic_load_explicit(&t->state, memory_order_acquire);
  struct coro_rt_header *h = handle;
  if (!(s & T_SCHED) || this_claim == handle) {
    /* nobody else runs it, or the pool or an end hands it to this thread;
     * an awaiter that published itself drives it */
    this_claim = NULL;
    mark_running(t, s);
    if (!(s & T_SCHED) && __atomic_load_n(&h->continuation, __ATOMIC_ACQUIRE))
      atomic_fetch_or_explicit(&t->state, T_DRIVEN, memory_order_acq_rel);
    return NULL;
  }
  /* A scheduled task resumed by an awaiter that could not see it is
   * scheduled (a handle of unknown origin, an awaiter of another ABI),
   * which published itself as the task's continuation first: it waits for
   * the end instead, or, when the end handed it here, goes on. */
  void *k = __atomic_load_n(&h->continuation, __ATOMIC_ACQUIRE);
  for (;;) {
    if (k == CONT_ENDED) {
      /* the end is between its swap and its handing over; or this is a
       * plain resume of a task that has ended (its entry is cleared) */
      if (!__atomic_load_n(&h->resume, __ATOMIC_ACQUIRE))
        return (void *)1;
      sched_yield();
      k = __atomic_load_n(&h->continuation, __ATOMIC_ACQUIRE);
      continue;
    }
    if (!k)
      return (void *)1; /* a plain resume: run nothing */
    void *to = (uintptr_t)k & CONT_HANDED ? CONT_ENDED : NULL;
    if (__atomic_compare_exchange_n(&h->continuation, &k, to, false,
                                    __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
      break;
  }
  if ((uintptr_t)k & CONT_HANDED) {
    /* the end left the last access of the task to this entry */
    __atomic_store_n(&h->resume, NULL, __ATOMIC_RELEASE);
    return (void *)((uintptr_t)k & ~CONT_HANDED);
  }
  struct foreign_wait *w = malloc(sizeof *w);
  if (w) {
    w->handle = k;
    if (add_waiter(t, (void *)((uintptr_t)w | FOREIGN_BITS), &w->link))
      return (void *)1; /* the end resumes `k` */
    free(w);
  }
  wait_ended(handle);
  return k; /* it has ended: `k` goes on (from its resume entry) */
}

void coro_rt_task_park(void *handle) {
  struct task *t = task_of(handle);
  int64_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
  int64_t n;
  do
    n = s & T_NOTIFY ? (s & ~(T_RUNNING | T_NOTIFY)) | T_QUEUED
                     : s & ~T_RUNNING;
  while (!atomic_compare_exchange_weak_explicit(
      &t->state, &s, n, memory_order_acq_rel, memory_order_relaxed));
  if (!(s & T_NOTIFY))
    return;
  /* submitted while it ran: queue it now that it has parked */
  coro_rt_pool *home = atomic_load_explicit(&t->home, memory_order_acquire);
  if (pool_push(home, (void *)((uintptr_t)handle | TASK_BIT)) != CORO_RT_OK)
    state_change(t, T_QUEUED, 0);
}

/* Adds `entry` (a task's handle, a host_wait with HOST_BIT, or a
 * foreign_wait with FOREIGN_BITS) to the waiters of `t`; false when `t`
 * has ended. */
static bool add_waiter(struct task *t, void *entry, void **link) {
  void *head = atomic_load_explicit(&t->waiters, memory_order_acquire);
  do {
    if (head == ENDED_MARK)
      return false;
    *link = head;
  } while (!atomic_compare_exchange_weak_explicit(
      &t->waiters, &head, entry, memory_order_acq_rel, memory_order_acquire));
  return true;
}

/* Waits until the task `t`, whose end has begun (ENDED or ENDED_MARK seen),
 * has cleared its resume entry: its end's last access to it. After that
 * whoever saw it end may destroy it. */
static void wait_ended(void *handle) {
  struct coro_rt_header *h = handle;
  while (__atomic_load_n(&h->resume, __ATOMIC_ACQUIRE))
    sched_yield();
}

void coro_rt_task_acquire(void *handle) { wait_ended(handle); }

int32_t coro_rt_task_await(void *self, void *handle) {
  seen(self);
  seen(handle);
  struct task *t = task_of(handle);
  int64_t s = atomic_load_explicit(&t->state, memory_order_acquire);
  if (!(s & T_SCHED)) {
    /* nobody else runs it: the awaiter drives it, as without the runtime */
    mark_running(t, s);
    return 0;
  }
  begin_wait(self);
  if (add_waiter(t, self, &task_of(self)->link))
    return 1; /* its end resumes `self` */
  wait_ended(handle);
  wake_here(self);
  return 2; /* it has ended: go on */
}

int coro_rt_task_wait(void *handle) {
  if (!handle)
    return CORO_RT_ERR_NULL;
  if (!__atomic_load_n(&((struct coro_rt_header *)handle)->resume,
                       __ATOMIC_ACQUIRE))
    return CORO_RT_OK; /* it has ended */
  struct task *t = task_of(handle);
  int64_t s = atomic_load_explicit(&t->state, memory_order_acquire);
  if (!(s & (T_SCHED | T_ENDED)))
    return CORO_RT_ERR_ARG;
  struct host_wait w;
  host_wait_init(&w);
  if (!add_waiter(t, (void *)((uintptr_t)&w | HOST_BIT), &w.link)) {
    host_wait_destroy(&w);
    wait_ended(handle);
    return CORO_RT_OK;
  }
  host_wait_block(&w);
  return CORO_RT_OK;
}

int coro_rt_task_failed(void *handle) {
  if (!handle)
    return CORO_RT_ERR_NULL;
  return (atomic_load_explicit(&task_of(handle)->state, memory_order_acquire) &
          T_FAILED) != 0;
}

const char *coro_rt_task_error(void *handle) {
  return coro_rt_task_failed(handle) == 1 ? task_of(handle)->error : NULL;
}

int coro_rt_task_fail(void *handle, const char *message) {
  if (!handle)
    return CORO_RT_ERR_NULL;
  seen(handle);
  struct task *t = task_of(handle);
  t->error = message;
  atomic_fetch_or_explicit(&t->state, T_FAILED, memory_order_acq_rel);
  return CORO_RT_OK;
}

/*===-- Task groups -------------------------------------------------------===*/

struct coro_rt_group {
  /* tasks added and not ended, plus one token for the waiter */
  _Atomic int64_t count;
  _Atomic int64_t failed;
  /* of those, tasks nobody has submitted: a thread waiting for them would
   * wait for good */
  _Atomic int64_t unscheduled;
  void *waiter; /* a task, or a host_wait with HOST_BIT */
};

coro_rt_group *coro_rt_group_create(void) {
  coro_rt_group *g = calloc(1, sizeof *g);
  if (g)
    atomic_init(&g->count, 1);
  return g;
}

int coro_rt_group_add(coro_rt_group *g, void *handle) {
  if (!g || !handle)
    return CORO_RT_ERR_NULL;
  seen(handle);
  struct task *t = task_of(handle);
  coro_rt_group *none = NULL;
  if (!atomic_compare_exchange_strong_explicit(
          &t->group, &none, g, memory_order_acq_rel, memory_order_acquire))
    return CORO_RT_ERR_BUSY;
  atomic_fetch_add_explicit(&g->count, 1, memory_order_relaxed);
  atomic_fetch_add_explicit(&g->unscheduled, 1, memory_order_relaxed);
  int64_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
  while (!(s & T_ENDED)) {
    int64_t n = s | T_GROUPED | (s & T_SCHED ? 0 : T_UNSCHEDULED);
    if (atomic_compare_exchange_weak_explicit(
            &t->state, &s, n, memory_order_acq_rel, memory_order_relaxed)) {
      if (s & T_SCHED)
        atomic_fetch_sub_explicit(&g->unscheduled, 1, memory_order_relaxed);
      return CORO_RT_OK; /* its end counts it */
    }
  }
  /* it has ended already */
  atomic_fetch_sub_explicit(&g->unscheduled, 1, memory_order_relaxed);
  wait_ended(handle);
  if (s & T_FAILED)
    atomic_fetch_add_explicit(&g->failed, 1, memory_order_relaxed);
  atomic_fetch_sub_explicit(&g->count, 1, memory_order_acq_rel);
  return CORO_RT_OK;
}

/* A task of `g` has ended; returns the waiting task to wake, if this was
 * the last one (a waiting thread is woken here). */
static void *group_member_ended(coro_rt_group *g, bool failed) {
  if (failed)
    atomic_fetch_add_explicit(&g->failed, 1, memory_order_relaxed);
  if (atomic_fetch_sub_explicit(&g->count, 1, memory_order_acq_rel) != 1)
    return NULL;
  void *w = g->waiter;
  if ((uintptr_t)w & HOST_BIT) {
    host_wait_signal((struct host_wait *)((uintptr_t)w & ~HOST_BIT));
    return NULL;
  }
  return w;
}

int32_t coro_rt_group_park(coro_rt_group *g, void *self) {
  seen(self);
  begin_wait(self);
  g->waiter = self;
  if (atomic_fetch_sub_explicit(&g->count, 1, memory_order_acq_rel) != 1)
    return 1; /* the last task's end resumes `self` */
  wake_here(self);
  return 0; /* all have ended: go on */
}

int64_t coro_rt_group_result(coro_rt_group *g) {
  g->waiter = NULL;
  atomic_store_explicit(&g->count, 1, memory_order_relaxed);
  return atomic_exchange_explicit(&g->failed, 0, memory_order_acq_rel);
}

int64_t coro_rt_group_wait(coro_rt_group *g) {
  if (!g)
    return CORO_RT_ERR_NULL;
  if (atomic_load_explicit(&g->unscheduled, memory_order_acquire))
    return CORO_RT_ERR_ARG; /* nothing would end them: it would hang */
  struct host_wait w;
  host_wait_init(&w);
  g->waiter = (void *)((uintptr_t)&w | HOST_BIT);
  if (atomic_fetch_sub_explicit(&g->count, 1, memory_order_acq_rel) != 1) {
    host_wait_block(&w);
  } else {
    host_wait_destroy(&w);
  }
  return coro_rt_group_result(g);
}

int64_t coro_rt_group_pending(coro_rt_group *g) {
  return g ? atomic_load_explicit(&g->count, memory_order_acquire) - 1
           : CORO_RT_ERR_NULL;
}

int coro_rt_group_destroy(coro_rt_group *g) {
  if (!g)
    return CORO_RT_ERR_NULL;
  if (atomic_load_explicit(&g->count, memory_order_acquire) != 1)
    return CORO_RT_ERR_BUSY;
  free(g);
  return CORO_RT_OK;
}

/*===-- A task's end ------------------------------------------------------===*/

void *coro_rt_task_end(void *handle) {
  struct task *t = task_of(handle);
  struct coro_rt_header *h = handle;
  /* everything of `handle` is read first, and its resume entry cleared
   * last: once it is, whoever sees it may destroy the task */
  bool dying = t->destroying != 0;
  int64_t s0 = atomic_load_explicit(&t->state, memory_order_acquire);
  void *driver = NULL; /* an awaiter that drove it, if any */
  void *handed = NULL; /* an awaiter published and not entered yet */
  if ((s0 & (T_SCHED | T_DRIVEN)) == T_SCHED && !t->awaiter) {
    /* nobody drives a scheduled task: an awaiter there goes on from its
     * call of the resume entry, which the end hands it to (below) */
    handed =
        __atomic_exchange_n(&h->continuation, CONT_ENDED, __ATOMIC_ACQ_REL);
    if (handed == CONT_ENDED)
      handed = NULL;
  } else {
    driver = __atomic_exchange_n(&h->continuation, NULL, __ATOMIC_ACQ_REL);
  }
  bool driver_async = t->awaiter != NULL;
  coro_rt_group *g = atomic_load_explicit(&t->group, memory_order_acquire);
  coro_rt_pool *home = atomic_load_explicit(&t->home, memory_order_acquire);
  int64_t s = state_change(t, T_UNSCHEDULED, T_ENDED);
  if (s & T_UNSCHEDULED) /* it ended all the same (driven in place) */
    atomic_fetch_sub_explicit(&g->unscheduled, 1, memory_order_relaxed);
  void *list =
      atomic_exchange_explicit(&t->waiters, ENDED_MARK, memory_order_acq_rel);
  if (handed) /* its entry clears the resume entry */
    __atomic_store_n(&h->continuation,
                     (void *)((uintptr_t)handed | CONT_HANDED),
                     __ATOMIC_RELEASE);
  else
    __atomic_store_n(&h->resume, NULL, __ATOMIC_RELEASE);
  /* A detached task is released here, before its group hears of its end:
   * nothing of it is read from here on (nor by the lowered end once this
   * returns), and nobody else holds it. Its destroy entry finds the resume
   * entry clear and frees it; a task being destroyed is freed by that
   * destroy entry instead. */
  if ((s & T_DETACHED) && !dying && !handed)
    h->destroy(handle);

  void *next = NULL; /* whom the lowered end transfers to */
  if (!dying && driver)
    next = driver_async ? driver : (void *)((uintptr_t)driver | HANDOFF_BIT);
  /* the group's waiter first: it is woken once, and only by the last end */
  void *gw = s & T_GROUPED ? group_member_ended(g, s & T_FAILED) : NULL;
  if (gw) {
    if (!dying && !next) {
      wake_here(gw);
      next = gw;
    } else {
      wake_elsewhere(gw);
    }
  }
  while (list) {
    void *w = list;
    if (((uintptr_t)w & FOREIGN_BITS) == FOREIGN_BITS) {
      struct foreign_wait *fw =
          (struct foreign_wait *)((uintptr_t)w & ~FOREIGN_BITS);
      list = fw->link;
      void *k = fw->handle;
      free(fw);
      if (!dying && !next) { /* its entry runs it: any ABI */
        next = (void *)((uintptr_t)k | HANDOFF_BIT);
      } else if (!home || coro_rt_pool_submit(home, k) != CORO_RT_OK) {
        resume_here(k);
      }
      continue;
    }
    if ((uintptr_t)w & HOST_BIT) {
      struct host_wait *hw = (struct host_wait *)((uintptr_t)w & ~HOST_BIT);
      list = hw->link;
      host_wait_signal(hw);
      continue;
    }
    list = task_of(w)->link;
    if (!dying && !next) {
      wake_here(w);
      next = w;
    } else {
      wake_elsewhere(w);
    }
  }
  if ((uintptr_t)next & HANDOFF_BIT) /* its resume entry runs next here */
    this_claim = (void *)((uintptr_t)next & ~HANDOFF_BIT);
  return next;
}

int coro_rt_task_detach(void *handle) {
  if (!handle)
    return CORO_RT_ERR_NULL;
  seen(handle);
  struct task *t = task_of(handle);
  struct coro_rt_header *h = handle;
  int64_t s = atomic_load_explicit(&t->state, memory_order_acquire);
  /* A task the runtime never saw ends without it (its end reads the state
   * word only when it ends, and nobody else runs it: Runtime.h); one that
   * has ended so is released here. */
  if (!s && !__atomic_load_n(&h->resume, __ATOMIC_ACQUIRE)) {
    h->destroy(handle);
    return CORO_RT_OK;
  }
  while (!(s & T_ENDED)) {
    if (s & T_DETACHED)
      return CORO_RT_ERR_BUSY;
    /* its end sees the mark (the compare-and-swap orders the two) */
    if (atomic_compare_exchange_weak_explicit(&t->state, &s, s | T_DETACHED,
                                              memory_order_acq_rel,
                                              memory_order_acquire))
      return CORO_RT_OK;
  }
  /* it has ended (or is ending) unmarked: released here, once its end has
   * done with it */
  wait_ended(handle);
  h->destroy(handle);
  return CORO_RT_OK;
}

/*===-- Thread pool -------------------------------------------------------===*/

/* A queue's lock: held for a few instructions (a ring push or pop), so
 * it spins, giving the CPU away while the holder may be off it, rather
 * than sleeping in the kernel as a contended mutex does. */
typedef struct {
  _Atomic int held;
} spin_lock;

static void spin_acquire(spin_lock *l) {
  while (atomic_exchange_explicit(&l->held, 1, memory_order_acquire))
    for (int i = 0; atomic_load_explicit(&l->held, memory_order_relaxed);)
      if (++i % 64 == 0)
        sched_yield();
}

static void spin_release(spin_lock *l) {
  atomic_store_explicit(&l->held, 0, memory_order_release);
}

struct queue {
  spin_lock mu;
  struct ring ring;
  _Atomic int64_t size; /* ring.count, for looking without the lock */
};

/* A worker's counters are written by it alone (no cache line moves
 * between cores per task); coro_rt_pool_wait adds them up. */
struct worker {
  _Alignas(64) struct queue q; /* its own: pushed and popped at the back,
                                  stolen from the front */
  coro_rt_pool *pool;
  pthread_t thread;
  _Atomic int64_t submitted; /* entries this worker queued */
  _Atomic int64_t finished;  /* entries it took and ran (or skipped) */
  _Atomic int64_t resumed;   /* resumptions that finished */
};

/* The counters every submission and resumption touches sit on cache lines
 * of their own; the rest changes only when workers sleep or threads wait. */
struct coro_rt_pool {
  pthread_mutex_t mu;               /* guards sleeping workers and waiters */
  pthread_cond_t work;              /* something queued, or stopping */
  pthread_cond_t idle;              /* nothing queued and nothing running */
  _Alignas(64) struct queue shared; /* what other threads submit */
  _Atomic int64_t submitted;        /* entries other threads queued */
  _Alignas(64) _Atomic int64_t sleeping; /* workers asleep on `work` */
  _Atomic int64_t searching; /* workers awake and looking for an entry */
  _Atomic int64_t waiting;   /* threads in coro_rt_pool_wait */
  _Atomic int stopping;
  int64_t nworkers;
  struct worker workers[];
};

/* How many times an idle worker yields its CPU and looks again before it
 * sleeps, and how many entries it takes at once from the shared queue. */
enum { IDLE_SPINS = 8, SHARED_BATCH = 32 };

/* The worker this thread is, on the pool threads. */
static _Thread_local TLS_FAST struct worker *this_worker;

static void queue_sized(struct queue *q) {
  atomic_store(&q->size, (int64_t)q->ring.count);
}

static int queue_push(struct queue *q, void *entry) {
  spin_acquire(&q->mu);
  int rc = ring_push(&q->ring, entry);
  queue_sized(q);
  spin_release(&q->mu);
  return rc;
}

static void *queue_pop(struct queue *q, bool back) {
  if (!atomic_load_explicit(&q->size, memory_order_relaxed))
    return NULL; /* empty, or filling: the caller looks again */
  spin_acquire(&q->mu);
  void *e = back ? ring_pop_back(&q->ring) : ring_pop_front(&q->ring);
  queue_sized(q);
  spin_release(&q->mu);
  return e;
}

static bool queue_empty(struct queue *q) { return atomic_load(&q->size) == 0; }

/* Entries queued and not yet finished: what coro_rt_pool_wait waits for.
 * The finished counts are read first: every entry they count was
 * submitted before, so counted by the submitted ones read after, and the
 * difference is 0 only when nothing counted is queued or running. */
static int64_t pool_outstanding(coro_rt_pool *p) {
  int64_t n = 0;
  for (int64_t i = 0; i < p->nworkers; ++i)
    n -= atomic_load(&p->workers[i].finished);
  n += atomic_load(&p->submitted);
  for (int64_t i = 0; i < p->nworkers; ++i)
    n += atomic_load(&p->workers[i].submitted);
  return n;
}

/* Wakes the threads in coro_rt_pool_wait when nothing is outstanding. */
static void pool_wake_waiters(coro_rt_pool *p) {
  if (atomic_load(&p->waiting) && pool_outstanding(p) == 0) {
    pthread_mutex_lock(&p->mu);
    pthread_cond_broadcast(&p->idle);
    pthread_mutex_unlock(&p->mu);
  }
}

/* Adds 1 to a counter only its owner writes. */
static void count(_Atomic int64_t *c) {
  atomic_store(c, atomic_load_explicit(c, memory_order_relaxed) + 1);
}

/* Takes back a count() of a counter only its owner writes. */
static void uncount(_Atomic int64_t *c) {
  atomic_store(c, atomic_load_explicit(c, memory_order_relaxed) - 1);
}

/* Whether some queue of `p` holds an entry. */
static bool pool_has_work(coro_rt_pool *p) {
  if (!queue_empty(&p->shared))
    return true;
  for (int64_t i = 0; i < p->nworkers; ++i)
    if (!queue_empty(&p->workers[i].q))
      return true;
  return false;
}

/* Wakes one sleeping worker. */
static void pool_wake(coro_rt_pool *p) {
  pthread_mutex_lock(&p->mu);
  pthread_cond_signal(&p->work);
  pthread_mutex_unlock(&p->mu);
}

/* A submission and a worker going to sleep meet as in Dekker's algorithm:
 * the submitter queues, then (seq_cst) reads `searching` and `sleeping`;
 * a worker stops searching, adds itself to `sleeping`, then looks at every
 * queue. One of them sees the other, so no entry waits while every worker
 * sleeps. A worker still searching will find the entry: the submitter
 * wakes nobody then (a wake-up is a futex call here and a thread switch
 * there, dearer than most tasks), and a searcher that finds an entry wakes
 * the next sleeper if it was the last searcher and entries are left. */
static int pool_push(coro_rt_pool *p, void *entry) {
  struct worker *w = this_worker;
  bool mine = w && w->pool == p;
  /* Counted before it is queued: once queued, another worker may take,
   * run and count it finished at once, and a wait that read that finished
   * count before this submission's would see nothing outstanding while the
   * task that submits is still running. */
  if (mine)
    count(&w->submitted);
  else
    atomic_fetch_add(&p->submitted, 1);
  int rc = queue_push(mine ? &w->q : &p->shared, entry);
  if (rc != CORO_RT_OK) {
    if (mine)
      uncount(&w->submitted);
    else
      atomic_fetch_sub(&p->submitted, 1);
    pool_wake_waiters(p); /* a wait may have slept on this count */
    return rc;
  }
  atomic_thread_fence(memory_order_seq_cst);
  if (atomic_load(&p->searching) == 0 && atomic_load(&p->sleeping) > 0)
    pool_wake(p);
  return CORO_RT_OK;
}

/* The oldest entry of the shared queue, and up to half of what follows it
 * (at most SHARED_BATCH) moved to `w`'s own queue: a thread that submits
 * many tasks then meets its workers at the shared lock once a batch. */
static void *take_shared(coro_rt_pool *p, struct worker *w) {
  void *batch[SHARED_BATCH];
  size_t n = 0;
  if (!atomic_load_explicit(&p->shared.size, memory_order_relaxed))
    return NULL;
  spin_acquire(&p->shared.mu);
  void *e = ring_pop_front(&p->shared.ring);
  size_t more = p->shared.ring.count / 2;
  while (e && n < more && n < SHARED_BATCH)
    batch[n++] = ring_pop_front(&p->shared.ring);
  queue_sized(&p->shared);
  spin_release(&p->shared.mu);
  if (n) {
    spin_acquire(&w->q.mu);
    /* oldest last, so that the worker, newest first, takes them in order */
    for (size_t i = n; i-- > 0;)
      if (ring_push(&w->q.ring, batch[i]) != CORO_RT_OK) {
        queue_sized(&w->q);
        spin_release(&w->q.mu);
        spin_acquire(&p->shared.mu); /* back where they were */
        for (size_t k = 0; k <= i; ++k)
          ring_push(&p->shared.ring, batch[k]);
        queue_sized(&p->shared);
        spin_release(&p->shared.mu);
        return e;
      }
    queue_sized(&w->q);
    spin_release(&w->q.mu);
  }
  return e;
}

/* The next entry for `w`: its own newest, the shared oldest, or another
 * worker's oldest. */
static void *pool_take(coro_rt_pool *p, struct worker *w) {
  void *e = queue_pop(&w->q, true);
  if (!e)
    e = take_shared(p, w);
  int64_t me = w - p->workers;
  for (int64_t i = 1; !e && i < p->nworkers; ++i)
    e = queue_pop(&p->workers[(me + i) % p->nworkers].q, false);
  return e;
}

/* Resumes a taken entry; whether a resumption finished. */
static bool pool_run(void *e) {
  void *h = (void *)((uintptr_t)e & ~TASK_BIT);
  if ((uintptr_t)e & TASK_BIT &&
      state_change(task_of(h), T_QUEUED, T_RUNNING) & T_ENDED)
    return false;
  return resume_here(h) == CORO_RT_OK;
}

/* Sleeps until some queue has an entry or the pool stops; whether it
 * stops. */
static bool pool_sleep(coro_rt_pool *p) {
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add(&p->sleeping, 1);
  bool stop;
  while (!(stop = atomic_load(&p->stopping)) && !pool_has_work(p))
    pthread_cond_wait(&p->work, &p->mu);
  atomic_fetch_sub(&p->sleeping, 1);
  pthread_mutex_unlock(&p->mu);
  return stop && !pool_has_work(p);
}

static void *pool_worker(void *arg) {
  struct worker *w = arg;
  coro_rt_pool *p = w->pool;
  this_worker = w;
  for (;;) {
    void *e = pool_take(p, w);
    if (!e) {
      /* Before sleeping, search: give the CPU to whoever runs for a while
       * and look again. A producer faster than its tasks then finds its
       * workers awake, and saves the wake-up per task. */
      atomic_fetch_add(&p->searching, 1);
      for (int spin = 0; !e && spin < IDLE_SPINS; ++spin) {
        sched_yield();
        e = pool_take(p, w);
      }
      bool last = atomic_fetch_sub(&p->searching, 1) == 1;
      if (!e) {
        if (pool_sleep(p))
          break;
        continue;
      }
      /* submissions woke nobody while this one searched */
      if (last && atomic_load(&p->sleeping) > 0 && pool_has_work(p))
        pool_wake(p);
    }
    if (pool_run(e))
      count(&w->resumed);
    count(&w->finished);
    pool_wake_waiters(p);
  }
  this_worker = NULL;
  return NULL;
}

/* Stops the first `started` workers and joins them. */
static void pool_stop(coro_rt_pool *p, int64_t started) {
  pthread_mutex_lock(&p->mu);
  atomic_store(&p->stopping, 1);
  pthread_cond_broadcast(&p->work);
  pthread_mutex_unlock(&p->mu);
  for (int64_t i = 0; i < started; ++i)
    pthread_join(p->workers[i].thread, NULL);
}

static void pool_free(coro_rt_pool *p) {
  for (int64_t i = 0; i < p->nworkers; ++i) {
    free(p->workers[i].q.ring.at);
  }
  free(p->shared.ring.at);
  pthread_cond_destroy(&p->idle);
  pthread_cond_destroy(&p->work);
  pthread_mutex_destroy(&p->mu);
  free(p);
}

coro_rt_pool *coro_rt_pool_create(int64_t threads) {
  if (threads < 1 || threads > 256)
    return NULL;
  coro_rt_pool *p = aligned_alloc(
      64, (sizeof *p + (size_t)threads * sizeof(struct worker) + 63) / 64 * 64);
  if (!p)
    return NULL;
  memset(p, 0, sizeof *p + (size_t)threads * sizeof(struct worker));
  pthread_mutex_init(&p->mu, NULL);
  pthread_cond_init(&p->work, NULL);
  pthread_cond_init(&p->idle, NULL);
  p->nworkers = threads;
  for (int64_t i = 0; i < threads; ++i) {
    p->workers[i].pool = p;
  }
  for (int64_t i = 0; i < threads; ++i)
    if (pthread_create(&p->workers[i].thread, NULL, pool_worker,
                       &p->workers[i])) {
      pool_stop(p, i);
      pool_free(p);
      return NULL;
    }
  return p;
}

int64_t coro_rt_pool_wait(coro_rt_pool *p) {
  pthread_mutex_lock(&p->mu);
  atomic_fetch_add(&p->waiting, 1);
  while (pool_outstanding(p))
    pthread_cond_wait(&p->idle, &p->mu);
  atomic_fetch_sub(&p->waiting, 1);
  pthread_mutex_unlock(&p->mu);
  int64_t resumed = 0;
  for (int64_t i = 0; i < p->nworkers; ++i)
    resumed +=
        atomic_load_explicit(&p->workers[i].resumed, memory_order_relaxed);
  return resumed;
}

void coro_rt_pool_destroy(coro_rt_pool *p) {
  if (!p)
    return;
  coro_rt_pool_wait(p);
  pool_stop(p, p->nworkers);
  pool_free(p);
}

int coro_rt_pool_submit(coro_rt_pool *p, void *handle) {
  if (!handle)
    return CORO_RT_ERR_NULL;
  return pool_push(p, handle);
}

int coro_rt_task_submit(coro_rt_pool *p, void *handle) {
  if (!handle || !p)
    return CORO_RT_ERR_NULL;
  seen(handle);
  struct task *t = task_of(handle);
  coro_rt_pool *home = NULL;
  if (!atomic_compare_exchange_strong_explicit(
          &t->home, &home, p, memory_order_acq_rel, memory_order_acquire) &&
      home != p)
    return CORO_RT_ERR_BUSY;
  int64_t s = atomic_load_explicit(&t->state, memory_order_relaxed);
  int64_t n;
  do {
    if (s & T_ENDED)
      return CORO_RT_ERR_DONE;
    if (s & (T_QUEUED | T_NOTIFY))
      return CORO_RT_OK; /* due to run already */
    n = (s & ~T_UNSCHEDULED) | T_SCHED |
        (s & (T_RUNNING | T_WAITING) ? T_NOTIFY : T_QUEUED);
  } while (!atomic_compare_exchange_weak_explicit(
      &t->state, &s, n, memory_order_acq_rel, memory_order_relaxed));
  if (s & T_UNSCHEDULED)
    atomic_fetch_sub_explicit(
        &atomic_load_explicit(&t->group, memory_order_acquire)->unscheduled, 1,
        memory_order_relaxed);
  if (!(n & T_QUEUED))
    return CORO_RT_OK; /* its next park queues it */
  int rc = pool_push(p, (void *)((uintptr_t)handle | TASK_BIT));
  if (rc != CORO_RT_OK)
    state_change(t, T_QUEUED, 0);
  return rc;
}
