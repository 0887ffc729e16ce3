// Lazy C++20 tasks awaiting each other by symmetric transfer (an
// await_suspend that returns a handle and may throw), a by-value parameter
// passed in memory, and, with exceptions, one thrown out of a task and
// caught in its awaiter, through an unhandled_exception that stores it.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>
struct task {
  struct promise_type {
    int value = 0;
    std::coroutine_handle<> cont;
    std::exception_ptr err;
    task get_return_object() {
      return task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct final_aw {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().cont;
        return c ? c : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    final_aw final_suspend() noexcept { return {}; }
    void return_value(int v) { value = v; }
    void unhandled_exception() {
#if __cpp_exceptions
      err = std::current_exception();
#endif
    }
  };
  std::coroutine_handle<promise_type> h;
  explicit task(std::coroutine_handle<promise_type> h) : h(h) {}
  task(task &&o) : h(std::exchange(o.h, {})) {}
  ~task() {
    if (h)
      h.destroy();
  }
  bool await_ready() { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) {
    h.promise().cont = c;
    return h;
  }
  int await_resume() {
#if __cpp_exceptions
    if (h.promise().err)
      std::rethrow_exception(h.promise().err);
#endif
    return h.promise().value;
  }
};
struct Big {
  long a[8];
};
task leaf(int x, Big b) {
#if __cpp_exceptions
  if (x == 3)
    throw 42;
#endif
  co_return x + (int)b.a[7];
}
task mid(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    Big b{};
    b.a[7] = i;
#if __cpp_exceptions
    try {
      s += co_await leaf(i, b);
    } catch (int e) {
      s += e;
    }
#else
    s += i == 3 ? 42 : co_await leaf(i, b);
#endif
  }
  co_return s;
}
int main() {
  task t = mid(6);
  t.h.resume();
  std::printf("%d\n", t.h.promise().value);
}
