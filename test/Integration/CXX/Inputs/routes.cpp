// A generator, a task that awaits tasks by symmetric transfer (ending in
// std::noop_coroutine(), whose class has a static data member in its debug
// info), and an exception thrown in a coroutine and caught by its caller.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>

struct Gen {
  struct promise_type {
    int value = 0;
    Gen get_return_object() {
      return {std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) {
      value = v;
      return {};
    }
    void return_void() {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

Gen squares(int n) {
  for (int i = 1; i <= n; ++i)
    co_yield i *i;
}

struct Task {
  struct promise_type {
    std::coroutine_handle<> next;
    int result = 0;
    std::exception_ptr error;
    Task get_return_object() {
      return {std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        std::coroutine_handle<> n = h.promise().next;
        return n ? n : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(int v) { result = v; }
    void unhandled_exception() { error = std::current_exception(); }
  };
  std::coroutine_handle<promise_type> h;
  bool await_ready() { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> caller) {
    h.promise().next = caller;
    return h;
  }
  int await_resume() {
    if (h.promise().error)
      std::rethrow_exception(h.promise().error);
    return h.promise().result;
  }
};

Task leaf(int x) {
  if (x == 3)
    throw std::runtime_error("three");
  co_return x * 10;
}

Task sum(int n) {
  int s = 0;
  for (int i = 0; i < n; ++i) {
    Task t = leaf(i);
    try {
      s += co_await t;
    } catch (const std::exception &e) {
      std::printf("caught %s\n", e.what());
      s += 1000;
    }
    t.h.destroy();
  }
  co_return s;
}

int main() {
  Gen g = squares(4);
  int total = 0;
  while (g.h.resume(), !g.h.done())
    total += g.h.promise().value;
  g.h.destroy();
  std::printf("squares %d\n", total);
  Task t = sum(5);
  t.h.resume();
  std::printf("sum %d\n", t.h.promise().result);
  t.h.destroy();
  return 0;
}
