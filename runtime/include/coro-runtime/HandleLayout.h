/*===-- coro-runtime/HandleLayout.h - the layout of every handle --*- C -*-===*\
|*                                                                            *|
|* The one statement of where things are in a coroutine handle, shared by    *|
|* the conversions (conversion/), coro's own split (transforms/), the        *|
|* runtime (checked there with _Static_assert) and hosts written in C.       *|
|*                                                                            *|
|* Every ABI's handle points to a block that starts like LLVM's switch       *|
|* frame:                                                                     *|
|*                                                                            *|
|*   handle +  0  resume   fastcc void(ptr); null once the coroutine ended   *|
|*   handle +  8  destroy  fastcc void(ptr)                                   *|
|*   handle + 16  promise  { ptr continuation; T value }                      *|
|*                                                                            *|
|* The continuation is the handle that goes on when this one ends. An       *|
|* awaiter publishes itself there with a compare-and-swap from null (where  *|
|* another awaiter is there, it overwrites it) and then calls the resume    *|
|* entry; an async task scheduled on a pool that has ended holds            *|
|* CORO_HANDLE_CONTINUATION_ENDED (1) there, or an awaiter with bit 2 set    *|
|* (handed to that awaiter's call of the entry): another awaiter must not    *|
|* call its entry, but goes on at once.                                      *|
|*                                                                            *|
|* The value is field 1 of that struct, at its natural alignment A: at       *|
|* handle + 24 when A <= 8 (every scalar: integers up to 64 bits, index,     *|
|* f32, f64, pointers; i8 for none), at handle + 16 + A otherwise.           *|
|*                                                                            *|
|* A retcon or retcon.once handle (the control block) goes on with LLVM's    *|
|* continuation and the resume slot, where coro.resume's value is stored     *|
|* before the resume entry runs. For a value type T of at most 8 bytes,      *|
|* aligned to at most 8, the promise takes 16 bytes, so:                     *|
|*                                                                            *|
|*   handle + 32  continuation  LLVM's retcon continuation (null: ended)     *|
|*   handle + 40  resume slot   for a resume value aligned to at most 8      *|
|*                                                                            *|
|* An async task (coro.abi = "async") also has a prefix at negative offsets  *|
|* (coro_rt_task_prefix in Runtime.h):                                        *|
|*                                                                            *|
|*   handle - 96  seen entry  the resume entry for once the runtime has      *|
|*                            seen the task (0: keep the one it has)          *|
|*   handle - 88  (reserved, 0)                                               *|
|*   handle - 80  state       the runtime's word: scheduled, queued, running, *|
|*                            waiting, ended, failed, in a group (0 until the *|
|*                            runtime touches the task)                       *|
|*   handle - 72  waiters     tasks and threads waiting for this one's end    *|
|*   handle - 64  home        the pool it was submitted to                    *|
|*   handle - 56  group       the group it belongs to                         *|
|*   handle - 48  error       the message it failed with                      *|
|*   handle - 40  link        the next waiter of the task this one waits for  *|
|*   handle - 32  parked      where the task continues                        *|
|*   handle - 24  handoff     where a running task leaves a handle to run    *|
|*   handle - 16  destroying  non-zero while coro.destroy runs it to its end  *|
|*   handle -  8  awaiter     resume function of an async awaiter             *|
|*                                                                            *|
\*===----------------------------------------------------------------------===*/
#ifndef CORO_RUNTIME_HANDLELAYOUT_H
#define CORO_RUNTIME_HANDLELAYOUT_H

enum {
  CORO_HANDLE_RESUME_OFFSET = 0,
  CORO_HANDLE_DESTROY_OFFSET = 8,
  /* The promise, and the alignment `llvm.coro.promise` is given for it. */
  CORO_HANDLE_PROMISE_OFFSET = 16,
  /* The continuation of a scheduled async task that has ended; any of the
   * TAGS bits set there says it has ended (the runtime's marks). */
  CORO_HANDLE_CONTINUATION_ENDED = 1,
  CORO_HANDLE_CONTINUATION_TAGS = 3,
  /* The largest alignment a promise value gets (it is reached by offset). */
  CORO_HANDLE_PROMISE_MAX_ALIGN = 16,
  /* The promise's value, for a value type aligned to at most 8. */
  CORO_HANDLE_PROMISE_VALUE_OFFSET = 24,

  /* retcon and retcon.once control blocks whose value type is at most 8
   * bytes, aligned to at most 8: the continuation and the resume slot (for
   * a resume value aligned to at most 8; one aligned to A > 8 is at 40
   * rounded up to A). */
  CORO_RETCON_CONTINUATION_OFFSET = 32,
  CORO_RETCON_RESUME_SLOT_OFFSET = 40,

  /* The async task prefix. */
  CORO_TASK_PREFIX_SIZE = 96,
  CORO_TASK_SEEN_ENTRY_OFFSET = -96,
  CORO_TASK_STATE_OFFSET = -80,
  CORO_TASK_WAITERS_OFFSET = -72,
  CORO_TASK_HOME_OFFSET = -64,
  CORO_TASK_GROUP_OFFSET = -56,
  CORO_TASK_ERROR_OFFSET = -48,
  CORO_TASK_LINK_OFFSET = -40,
  CORO_TASK_PARKED_OFFSET = -32,
  CORO_TASK_HANDOFF_OFFSET = -24,
  CORO_TASK_DESTROYING_OFFSET = -16,
  CORO_TASK_AWAITER_OFFSET = -8,
  /* Tasks (and so async contexts) are aligned to this. */
  CORO_TASK_ALIGN = 16
};

#endif /* CORO_RUNTIME_HANDLELAYOUT_H */
