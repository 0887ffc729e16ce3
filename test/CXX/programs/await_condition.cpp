// co_await inside conditions: if, the ternary operator, both sides of &&
// and || (the right side awaited only when it is evaluated), switch, and
// a loop condition; a log records which awaits ran.
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

static char log_buf[512];
static int log_n = 0;

struct Ask {
  char tag;
  int answer;
  bool await_ready() const noexcept { return answer < 0; }
  void await_suspend(std::coroutine_handle<>) const noexcept {}
  int await_resume() const noexcept {
    log_buf[log_n++] = tag;
    return answer;
  }
};

Co decide(int x) {
  if (co_await Ask{'i', x % 2})
    log_buf[log_n++] = '+';
  else
    log_buf[log_n++] = '-';
  int t =
      co_await Ask{'c', x} > 3 ? co_await Ask{'T', 1} : co_await Ask{'F', 0};
  if (co_await Ask{'a', x & 1} && co_await Ask{'b', x & 2})
    log_buf[log_n++] = '&';
  if (co_await Ask{'o', x & 4} || co_await Ask{'p', x & 8})
    log_buf[log_n++] = '|';
  switch (co_await Ask{'s', x % 4}) {
  case 0:
    log_buf[log_n++] = '0';
    break;
  case 1:
    co_await Ask{'1', -1};
    [[fallthrough]];
  case 2:
    log_buf[log_n++] = '2';
    break;
  default:
    log_buf[log_n++] = 'd';
  }
  int k = x;
  while (co_await Ask{'w', k} > 0)
    k -= 3;
  log_buf[log_n++] = static_cast<char>('0' + t);
  log_buf[log_n++] = ' ';
}

int main() {
  int resumes = 0;
  for (int x = 0; x < 12; ++x) {
    Co c = decide(x);
    while (!c.h.done()) {
      c.h.resume();
      ++resumes;
    }
    c.h.destroy();
  }
  log_buf[log_n] = 0;
  std::printf("%s\nresumes %d\n", log_buf, resumes);
  return 0;
}
