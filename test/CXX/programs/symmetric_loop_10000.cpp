// A loop of 10000 awaits on tasks that complete synchronously. Each child
// starts by symmetric transfer and returns to the loop from its final
// awaiter, also by symmetric transfer; bool- and void-returning
// await_suspend would nest a resume per iteration instead.
#include <coroutine>
#include <cstdio>
#include <exception>

template <typename T> struct Task {
  struct promise_type {
    T value{};
    std::coroutine_handle<> cont = std::noop_coroutine();
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
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
    void return_value(T v) noexcept { value = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h.promise().cont = c;
    return h;
  }
  T await_resume() noexcept { return h.promise().value; }
};

Task<int> square_mod(int i) { co_return (i * i) % 1009; }

Task<long> sum_all(int n) {
  long acc = 0;
  for (int i = 0; i < n; ++i) {
    int v = co_await square_mod(i);
    acc += v;
  }
  co_return acc;
}

int main() {
  Task<long> t = sum_all(10000);
  t.h.resume();
  std::printf("done %d sum %ld\n", (int)t.h.done(), t.h.promise().value);
  return 0;
}
