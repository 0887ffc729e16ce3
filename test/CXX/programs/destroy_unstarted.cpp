// Lazy coroutines destroyed before they ever run (at the initial suspend
// point): only the parameter copies and the promise are destroyed; the
// body's locals were never constructed. Also a generator destroyed after
// it finished, and one destroyed by its owner's destructor mid-way.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

struct Tracked {
  std::string name;
  explicit Tracked(std::string n) : name(std::move(n)) {}
  Tracked(Tracked &&o) noexcept : name(std::move(o.name)) {
    o.name = "moved-from";
  }
  ~Tracked() { std::printf("  drop %s\n", name.c_str()); }
};

class Lazy {
public:
  struct promise_type {
    int yielded = 0;
    Lazy get_return_object() {
      return Lazy(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(int v) noexcept {
      yielded = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
    ~promise_type() { std::printf("  promise gone (last %d)\n", yielded); }
  };
  explicit Lazy(std::coroutine_handle<promise_type> h) : h(h) {}
  Lazy(Lazy &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Lazy() {
    if (h) {
      std::printf("  owner destroys frame, done=%d\n", (int)h.done());
      h.destroy();
    }
  }
  void step() { h.resume(); }

private:
  std::coroutine_handle<promise_type> h;
};

Lazy body(Tracked t, int n) {
  Tracked local("local of " + t.name);
  for (int i = 1; i <= n; ++i)
    co_yield i;
}

int main() {
  std::printf("never started:\n");
  { Lazy l = body(Tracked("first"), 3); }
  std::printf("started once:\n");
  {
    Lazy l = body(Tracked("second"), 3);
    l.step();
  }
  std::printf("finished:\n");
  {
    Lazy l = body(Tracked("third"), 2);
    for (int i = 0; i < 3; ++i)
      l.step();
  }
  std::printf("moved, then dropped:\n");
  {
    Lazy l = body(Tracked("fourth"), 5);
    l.step();
    Lazy m = std::move(l);
    m.step();
  }
  return 0;
}
