// final_suspend returning a symmetric-transfer awaiter (to the awaiting
// task, or to std::noop_coroutine() when there is none), explicit uses of
// std::noop_coroutine(): resuming and destroying it, its promise,
// comparing its address, storing it as a default continuation, and an
// await_suspend that returns it to go back to the resumer.
#include <coroutine>
#include <cstdio>
#include <exception>

static int depth_now = 0;

template <typename T> struct Task {
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
        if (h.promise().cont)
          return h.promise().cont;
        return std::noop_coroutine();
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { value = v; }
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

// Suspends and returns control to whoever resumed us, via noop.
struct BackToResumer {
  std::coroutine_handle<> *slot;
  bool await_ready() noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) noexcept {
    *slot = h;
    return std::noop_coroutine();
  }
  void await_resume() noexcept {}
};

static std::coroutine_handle<> parked;

Task<int> leaf(int v) {
  ++depth_now;
  if (v % 3 == 0)
    co_await BackToResumer{&parked};
  --depth_now;
  co_return v * 2;
}

Task<int> mid(int v) {
  int a = co_await leaf(v);
  int b = co_await leaf(v + 1);
  int c = co_await leaf(v + 2);
  co_return a + b + c;
}

Task<long> top(int n) {
  long s = 0;
  for (int i = 0; i < n; ++i)
    s += co_await mid(i * 3 + 1);
  co_return s;
}

int main() {
  std::coroutine_handle<> noop = std::noop_coroutine();
  noop.resume();
  noop();
  noop.destroy();
  std::printf("noop done %d, same address %d\n", (int)noop.done(),
              noop.address() == std::noop_coroutine().address());
  auto typed = std::noop_coroutine();
  (void)typed.promise();
  std::printf("typed bool %d\n", (int)(bool)typed);

  Task<long> t = top(4);
  t.h.resume();
  int parks = 0;
  while (!t.h.done()) {
    ++parks;
    std::printf("parked, depth %d\n", depth_now);
    parked.resume();
  }
  std::printf("result %ld parks %d depth %d\n", t.h.promise().value, parks,
              depth_now);
  // A lone task with no continuation ends on noop.
  Task<int> lone = leaf(4);
  lone.h.resume();
  std::printf("lone %d done %d\n", lone.h.promise().value, (int)lone.h.done());
  return 0;
}
