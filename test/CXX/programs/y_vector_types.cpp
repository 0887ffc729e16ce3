// GCC vector types as over-aligned frame values: vector_size(32) double
// and int, vector_size(64) float and long long, and a std::array<double,16>
// live across suspensions, as parameters and locals of a generator and of
// a lazy task returning a vector; an alignas(32) local struct too (its
// address is not printed: the frame's alignment is only operator new's).
#include <array>
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

typedef double v4d __attribute__((vector_size(32)));
typedef int v8i __attribute__((vector_size(32)));
typedef float v16f __attribute__((vector_size(64)));
typedef long long v8ll __attribute__((vector_size(64)));

struct alignas(32) Block {
  double d[4];
  int tag;
};

template <typename T> struct Gen {
  struct promise_type {
    T current{};
    Gen get_return_object() {
      return Gen{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(const T &v) noexcept {
      current = v;
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

template <typename T> struct Lazy {
  struct promise_type {
    T result{};
    Lazy get_return_object() {
      return Lazy{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(const T &v) { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Lazy(std::coroutine_handle<promise_type> h) : h(h) {}
  Lazy(Lazy &&o) noexcept : h(std::exchange(o.h, nullptr)) {}
  ~Lazy() {
    if (h)
      h.destroy();
  }
  T run() {
    while (!h.done())
      h.resume();
    return h.promise().result;
  }
};

static void pd(const char *w, const v4d &v) {
  std::printf("%s %.3f %.3f %.3f %.3f\n", w, v[0], v[1], v[2], v[3]);
}
static void pi(const char *w, const v8i &v) {
  std::printf("%s", w);
  for (int i = 0; i < 8; ++i)
    std::printf(" %d", v[i]);
  std::printf("\n");
}

Gen<v4d> ramp(v4d start, v4d step, int n) {
  v4d cur = start;
  v8i count = {0, 1, 2, 3, 4, 5, 6, 7};
  for (int i = 0; i < n; ++i) {
    co_yield cur;
    cur = cur * 1.5 + step;
    count += 10;
  }
  pi("  ramp count", count);
}

Lazy<v8i> mixer(v8i a, v16f f, int k, v8ll ll, std::array<double, 16> arr,
                v4d d) {
  Block blk{{d[0], d[1], d[2], d[3]}, k};
  v8i acc = a;
  co_await std::suspend_always{};
  acc = acc * k;
  v16f g = f + f;
  co_await std::suspend_always{};
  for (int i = 0; i < 8; ++i)
    acc[i] += (int)g[i] + (int)g[i + 8] + (int)(ll[i] >> 8);
  double s = 0;
  for (double x : arr)
    s += x;
  co_await std::suspend_always{};
  acc[0] += (int)s;
  acc[7] -= (int)(blk.d[0] + blk.d[3]) + blk.tag;
  co_return acc;
}

int main() {
  {
    Gen<v4d> g = ramp(v4d{1, 2, 3, 4}, v4d{0.5, -0.25, 0.125, 8}, 5);
    while (g.next())
      pd("ramp", g.value());
  }
  {
    std::array<double, 16> arr;
    for (int i = 0; i < 16; ++i)
      arr[i] = i * 1.25;
    v16f f;
    for (int i = 0; i < 16; ++i)
      f[i] = (float)(i * 3) - 7.5f;
    v8ll ll;
    for (int i = 0; i < 8; ++i)
      ll[i] = (long long)(i + 1) << 40;
    Lazy<v8i> t = mixer(v8i{1, -2, 3, -4, 5, -6, 7, -8}, f, 3, ll, arr,
                        v4d{10.5, 20.25, 30.125, 40.0625});
    pi("mixer", t.run());
  }
  return 0;
}
