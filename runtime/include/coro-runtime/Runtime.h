/*===-- coro-runtime/Runtime.h - coro's small C runtime -----------*- C -*-===*\
|*                                                                            *|
|* What lowered coroutines and their hosts call at run time: a host API for  *|
|* handles (resume, destroy, done, the promise, resuming a retcon coroutine  *|
|* with a value), allocation of async tasks, a single-threaded executor on   *|
|* which a coroutine can wait for an event and be resumed when it is         *|
|* signalled, a work-stealing thread pool, async tasks across its threads    *|
|* (submission, waiting, errors) and task groups. coro-run links this       *|
|* library, so JIT-run programs can call it; an object file from            *|
|* coro-translate links it with                                              *|
|* -lCoroRuntime (pkg-config coro-runtime, CMake Coro::Runtime), and needs   *|
|* nothing else of coro's.                                                   *|
|*                                                                            *|
|* Handles: every coroutine handle of every ABI points to a block that       *|
|* starts with two entries, `resume` and `destroy`, each a function taking   *|
|* the handle (LLVM's fastcc, which on x86-64 and AArch64 passes one pointer *|
|* exactly as the C convention does), followed by the promise at offset 16   *|
|* (HandleLayout.h). A null `resume` entry means the coroutine has finished. *|
|* The runtime resumes and destroys handles through these entries only, so   *|
|* it works with coroutines of every ABI.                                    *|
|*                                                                            *|
|* Ownership: `..._create` returns an object the caller owns and releases    *|
|* with the matching `..._destroy`. Handles passed in are borrowed: the      *|
|* runtime never destroys a coroutine unless told to (coro_rt_destroy). No   *|
|* function keeps global state; all state is in the executor, event, pool    *|
|* and group objects and the tasks' prefixes. One executor and its events    *|
|* belong to one thread; the pool, the task functions and groups are         *|
|* thread-safe.                                                              *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_RUNTIME_RUNTIME_H
#define CORO_RUNTIME_RUNTIME_H

#include "coro-runtime/HandleLayout.h"

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/*===-- Async tasks -------------------------------------------------------===*/

/// An async task (the handle of a coroutine with coro.abi = "async") is one
/// block: a prefix the lowered code and the runtime share, then the handle
/// header (resume, destroy, promise at 16), then LLVM's async context and
/// frame. The handle points just past the prefix, so the prefix sits at
/// negative offsets from it:
///
///   handle - 96  seen_entry  a resume entry the runtime puts in the
///                            handle's place the first time it sees the
///                            task (coro_rt_task_enter and every call that
///                            may make its state word non-zero); 0: the
///                            handle keeps its own. Route B's resume entry
///                            assumes the runtime never saw the task
///                            (docs/route-b.md, async)
///   handle - 88  reserved    0
///   handle - 80  state       the runtime's word (scheduled on a pool,
///                            queued, running, waiting, ended, failed, in a
///                            group); 0 for a task the runtime never saw,
///                            which the lowered code then runs without
///                            calling the runtime
///   handle - 72  waiters     the tasks and threads waiting for this one's
///                            end (a list through their `link`)
///   handle - 64  home        the pool it was first submitted to
///   handle - 56  group       the group it was added to
///   handle - 48  error       the message it failed with
///   handle - 40  link        while this task waits for another: the next
///                            waiter of that one
///   handle - 32  parked      where the task continues (an LLVM resume
///                            function taking the handle), recorded at every
///                            suspension
///   handle - 24  handoff     while the task runs: the address of a slot in
///                            the generated code that entered it, where a
///                            transfer to a handle of another ABI is left
///                            (docs/async-lowering.md); zero otherwise
///   handle - 16  destroying  non-zero while coro.destroy runs the task to
///                            its end
///   handle -  8  awaiter     the resume function of an async coroutine
///                            awaiting this one, tail-called with the
///                            awaiter's handle (the promise's continuation)
///                            when this one ends
///
/// The async lowering (docs/async-lowering.md) relies on exactly these
/// offsets; the first five fields belong to the runtime, which reads and
/// writes them atomically.
typedef struct coro_rt_task_prefix {
  void *seen_entry;
  void *reserved;
  int64_t state;
  void *waiters;
  void *home;
  void *group;
  const char *error;
  void *link;
  void *parked;
  void *handoff;
  int64_t destroying;
  void *awaiter;
} coro_rt_task_prefix;

