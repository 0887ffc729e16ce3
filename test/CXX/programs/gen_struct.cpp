// A generator of structs: points on a spiral, yielded by value (the promise
// keeps a copy) and read through a pointer the promise holds.
#include <coroutine>
#include <cstdio>
#include <exception>

struct Point {
  long x, y, z;
  double w;
};

template <typename T> class Gen {
public:
  struct promise_type {
    T value{};
    Gen get_return_object() {
      return Gen(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      value = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit Gen(std::coroutine_handle<promise_type> h) : h(h) {}
  Gen(const Gen &) = delete;
  ~Gen() {
    if (h)
      h.destroy();
  }
  bool next() {
    h.resume();
    return !h.done();
  }
  const T &get() const { return h.promise().value; }
  std::coroutine_handle<promise_type> h;
};

Gen<Point> spiral(int n) {
  Point p{0, 0, 0, 0.5};
  long dx = 1, dy = 0;
  for (int i = 0; i < n; ++i) {
    co_yield p;
    p.x += dx * i;
    p.y += dy * i;
    p.z += i % 3;
    p.w *= 1.5;
    long t = dx;
    dx = -dy;
    dy = t;
  }
}

struct Pair {
  int a;
  char tag;
};

Gen<Pair> tagged(const char *tags) {
  for (int i = 0; tags[i]; ++i)
    co_yield Pair{i * i, tags[i]};
}

int main() {
  Gen<Point> g = spiral(12);
  while (g.next()) {
    const Point &p = g.get();
    std::printf("(%ld,%ld,%ld,%.3f)\n", p.x, p.y, p.z, p.w);
  }
  Gen<Pair> t = tagged("coroutine");
  while (t.next())
    std::printf("%c%d ", t.get().tag, t.get().a);
  std::printf("\n");
  return 0;
}
