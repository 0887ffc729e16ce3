// Irregular control flow between suspension points: goto backwards and
// forwards over co_awaits (not into a scope), a switch whose cases fall
// through with a co_await in each, a co_await in the switch condition, a
// loop with break/continue around co_yield, and a Duff's-device-like
// switch into a do-while containing a co_yield.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Gen {
  struct promise_type {
    int current = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Gen(Gen &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
};

struct Val {
  int v;
  bool await_ready() noexcept { return v % 2 == 0; }
  void await_suspend(std::coroutine_handle<>) noexcept {}
  int await_resume() noexcept { return v; }
};

Gen gotos(int n) {
  int i = 0;
again:
  co_yield i * 10;
  if (++i < n)
    goto again;
  int k = co_await Val{n};
  if (k > 3)
    goto skip;
  co_yield -1;
skip:
  co_yield 1000 + k;
}

Gen fallthrough(int start) {
  int acc = 0;
  switch (start) {
  case 0:
    acc += co_await Val{1};
    co_yield acc;
    [[fallthrough]];
  case 1:
    acc += co_await Val{2};
    co_yield acc;
    [[fallthrough]];
  case 2:
    acc += co_await Val{3};
    co_yield acc;
    [[fallthrough]];
  default:
    co_yield acc + 100;
  }
  switch (co_await Val{start + 5}) {
  case 5:
    co_yield 55;
    break;
  case 6:
  case 7:
    co_yield 67;
    [[fallthrough]];
  case 8:
    co_yield 8;
    break;
  default:
    co_yield 99;
  }
}

Gen loops() {
  for (int i = 0; i < 10; ++i) {
    if (i % 3 == 0)
      continue;
    co_yield i;
    if (i == 7)
      break;
    while (true) {
      co_yield -i;
      if (i > 4)
        break;
      goto out_inner;
    }
  out_inner:;
  }
}

Gen duff(int count) {
  int n = (count + 3) / 4;
  int x = 0;
  switch (count % 4) {
  case 0:
    do {
      co_yield x++;
      [[fallthrough]];
    case 3:
      co_yield x++;
      [[fallthrough]];
    case 2:
      co_yield x++;
      [[fallthrough]];
    case 1:
      co_yield x++;
    } while (--n > 0);
  }
}

void drain(const char *name, Gen g) {
  std::printf("%s:", name);
  while (g.next())
    std::printf(" %d", g.h.promise().current);
  std::printf("\n");
}

int main() {
  drain("gotos3", gotos(3));
  drain("gotos5", gotos(5));
  for (int s = 0; s < 4; ++s)
    drain("fall", fallthrough(s));
  drain("loops", loops());
  drain("duff7", duff(7));
  drain("duff8", duff(8));
  drain("duff1", duff(1));
  return 0;
}
