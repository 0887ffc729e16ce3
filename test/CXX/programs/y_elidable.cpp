// clang's coroutine attributes: a task type marked
// [[clang::coro_await_elidable]] (with coro_return_type and
// coro_only_destroy_when_complete) awaited directly (`co_await child()`,
// where the callee's frame may be elided into the caller's) and nested
// three deep; a [[clang::coro_wrapper]] function returning the task
// without being a coroutine; an elidable task also stored and awaited
// later (no elision there). Output never depends on whether a frame was
// elided.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

template <typename T> struct [[clang::coro_await_elidable]]
[[clang::coro_return_type]] [[clang::coro_only_destroy_when_complete]] Task {
  struct promise_type {
    T value{};
    std::coroutine_handle<> cont;
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        auto c = h.promise().cont;
        return c ? c : std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { value = std::move(v); }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> c) noexcept {
    h.promise().cont = c;
    return h;
  }
  T await_resume() { return std::move(h.promise().value); }
  T sync() {
    h.resume();
    return h.promise().value;
  }
};

// The event loop: a coroutine that suspends here is resumed by main.
static std::coroutine_handle<> pending[8];
static int npending = 0;
struct Yield {
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept {
    pending[npending++] = h;
  }
  void await_resume() const noexcept {}
};

Task<int> leaf(int x) {
  int y = x * 7;
  co_await Yield{};
  std::printf("  leaf %d\n", x);
  co_return y + 1;
}

Task<int> mid(int x) {
  int a = co_await leaf(x);
  int b = co_await leaf(x + 1);
  std::printf("  mid %d: %d %d\n", x, a, b);
  co_return a * 100 + b;
}

Task<long> top(int x) {
  long s = 0;
  for (int i = 0; i < 3; ++i)
    s += co_await mid(x + 10 * i);
  Task<int> stored = leaf(-1); // not awaited at once: a real frame
  s += co_await mid(x - 5);
  s -= co_await std::move(stored);
  co_return s;
}

[[clang::coro_wrapper]] Task<int> wrapped(int x) { return leaf(x * 2); }

Task<int> uses_wrapper(int x) {
  int r = co_await wrapped(x);
  co_return r + 1000;
}

template <typename T> T drive(Task<T> t) {
  t.h.resume();
  while (npending) {
    auto h = pending[--npending];
    h.resume();
  }
  return t.h.promise().value;
}

int main() {
  std::printf("top %ld\n", drive(top(3)));
  std::printf("wrapper %d\n", drive(uses_wrapper(4)));
  return 0;
}
