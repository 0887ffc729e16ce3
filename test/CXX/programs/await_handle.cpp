// await_suspend returning a coroutine_handle, noexcept and not: returning
// the awaiting coroutine's own handle resumes it at once, returning
// noop_coroutine() goes back to the resumer, and returning another
// coroutine's handle transfers to it.
#include <coroutine>
#include <cstdio>
#include <exception>

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

static std::coroutine_handle<> other;
static int log_n = 0;
static char log_buf[256];

struct Choose {
  int how;
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> self) noexcept {
    if (how == 0)
      return self;
    if (how == 1 || !other || other.done())
      return std::noop_coroutine();
    return other;
  }
  int await_resume() const noexcept { return how; }
};

struct ChooseThrowing {
  int how;
  bool await_ready() const { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> self) {
    return how % 2 ? std::noop_coroutine() : self;
  }
  int await_resume() const { return how + 10; }
};

Co runner(char tag, int n) {
  for (int i = 0; i < n; ++i) {
    int r = co_await Choose{i % 3};
    log_buf[log_n++] = static_cast<char>(tag + r);
    int s = co_await ChooseThrowing{i};
    log_buf[log_n++] = static_cast<char>('0' + s - 10);
  }
}

int main() {
  Co a = runner('a', 7);
  Co b = runner('A', 5);
  other = b.h;
  int resumes = 0;
  while (!a.h.done() || !b.h.done()) {
    if (!a.h.done())
      a.h.resume();
    else
      b.h.resume();
    ++resumes;
  }
  log_buf[log_n] = 0;
  std::printf("%s\nresumes %d\n", log_buf, resumes);
  a.h.destroy();
  b.h.destroy();
  return 0;
}