enum { CORO_RT_TASK_PREFIX_SIZE = CORO_TASK_PREFIX_SIZE };

/// Allocates a task whose part after the prefix has `size` bytes (the size
/// in the coroutine's async function pointer record), all zero, the handle
/// aligned to 16. Returns the handle, or NULL when `size` is not positive or
/// memory is exhausted. Owned by the caller; release with coro_rt_task_free
/// (the lowered destroy entry does).
void *coro_rt_task_alloc(int64_t size);

/// Releases a task from coro_rt_task_alloc, given its handle; NULL is
/// ignored. Blocks of up to 1 KiB (prefix included) are kept for the next
/// tasks of their size class, on the releasing thread first, and are not
/// given back to the system (docs/runtime.md); under AddressSanitizer every
/// block is freed.
void coro_rt_task_free(void *handle);

/// Allocates a plain block of `size` bytes, zeroed and aligned to 16, with
/// no prefix: a default allocator for contexts the lowering lays out itself.
/// Returns NULL when `size` is not positive or memory is exhausted. Owned by
/// the caller; release with coro_rt_context_free.
void *coro_rt_context_alloc(int64_t size);

/// Releases a block from coro_rt_context_alloc; NULL is ignored.
void coro_rt_context_free(void *context);

/*===-- Handles -----------------------------------------------------------===*/

/// What the functions on handles (and the executor's and pool's queueing
/// functions) return. Every misuse these functions can see is one of them
/// and leaves the coroutine alone; what they cannot see (a handle that was
/// destroyed, a resume value of the wrong type or for a switch or async
/// handle, resuming a coroutine that is running) is undefined.
enum {
  CORO_RT_OK = 0,
  CORO_RT_ERR_NOMEM = -1, ///< memory is exhausted
  CORO_RT_ERR_NULL = -2,  ///< the handle is null
  CORO_RT_ERR_DONE = -3,  ///< the coroutine has ended: nothing to resume
  CORO_RT_ERR_ARG = -4,   ///< another argument is invalid
  CORO_RT_ERR_BUSY = -5   ///< the task or group is taken (see each function)
};

/// Resumes the suspended coroutine `handle` (borrowed, of any ABI) through
/// its resume entry, as `coro.resume` does; returns CORO_RT_OK when it has
/// suspended again or ended. Returns CORO_RT_ERR_NULL for a null handle and
/// CORO_RT_ERR_DONE, running nothing, for a coroutine that has ended. A
/// retcon coroutine whose yields take a value reads it from the resume slot:
/// pass one with coro_rt_resume_with_*.
int coro_rt_resume(void *handle);

/// Destroys the coroutine `handle` (of any ABI, suspended or ended;
/// transferred: the handle is invalid afterwards) through its destroy entry,
/// as `coro.destroy` does: a suspended coroutine runs its destroy path (the
/// yield's flag is true) to its end, then its frame is freed. Every handle
/// a host obtains is destroyed once, ended or not. Returns CORO_RT_OK, or
/// CORO_RT_ERR_NULL for a null handle.
int coro_rt_destroy(void *handle);

/// Whether the coroutine `handle` (borrowed, of any ABI) has ended, as
/// `coro.done` says: 1 when it has, 0 when it is suspended, and
/// CORO_RT_ERR_NULL (non-zero, so `while (!coro_rt_done(h))` stops) for a
/// null handle.
int coro_rt_done(void *handle);

/// The address of the promise's value of `handle` (borrowed, of any ABI):
/// the last value the coroutine published (`coro.yield`), or its final
/// result (`coro.end`) once it has ended, what `coro.promise` reads. For a
/// value type aligned to at most 8: integers up to 64 bits, index, f32,
/// f64, pointers (the address is CORO_HANDLE_PROMISE_VALUE_OFFSET past the
/// handle). NULL for a null handle. Valid until the handle is destroyed.
void *coro_rt_promise(void *handle);

