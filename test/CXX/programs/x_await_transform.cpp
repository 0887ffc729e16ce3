// A promise with await_transform: plain ints become awaitable (the value
// is doubled and logged), a tag type is answered by the promise itself
// (the coroutine reads its own promise's state), awaiting a string is
// turned into its length, and other awaitables are passed through
// wrapped so that every suspension is counted.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

struct GetPromise {};

struct Counted {
  struct promise_type;
  using handle = std::coroutine_handle<promise_type>;
  struct promise_type {
    int suspensions = 0;
    int transforms = 0;
    long result = 0;
    Counted get_return_object() { return Counted{handle::from_promise(*this)}; }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(long v) { result = v; }
    void unhandled_exception() { std::terminate(); }

    struct Ready {
      long v;
      bool await_ready() noexcept { return true; }
      void await_suspend(std::coroutine_handle<>) noexcept {}
      long await_resume() noexcept { return v; }
    };
    Ready await_transform(int v) {
      ++transforms;
      return Ready{2L * v};
    }
    Ready await_transform(std::string &&s) {
      ++transforms;
      return Ready{(long)s.size()};
    }
    struct Self {
      promise_type *p;
      bool await_ready() noexcept { return true; }
      void await_suspend(std::coroutine_handle<>) noexcept {}
      promise_type &await_resume() noexcept { return *p; }
    };
    Self await_transform(GetPromise) {
      ++transforms;
      return Self{this};
    }
    template <typename A> struct Wrap {
      A inner;
      promise_type *p;
      bool await_ready() { return inner.await_ready(); }
      auto await_suspend(std::coroutine_handle<> h) {
        ++p->suspensions;
        return inner.await_suspend(h);
      }
      auto await_resume() { return inner.await_resume(); }
    };
    template <typename A> Wrap<A> await_transform(A &&a) {
      ++transforms;
      return Wrap<A>{std::forward<A>(a), this};
    }
  };
  handle h;
  Counted(Counted &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Counted(handle h) : h(h) {}
  ~Counted() {
    if (h)
      h.destroy();
  }
};

struct MaybeSuspend {
  bool ready;
  bool await_ready() noexcept { return ready; }
  bool await_suspend(std::coroutine_handle<>) noexcept { return true; }
  int await_resume() noexcept { return ready ? 1 : 0; }
};

Counted body(int n) {
  long acc = co_await n;
  acc += co_await std::string("hello");
  for (int i = 0; i < n; ++i) {
    co_await std::suspend_always{};
    acc += co_await MaybeSuspend{i % 2 == 0};
    acc += co_await i;
  }
  auto &self = co_await GetPromise{};
  std::printf("inside: %d suspensions, %d transforms\n", self.suspensions,
              self.transforms);
  co_return acc;
}

int main() {
  Counted c = body(5);
  int resumes = 0;
  while (!c.h.done()) {
    c.h.resume();
    ++resumes;
  }
  auto &p = c.h.promise();
  std::printf("result %ld resumes %d suspensions %d transforms %d\n", p.result,
              resumes, p.suspensions, p.transforms);
  return 0;
}
