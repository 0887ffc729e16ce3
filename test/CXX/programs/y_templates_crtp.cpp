// Coroutines as function templates instantiated for int, double,
// std::string and a user struct (one body, four frames of different
// layout); a coroutine member of a class template using CRTP (the base's
// coroutine calls the derived class's hooks across suspensions); a
// coroutine friend function defined in a class; a static member
// coroutine and a coroutine template with a non-type parameter.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <string>
#include <utility>

template <typename T> struct Gen {
  struct promise_type {
    T current{};
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      current = std::move(v);
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  Gen(Gen &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  const T &value() const { return h.promise().current; }
};

struct Point {
  int x, y;
  std::string name;
  Point operator+(const Point &o) const {
    return {x + o.x, y + o.y, name + o.name};
  }
};

static void show(int v) { std::printf("int %d\n", v); }
static void show(double v) { std::printf("double %.4f\n", v); }
static void show(const std::string &v) { std::printf("string %s\n", v.c_str()); }
static void show(const Point &p) {
  std::printf("point (%d,%d) %s\n", p.x, p.y, p.name.c_str());
}

template <typename T> Gen<T> accumulate(T first, T step, int n) {
  T acc = first;
  for (int i = 0; i < n; ++i) {
    co_yield acc;
    acc = acc + step;
  }
}

template <int N, typename T> Gen<T> repeat(T v) {
  for (int i = 0; i < N; ++i)
    co_yield v;
}

template <typename Derived> struct Machine {
  int steps = 0;
  Gen<std::string> run(int n) {
    Derived &self = static_cast<Derived &>(*this);
    for (int i = 0; i < n; ++i) {
      ++steps;
      co_yield self.describe(i);
      self.advance(i);
    }
    co_yield "final " + self.describe(-1);
  }
};

struct Counter : Machine<Counter> {
  long total = 1;
  std::string describe(int i) const {
    return "counter i=" + std::to_string(i) + " total=" + std::to_string(total);
  }
  void advance(int i) { total = total * 3 + i; }
};

struct Text : Machine<Text> {
  std::string s = "t";
  std::string describe(int i) const { return s + "#" + std::to_string(i); }
  void advance(int i) { s += char('a' + i); }
};

class Vault {
  int secret;
  std::string code;

public:
  Vault(int s, std::string c) : secret(s), code(std::move(c)) {}
  friend Gen<int> digits(const Vault &v) {
    int s = v.secret;
    while (s > 0) {
      co_yield s % 10 + (int)v.code.size();
      s /= 10;
    }
  }
  static Gen<int> powers(int base, int n) {
    int p = 1;
    for (int i = 0; i < n; ++i, p *= base)
      co_yield p;
  }
};

template <typename T> static void drain(Gen<T> g) {
  while (g.next())
    show(g.value());
}

int main() {
  drain(accumulate(5, 7, 4));
  drain(accumulate(0.5, 0.125, 3));
  drain(accumulate(std::string("ab"), std::string("c"), 3));
  drain(accumulate(Point{1, 2, "p"}, Point{10, -1, "q"}, 3));
  drain(repeat<3>(std::string("rep")));
  drain(repeat<2>(2.5));
  {
    Counter c;
    Gen<std::string> g = c.run(4);
    while (g.next())
      std::printf("%s\n", g.value().c_str());
    std::printf("counter steps %d\n", c.steps);
  }
  {
    Text t;
    drain(t.run(3));
    std::printf("text steps %d\n", t.steps);
  }
  Vault v(90517, "xyz");
  drain(digits(v));
  drain(Vault::powers(3, 5));
  return 0;
}