/// The same for a value type of natural alignment `align` (a power of two;
/// 16 for i128 and vector<4xf32>, 32 for vector<8xf32>). NULL for a null
/// handle or an `align` that is not a power of two.
void *coro_rt_promise_aligned(void *handle, size_t align);

/// The promise's value of `handle` (borrowed) whose value type is i64 (or
/// index), i32, f64, f32 or a pointer. 0 (or NULL) for a null handle.
int64_t coro_rt_promise_i64(void *handle);
int32_t coro_rt_promise_i32(void *handle);
double coro_rt_promise_f64(void *handle);
float coro_rt_promise_f32(void *handle);
void *coro_rt_promise_ptr(void *handle);

/// Stores `value` in the promise of `handle` (borrowed), where the
/// coroutine reads it with `coro.promise` on its own handle and where its next
/// yield or end overwrites it. The type must be the handle's value type.
/// Returns CORO_RT_OK, or CORO_RT_ERR_NULL for a null handle.
int coro_rt_promise_set_i64(void *handle, int64_t value);
int coro_rt_promise_set_i32(void *handle, int32_t value);
int coro_rt_promise_set_f64(void *handle, double value);
int coro_rt_promise_set_f32(void *handle, float value);
int coro_rt_promise_set_ptr(void *handle, void *value);

/// Resumes the suspended retcon or retcon.once coroutine `handle`
/// (borrowed) with `value`, as `"coro.resume"(%h, %value)` does: the value
/// goes to the control block's resume slot, which the yield it is suspended
/// at returns as its second result, then the coroutine is resumed through
/// its resume entry. The type must be the one the coroutine's yields take,
/// and the handle's value type at most 8 bytes, aligned to at most 8 (every
/// scalar; HandleLayout.h). Returns CORO_RT_OK; CORO_RT_ERR_NULL for a null
/// handle; CORO_RT_ERR_DONE, storing nothing and running nothing, when the
/// coroutine has ended.
int coro_rt_resume_with_i64(void *handle, int64_t value);
int coro_rt_resume_with_i32(void *handle, int32_t value);
int coro_rt_resume_with_f64(void *handle, double value);
int coro_rt_resume_with_f32(void *handle, float value);
int coro_rt_resume_with_ptr(void *handle, void *value);

/// The same for a resume value of any type: `size` bytes copied from
/// `value` (borrowed) into the resume slot for a value of natural alignment
/// `align` (i1 and i8: 1, i16: 2, i128: 16). Also CORO_RT_ERR_ARG, running
/// nothing, when `align` is not a power of two or `value` is null while
/// `size` is not 0.
int coro_rt_resume_with(void *handle, const void *value, size_t size,
                        size_t align);

/*===-- Executor ----------------------------------------------------------===*/

/// A single-threaded FIFO of coroutines ready to be resumed.
typedef struct coro_rt_executor coro_rt_executor;

/// Creates an empty executor, or returns NULL when memory is exhausted.
/// Owned by the caller; release with coro_rt_executor_destroy.
coro_rt_executor *coro_rt_executor_create(void);

/// Releases `executor` and its queue (the coroutines queued in it are not
/// resumed, and not destroyed: their owners destroy them).
void coro_rt_executor_destroy(coro_rt_executor *executor);

/// Queues `handle` (borrowed) to be resumed by coro_rt_run. Returns
/// CORO_RT_OK (0), CORO_RT_ERR_NOMEM (-1) when memory is exhausted, or
/// CORO_RT_ERR_NULL, queueing nothing, for a null handle.
int coro_rt_schedule(coro_rt_executor *executor, void *handle);

/// Resumes queued coroutines, first in first out, until the queue is empty
/// (a resumed coroutine may queue more). Returns how many it resumed; a
/// queued coroutine that has ended meanwhile is skipped, not counted.
int64_t coro_rt_run(coro_rt_executor *executor);

/// How many coroutines are queued.
int64_t coro_rt_pending(coro_rt_executor *executor);

/*===-- Events ------------------------------------------------------------===*/

/// A one-shot event: coroutines wait on it until it is signalled; once
/// signalled, it stays set.
typedef struct coro_rt_event coro_rt_event;

