// Lazy tasks: nothing runs until awaited; an awaited task starts by
// symmetric transfer and hands control back to its awaiter from its final
// suspend. A tree of tasks computes a sum; the log shows the order.
#include <coroutine>
#include <cstdio>
#include <exception>

template <typename T> class Task {
public:
  struct promise_type {
    T result{};
    std::coroutine_handle<> continuation = std::noop_coroutine();
    Task get_return_object() {
      return Task(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    struct Final {
      bool await_ready() noexcept { return false; }
      std::coroutine_handle<>
      await_suspend(std::coroutine_handle<promise_type> h) noexcept {
        return h.promise().continuation;
      }
      void await_resume() noexcept {}
    };
    Final final_suspend() noexcept { return {}; }
    void return_value(T v) { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> awaiter) {
    h.promise().continuation = awaiter;
    return h;
  }
  T await_resume() { return h.promise().result; }
  T run() {
    h.resume();
    return h.promise().result;
  }

private:
  std::coroutine_handle<promise_type> h;
};

static int order = 0;

Task<int> leaf(int v) {
  std::printf("leaf %d at %d\n", v, order++);
  co_return v *v;
}

Task<int> node(int depth, int base) {
  if (depth == 0)
    co_return co_await leaf(base);
  std::printf("node %d/%d enter at %d\n", depth, base, order++);
  Task<int> left = node(depth - 1, base * 2);
  Task<int> right = node(depth - 1, base * 2 + 1);
  std::printf("node %d/%d created children at %d\n", depth, base, order++);
  int r = co_await right;
  int l = co_await left;
  co_return l + r + base;
}

Task<long> top() {
  long total = 0;
  for (int i = 0; i < 4; ++i)
    total += co_await node(2, i + 1);
  co_return total;
}

int main() {
  Task<long> t = top();
  std::printf("created, order %d\n", order);
  long r = t.run();
  std::printf("result %ld, order %d\n", r, order);
  return 0;
}
