// Eager tasks: initial_suspend is suspend_never, so the body runs in the
// ramp up to its first real suspension; final_suspend suspends, and the
// owner reads the result and destroys the frame. Some tasks finish inside
// the ramp, others wait on an event that main fires later.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Event {
  std::coroutine_handle<> waiters[8];
  int count = 0;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept {
    waiters[count++] = h;
  }
  void await_resume() const noexcept {}
  void fire() {
    int n = count;
    count = 0;
    for (int i = 0; i < n; ++i)
      waiters[i].resume();
  }
};

class Eager {
public:
  struct promise_type {
    int result = -1;
    Eager get_return_object() {
      return Eager(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_never initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(int v) noexcept { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  explicit Eager(std::coroutine_handle<promise_type> h) : h(h) {}
  Eager(const Eager &) = delete;
  ~Eager() { h.destroy(); }
  bool done() const { return h.done(); }
  int result() const { return h.promise().result; }

private:
  std::coroutine_handle<promise_type> h;
};

Eager immediate(int x) {
  std::printf("immediate %d runs in the ramp\n", x);
  co_return x + 100;
}

Eager waits(Event &ev, int x, int rounds) {
  std::printf("waits %d starts\n", x);
  for (int i = 0; i < rounds; ++i) {
    co_await ev;
    x = x * 3 + i;
    std::printf("waits woke, x=%d\n", x);
  }
  co_return x;
}

int main() {
  Event ev;
  Eager a = immediate(1);
  std::printf("a done=%d result=%d\n", a.done(), a.result());
  Eager b = waits(ev, 2, 2);
  Eager c = waits(ev, 5, 1);
  Eager d = waits(ev, 7, 0);
  std::printf("b=%d c=%d d=%d\n", b.done(), c.done(), d.done());
  ev.fire();
  std::printf("b=%d c=%d\n", b.done(), c.done());
  ev.fire();
  std::printf("b=%d result %d, c result %d, d result %d\n", b.done(),
              b.result(), c.result(), d.result());
  return 0;
}
