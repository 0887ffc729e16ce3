// Virtual coroutine member functions under multiple and virtual
// inheritance: a coroutine overriding a pure virtual of the second base
// (called through a this-adjusting thunk), a coroutine in a class with a
// virtual base (this reached through the vtable's offset), an override
// that awaits the base class's coroutine version explicitly, and a
// virtual generator; each reads members of the object after suspending.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>

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
    void return_value(T v) { result = std::move(v); }
    void unhandled_exception() { std::terminate(); }
  };
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  ~Task() {
    if (h)
      h.destroy();
  }
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> a) {
    h.promise().continuation = a;
    return h;
  }
  T await_resume() { return std::move(h.promise().result); }
  T run() {
    h.resume();
    return std::move(h.promise().result);
  }

private:
  std::coroutine_handle<promise_type> h;
};

struct Gen {
  struct promise_type {
    int value = 0;
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      value = v;
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
  int value() const { return h.promise().value; }
};

struct Yield {
  bool await_ready() const noexcept { return false; }
  std::coroutine_handle<> await_suspend(std::coroutine_handle<> h) noexcept {
    return h; // suspend and resume at once
  }
  void await_resume() const noexcept {}
};

struct Named {
  std::string name;
  explicit Named(std::string n) : name(std::move(n)) {}
  virtual ~Named() = default;
  virtual Task<std::string> describe(int k) = 0;
};

struct Counter {
  long count = 0;
  virtual ~Counter() = default;
  virtual Task<long> bump(long by) = 0;
  virtual Gen steps(int n) = 0;
};

struct Widget : Named, Counter {
  int id;
  Widget(std::string n, int id) : Named(std::move(n)), id(id) {}
  Task<std::string> describe(int k) override {
    std::string s = name + "#" + std::to_string(id);
    co_await Yield{};
    s += "/k" + std::to_string(k) + "/c" + std::to_string(count);
    co_return s;
  }
  Task<long> bump(long by) override { // called through Counter*: thunk
    long before = count;
    co_await Yield{};
    count += by * id;
    co_await Yield{};
    co_return count - before;
  }
  Gen steps(int n) override {
    for (int i = 0; i < n; ++i) {
      co_yield id * 100 + i + static_cast<int>(count);
      ++count;
    }
  }
};

struct Special : Widget {
  double scale;
  Special(std::string n, int id, double s) : Widget(std::move(n), id), scale(s) {}
  Task<long> bump(long by) override {
    long base = co_await Widget::bump(by); // non-virtual call to base coroutine
    co_await Yield{};
    count += static_cast<long>(scale * by);
    co_return base * 10 + static_cast<long>(scale * by);
  }
};

// A diamond with a virtual base: the coroutine's `this` is found through
// the virtual base offset when called on the base.
struct VBase {
  int vb = 7;
  virtual ~VBase() = default;
  virtual Task<int> weigh(int x) = 0;
};
struct Left : virtual VBase {
  int l = 1;
};
struct Right : virtual VBase {
  int r = 2;
};
struct Diamond : Left, Right {
  int d = 3;
  Task<int> weigh(int x) override {
    int a = x + vb;
    co_await Yield{};
    a = a * 10 + l + r + d;
    vb += 1;
    co_await Yield{};
    co_return a + vb;
  }
};

Task<int> driver() {
  Widget w("widget", 3);
  Special s("special", 5, 2.5);
  Named *names[] = {&w, &s};
  Counter *counters[] = {&w, &s};
  long total = 0;
  for (int round = 0; round < 3; ++round) {
    for (Counter *c : counters) {
      long d = co_await c->bump(round + 1);
      std::printf("round %d bump -> %ld (count %ld)\n", round, d, c->count);
      total += d;
    }
    for (Named *n : names) {
      std::string t = co_await n->describe(round);
      std::printf("describe: %s\n", t.c_str());
    }
  }
  for (Counter *c : counters) {
    Gen g = c->steps(3);
    while (g.next())
      std::printf("step %d\n", g.value());
  }
  Diamond dm;
  VBase *vp = &dm;
  Left *lp = &dm;
  int w1 = co_await vp->weigh(4);
  int w2 = co_await lp->weigh(6);
  std::printf("diamond %d %d vb=%d\n", w1, w2, dm.vb);
  co_return static_cast<int>(total);
}

int main() {
  Task<int> t = driver();
  std::printf("total %d\n", t.run());
  return 0;
}
