// await_suspend returning void, declared noexcept and not: the coroutine
// always suspends; a scheduler resumes it later. The awaiters also carry
// state (a value computed in await_suspend, returned by await_resume).
#include <coroutine>
#include <cstdio>
#include <exception>

static std::coroutine_handle<> ready[16];
static int nready = 0;

struct Co {
  struct promise_type {
    Co get_return_object() {
      return Co{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
};

struct Park {
  int in;
  int out = 0;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<> h) noexcept {
    out = in * 2;
    ready[nready++] = h;
  }
  int await_resume() const noexcept { return out; }
};

struct ParkMayThrow {
  int in;
  int out = 0;
  bool await_ready() const { return in < 0; }
  void await_suspend(std::coroutine_handle<> h) {
    out = in + 1000;
    ready[nready++] = h;
  }
  int await_resume() const { return in < 0 ? -1 : out; }
};

Co worker(const char *name, int n, long *acc) {
  for (int i = 0; i < n; ++i) {
    int a = co_await Park{i};
    int b = co_await ParkMayThrow{i - 1};
    *acc += a * 10 + b;
    std::printf("%s: i=%d a=%d b=%d\n", name, i, a, b);
  }
}

int main() {
  long acc = 0;
  Co x = worker("x", 3, &acc);
  Co y = worker("y", 2, &acc);
  ready[nready++] = x.h;
  ready[nready++] = y.h;
  int steps = 0;
  while (nready > 0) {
    std::coroutine_handle<> h = ready[0];
    for (int i = 1; i < nready; ++i)
      ready[i - 1] = ready[i];
    --nready;
    h.resume();
    ++steps;
  }
  std::printf("acc %ld steps %d done %d %d\n", acc, steps, (int)x.h.done(),
              (int)y.h.done());
  x.h.destroy();
  y.h.destroy();
  return 0;
}