/// Creates an unsignalled event whose waiters are resumed on `executor`
/// (borrowed; it must outlive the event). NULL when memory is exhausted.
/// Owned by the caller; release with coro_rt_event_destroy.
coro_rt_event *coro_rt_event_create(coro_rt_executor *executor);

/// Releases `event`. Coroutines still waiting on it are not resumed.
void coro_rt_event_destroy(coro_rt_event *event);

/// Registers `handle` (borrowed) as waiting on `event`; the coroutine then
/// suspends (`coro.yield`) and is resumed by the executor after the event is
/// signalled. Waiting on a signalled event queues the handle at once.
/// Returns CORO_RT_OK, CORO_RT_ERR_NOMEM when memory is exhausted, or
/// CORO_RT_ERR_NULL, registering nothing, for a null handle.
int coro_rt_event_wait(coro_rt_event *event, void *handle);

/// Signals `event`: every waiting coroutine is queued on the executor, in
/// the order they began to wait. Signalling twice does nothing more.
void coro_rt_event_signal(coro_rt_event *event);

/// Whether `event` has been signalled.
int coro_rt_event_is_set(coro_rt_event *event);

/*===-- Thread pool -------------------------------------------------------===*/

/// A fixed set of worker threads resuming submitted coroutines. Each worker
/// has its own queue: what a coroutine running on a worker submits goes to
/// that worker's queue, which it runs newest first; what other threads
/// submit goes to a shared queue, run oldest first; an idle worker takes
/// from the shared queue, then steals the oldest entry of another worker's.
/// Any thread (a worker included) may submit. Two submitted coroutines may
/// run at the same time: they must not share unsynchronized state.
typedef struct coro_rt_pool coro_rt_pool;

/// Starts `threads` workers (1 to 256). NULL when `threads` is out of range
/// or a thread or memory cannot be had. Owned by the caller; release with
/// coro_rt_pool_destroy.
coro_rt_pool *coro_rt_pool_create(int64_t threads);

/// Waits until the pool is idle, stops and joins its workers, and releases
/// it. NULL is ignored.
void coro_rt_pool_destroy(coro_rt_pool *pool);

/// Queues `handle` (borrowed, of any ABI) to be resumed by a worker, once.
/// The coroutine must be suspended, and submitted at most once per
/// suspension (for an async task, coro_rt_task_submit lifts both limits).
/// Returns CORO_RT_OK, CORO_RT_ERR_NOMEM when memory is exhausted, or
/// CORO_RT_ERR_NULL, queueing nothing, for a null handle. A queued
/// coroutine that has ended by the time a worker takes it is skipped.
int coro_rt_pool_submit(coro_rt_pool *pool, void *handle);

/// Blocks until nothing is queued and no worker is resuming a coroutine
/// (coroutines resumed meanwhile may submit more, which are waited for too).
/// Returns how many resumptions finished since the pool was created
/// (skipped handles not counted).
int64_t coro_rt_pool_wait(coro_rt_pool *pool);

/*===-- Tasks across threads ----------------------------------------------===*/

/// Submits the async task `task` (borrowed) to `pool`, at any time, from
/// any thread, the task itself included: a suspended task is queued; a
/// task that is running or waiting (in an await or a group) is queued when
/// it next parks (coro.yield); a task already queued, or already due to be,
/// is left as it is (submissions before it runs count once). From then on
/// the task is *scheduled*: a coroutine awaiting it suspends and is resumed,
/// on whichever thread ends the task, once it has ended, instead of
/// driving it. A task belongs to the first pool it is submitted to.
/// Returns CORO_RT_OK; CORO_RT_ERR_NULL for a null task; CORO_RT_ERR_DONE,
/// queueing nothing, for a task that has ended; CORO_RT_ERR_BUSY for a
/// task that belongs to another pool; CORO_RT_ERR_NOMEM.
int coro_rt_task_submit(coro_rt_pool *pool, void *task);

/// Blocks the calling thread until the scheduled task `task` (borrowed)
/// has ended (it may end on any worker). Returns CORO_RT_OK once it has;
/// CORO_RT_ERR_NULL for a null task; CORO_RT_ERR_ARG, at once, for a task
/// that is not scheduled (nothing would ever run it: waiting would hang);
/// CORO_RT_ERR_BUSY when another thread or task already waits for it.
int coro_rt_task_wait(void *task);

