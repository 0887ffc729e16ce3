// Exceptions leaving a coroutine body: unhandled_exception() stores the
// exception, and the awaiter (another coroutine) or main rethrows it from
// await_resume / get(), where it is caught outside the throwing coroutine.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <stdexcept>

template <typename T> class Task {
public:
  struct promise_type {
    T value{};
    std::exception_ptr error;
    std::coroutine_handle<> cont = std::noop_coroutine();
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().cont;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { value = v; }
    void unhandled_exception() { error = std::current_exception(); }
  };
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) {
    h.promise().cont = c;
    return h;
  }
  T await_resume() {
    if (h.promise().error)
      std::rethrow_exception(h.promise().error);
    return h.promise().value;
  }
  T get() {
    h.resume();
    return await_resume();
  }

private:
  std::coroutine_handle<promise_type> h;
};

struct Noisy {
  int id;
  ~Noisy() { std::printf("~Noisy %d\n", id); }
};

Task<int> may_fail(int x) {
  Noisy n{x};
  if (x % 4 == 3)
    throw std::out_of_range("x%4==3");
  co_return x * 2;
}

Task<int> sum(int n) {
  int total = 0;
  for (int i = 0; i < n; ++i) {
    try {
      total += co_await may_fail(i);
    } catch (const std::out_of_range &e) {
      std::printf("sum caught %s at %d\n", e.what(), i);
      total += 1000;
    }
  }
  if (total > 3000)
    throw std::runtime_error("total too big");
  co_return total;
}

int main() {
  for (int n : {3, 6, 12}) {
    try {
      int r = sum(n).get();
      std::printf("sum(%d) = %d\n", n, r);
    } catch (const std::exception &e) {
      std::printf("main caught '%s' for n=%d\n", e.what(), n);
    }
  }
  return 0;
}
