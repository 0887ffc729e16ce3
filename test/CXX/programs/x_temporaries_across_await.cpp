// Temporaries that live across a suspension: several co_awaits among the
// arguments of one call next to std::string temporaries; an awaiter
// object that owns a std::string (destroyed after resumption); a
// lifetime-extended temporary bound to a const reference from a
// co_await; co_await in a braced initializer list; structured bindings
// of a pair and a struct kept across suspensions; a co_await inside a
// short-circuit && whose left side makes a temporary.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>
#include <vector>

struct Lazy {
  struct promise_type {
    Lazy get_return_object() {
      return Lazy{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Lazy(Lazy &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  explicit Lazy(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Lazy() {
    if (h)
      h.destroy();
  }
};

static int live_strings = 0;
struct Tracked {
  std::string s;
  explicit Tracked(std::string v) : s(std::move(v)) { ++live_strings; }
  Tracked(const Tracked &o) : s(o.s) { ++live_strings; }
  ~Tracked() { --live_strings; }
};

struct Named {
  Tracked label;
  int v;
  bool await_ready() noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) noexcept {
    std::printf("  suspend %s (live %d)\n", label.s.c_str(), live_strings);
  }
  std::string await_resume() { return label.s + "#" + std::to_string(v); }
};

static std::string join(const Tracked &a, const std::string &b, const Tracked &c,
                        const std::string &d, const Tracked &e) {
  return a.s + "|" + b + "|" + c.s + "|" + d + "|" + e.s;
}

struct Pt {
  int x;
  double y;
  std::string z;
};

Lazy body() {
  std::string r = join(Tracked("t1"), co_await Named{Tracked("aw1"), 1},
                       Tracked("t2"), co_await Named{Tracked("aw2"), 2},
                       Tracked(std::string(30, 'L')));
  std::printf("joined %s live %d\n", r.c_str(), live_strings);
  const std::string &ext = co_await Named{Tracked("ext"), 3};
  co_await std::suspend_always{};
  std::printf("extended %s live %d\n", ext.c_str(), live_strings);
  std::vector<std::string> v{co_await Named{Tracked("v0"), 0}, std::string("mid"),
                             co_await Named{Tracked("v2"), 2}};
  std::printf("vector %s %s %s\n", v[0].c_str(), v[1].c_str(), v[2].c_str());
  auto [a, b] = std::make_pair(Tracked("pa"), 5);
  auto [x, y, z] = Pt{7, 2.5, "zed"};
  co_await std::suspend_always{};
  std::printf("bindings %s %d %d %.1f %s live %d\n", a.s.c_str(), b, x, y,
              z.c_str(), live_strings);
  if (Tracked("cond").s.size() == 4 && (co_await Named{Tracked("and"), 9}).size() > 3)
    std::printf("and taken live %d\n", live_strings);
}

int main() {
  {
    Lazy l = body();
    int n = 0;
    while (!l.h.done()) {
      l.h.resume();
      ++n;
    }
    std::printf("resumes %d live %d\n", n, live_strings);
  }
  // Destroyed while suspended inside the argument list: the temporaries
  // made so far must be destroyed.
  {
    Lazy l = body();
    l.h.resume();
    l.h.resume();
    std::printf("destroying mid-call, live %d\n", live_strings);
  }
  std::printf("live %d\n", live_strings);
  return 0;
}
