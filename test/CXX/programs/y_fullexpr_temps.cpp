// Temporaries with destructors in the full-expression of a co_await and
// of a co_yield: f(Temp("a"), co_await x, Temp("b")) keeps both
// temporaries alive across the suspension and destroys them at the end
// of the full-expression; conditional temporaries (c ? Temp : Temp2)
// around an await, a temporary bound to a const reference (lifetime
// extended across later suspensions), and a temporary awaitable whose
// destructor prints. The order of construction and destruction is
// printed.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

static int live = 0;

struct Temp {
  std::string name;
  explicit Temp(std::string n) : name(std::move(n)) {
    ++live;
    std::printf("  +%s\n", name.c_str());
  }
  Temp(const Temp &o) : name(o.name + "'") {
    ++live;
    std::printf("  +%s (copy)\n", name.c_str());
  }
  ~Temp() {
    --live;
    std::printf("  -%s\n", name.c_str());
  }
  int len() const { return (int)name.size(); }
};

struct Temp2 {
  int v;
  explicit Temp2(int v) : v(v) { std::printf("  +T2(%d)\n", v); }
  ~Temp2() { std::printf("  -T2(%d)\n", v); }
  int len() const { return v; }
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
      std::printf("  yield %d\n", v);
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Gen() { h.destroy(); }
};

struct Value {
  int v;
  bool await_ready() const noexcept { return false; }
  void await_suspend(std::coroutine_handle<>) const noexcept {
    std::printf("  suspend(%d)\n", v);
  }
  int await_resume() const noexcept {
    std::printf("  resume(%d)\n", v);
    return v;
  }
};

struct Noisy : Value {
  explicit Noisy(int v) : Value{v} { std::printf("  +awaiter(%d)\n", v); }
  ~Noisy() { std::printf("  -awaiter(%d)\n", v); }
};

static int f(const Temp &a, int x, const Temp &b) {
  std::printf("  f(%s, %d, %s)\n", a.name.c_str(), x, b.name.c_str());
  return a.len() * 100 + x * 10 + b.len();
}

static Temp make(const char *s, int n) {
  return Temp(std::string(s) + std::to_string(n));
}

Gen body() {
  std::printf("step 1: f(Temp, co_await, Temp)\n");
  int r = f(Temp("a"), co_await Value{1}, Temp("bb"));
  std::printf("r=%d live=%d\n", r, live);

  std::printf("step 2: co_yield of an expression with temporaries\n");
  co_yield f(make("x", 1), co_await Noisy{2}, make("yy", 2)) +
      Temp("z").len();
  std::printf("live=%d\n", live);

  std::printf("step 3: conditional temporaries\n");
  for (int i = 0; i < 2; ++i) {
    int c = (i == 0 ? Temp("cond").len() : Temp2(7).len()) +
            co_await Value{10 + i} +
            (i == 1 ? Temp("again").len() : Temp2(-1).len());
    std::printf("c=%d live=%d\n", c, live);
  }

  std::printf("step 4: lifetime-extended temporary\n");
  const Temp &ext = make("ext", 4);
  co_await Value{20};
  co_yield ext.len();
  std::printf("ext still %s live=%d\n", ext.name.c_str(), live);

  std::printf("step 5: two awaits in one expression\n");
  int two = Temp("p").len() + co_await Value{30} * co_await Noisy{31} +
            Temp("q").len();
  std::printf("two=%d live=%d\n", two, live);
}

int main() {
  {
    Gen g = body();
    int n = 0;
    for (g.h.resume(); !g.h.done(); g.h.resume())
      std::printf("[main] resume %d value %d live %d\n", ++n,
                  g.h.promise().value, live);
  }
  std::printf("end live=%d\n", live);

  std::printf("destroy mid-expression:\n");
  {
    Gen g = body();
    g.h.resume();
    g.h.resume(); // now suspended inside step 2's full-expression
  }
  std::printf("end live=%d\n", live);
  return 0;
}
