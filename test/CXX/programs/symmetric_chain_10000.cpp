// A chain of 10000 nested awaits: depth(n) awaits depth(n-1) down to 0.
// Every start and every completion is a symmetric transfer (await_suspend
// and the final awaiter return a handle), so the stack stays flat however
// deep the chain is.
#include <coroutine>
#include <cstdio>
#include <exception>

class Task {
public:
  struct promise_type {
    long value = 0;
    std::coroutine_handle<> next = std::noop_coroutine();
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().next;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(long v) noexcept { value = v; }
    void unhandled_exception() { std::terminate(); }
  };
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h.promise().next = c;
    return h;
  }
  long await_resume() noexcept { return h.promise().value; }
  std::coroutine_handle<promise_type> h;
};

static char *deepest_sp = nullptr, *first_sp = nullptr;

// The stack pointer of the code that calls it (not a frame address: a
// coroutine's locals may live in its heap frame).
[[gnu::noinline]] static char *stack_here() {
  return static_cast<char *>(__builtin_frame_address(0));
}

Task depth(int n) {
  if (!first_sp)
    first_sp = stack_here();
  if (n == 0) {
    deepest_sp = stack_here();
    co_return 0;
  }
  long below = co_await depth(n - 1);
  co_return below + n % 7;
}

int main() {
  Task t = depth(10000);
  t.h.resume();
  std::printf("done %d value %ld\n", (int)t.h.done(), t.h.promise().value);
  long grown = first_sp - deepest_sp;
  if (grown < 0)
    grown = -grown;
  std::printf("stack stayed flat: %s\n", grown < 64 * 1024 ? "yes" : "no");
  return 0;
}