/// Whether the async task `task` (borrowed) ended in error (a `cf.assert`
/// in its body failed, or coro_rt_task_fail): 1 or 0; CORO_RT_ERR_NULL for
/// a null task.
int coro_rt_task_failed(void *task);

/// The message the task `task` failed with (the `cf.assert`'s), or NULL
/// when it has not failed. Valid while the task and the module that made
/// it are.
const char *coro_rt_task_error(void *task);

/// Marks the running async task `task` as failed with `message` (borrowed,
/// kept); what the lowered `cf.assert` calls before the task goes to its
/// end. Returns CORO_RT_OK or CORO_RT_ERR_NULL.
int coro_rt_task_fail(void *task, const char *message);

/// Gives the async task `task` (owned) to the runtime, which releases it
/// (runs its destroy entry) once it has ended, on the thread that ends it;
/// at once, on this thread, when it has ended already. A fire-and-forget
/// task: the caller gives up the handle, so the call comes after the task's
/// last use (adding it to a group, submitting it), and afterwards nothing
/// may await it, wait for it, destroy or read it, nor resume it once it
/// may have ended. What it gives goes through memory of the program's (a
/// pointer argument), and a group tells when it has ended (it is released
/// before its group hears of its end). A task that may be running on
/// another thread at the call must be one the runtime knows (submitted
/// with coro_rt_task_submit, or in a group): the end of one it never saw
/// (run by coro_rt_pool_submit or a plain resume) does not look for the
/// mark. Returns CORO_RT_OK; CORO_RT_ERR_NULL for a null task;
/// CORO_RT_ERR_BUSY, changing nothing, for a task detached already that
/// has not ended.
int coro_rt_task_detach(void *task);

/*===-- Task groups -------------------------------------------------------===*/

/// A set of async tasks to wait for together: `coro.group.await` in an
/// async coroutine (it suspends), coro_rt_group_wait on a thread (it
/// blocks). Tasks are added by one owner (a task or a thread) at a time,
/// which also waits; the tasks themselves may run and end anywhere. A
/// group neither runs nor destroys its tasks.
typedef struct coro_rt_group coro_rt_group;

/// Creates an empty group, or NULL when memory is exhausted. Owned by the
/// caller; release with coro_rt_group_destroy.
coro_rt_group *coro_rt_group_create(void);

/// Adds the async task `task` (borrowed) to `group`: the next wait returns
/// once it has ended (at once if it has already). Returns CORO_RT_OK;
/// CORO_RT_ERR_NULL for a null group or task; CORO_RT_ERR_BUSY, adding
/// nothing, for a task already in a group (this one included).
int coro_rt_group_add(coro_rt_group *group, void *task);

/// Blocks the calling thread until every task added since the last wait
/// has ended. Returns how many of them failed (0 when all succeeded);
/// CORO_RT_ERR_NULL for a null group; CORO_RT_ERR_ARG, at once, while an
/// added task that has not ended was never submitted to a pool (nothing
/// would end it: the wait would hang).
int64_t coro_rt_group_wait(coro_rt_group *group);

/// How many tasks added since the last wait have not ended yet.
int64_t coro_rt_group_pending(coro_rt_group *group);

/// Releases `group`. Returns CORO_RT_OK; CORO_RT_ERR_NULL for a null group;
/// CORO_RT_ERR_BUSY, releasing nothing, while a task added to it has not
/// ended (it will still report its end to the group).
int coro_rt_group_destroy(coro_rt_group *group);

/*===-- What lowered async code calls -------------------------------------===*/

/// The slow paths of the async lowering, taken only for tasks whose state
/// word is not 0 (docs/async-lowering.md, *Across threads*). Not for hosts.
void *coro_rt_task_enter(void *task);
void coro_rt_task_park(void *task);
int32_t coro_rt_task_await(void *self, void *task);
int32_t coro_rt_group_park(coro_rt_group *group, void *self);
int64_t coro_rt_group_result(coro_rt_group *group);
void *coro_rt_task_end(void *task);
void coro_rt_task_acquire(void *task);

#ifdef __cplusplus
}
#endif

#endif /* CORO_RUNTIME_RUNTIME_H */
