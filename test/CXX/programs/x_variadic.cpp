// Variadic template coroutines: a generator yielding each of its
// arguments in turn (a fold over a comma expression of co_yields is not
// allowed, so an initializer list and a recursive pack expansion), a
// task summing a heterogeneous pack after a suspension, and a parameter
// pack of structs kept in the frame.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <tuple>
#include <utility>

template <typename T> class Gen {
public:
  struct promise_type {
    T current{};
    Gen get_return_object() {
      return Gen(std::coroutine_handle<promise_type>::from_promise(*this));
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    std::suspend_always yield_value(T v) noexcept {
      current = v;
      return {};
    }
    void return_void() noexcept {}
    void unhandled_exception() { std::terminate(); }
  };
  explicit Gen(std::coroutine_handle<promise_type> h) : h_(h) {}
  Gen(Gen &&o) noexcept : h_(o.h_) { o.h_ = nullptr; }
  Gen(const Gen &) = delete;
  ~Gen() {
    if (h_)
      h_.destroy();
  }
  bool next() {
    h_.resume();
    return !h_.done();
  }
  T value() const { return h_.promise().current; }

private:
  std::coroutine_handle<promise_type> h_;
};

template <typename T> struct Lazy {
  struct promise_type {
    T result{};
    Lazy get_return_object() {
      return Lazy{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(T v) { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  Lazy(Lazy &&o) noexcept : h(o.h) { o.h = nullptr; }
  explicit Lazy(std::coroutine_handle<promise_type> h) : h(h) {}
  ~Lazy() {
    if (h)
      h.destroy();
  }
  // Resumes until done, counting the suspensions.
  T run(int &steps) {
    while (!h.done()) {
      h.resume();
      ++steps;
    }
    return h.promise().result;
  }
};

template <typename... Ts> Gen<double> each(Ts... xs) {
  double vals[] = {double(xs)...};
  for (double v : vals)
    co_yield v;
  co_yield double(sizeof...(Ts));
}

template <typename... Ts> Lazy<double> sum_after(Ts... xs) {
  double acc = 0;
  ((co_await std::suspend_always{}, acc += double(xs)), ...);
  co_return acc;
}

struct P {
  int a;
  double b;
  char name[8];
};

template <typename... Ps> Lazy<long> weigh(Ps... ps) {
  long total = 0;
  std::tuple<Ps...> kept{ps...};
  co_await std::suspend_always{};
  std::apply([&](auto &...p) { ((total += p.a * 10 + (long)p.b + p.name[0]), ...); },
             kept);
  co_await std::suspend_always{};
  co_return total + (long)sizeof...(Ps);
}

template <typename T, typename... Rest> Gen<int> recurse_sizes(T, Rest... rest) {
  co_yield (int)sizeof(T);
  if constexpr (sizeof...(Rest) > 0) {
    Gen<int> inner = recurse_sizes(rest...);
    while (inner.next())
      co_yield inner.value();
  }
}

int main() {
  Gen<double> g = each(1, 2.5f, 'A', 7L, 3.25, (short)-4);
  while (g.next())
    std::printf("%g ", g.value());
  std::printf("\n");
  int steps = 0;
  Lazy<double> s = sum_after(1, 2.5, 3.0f, 'a', 100LL);
  double r = s.run(steps);
  std::printf("sum %g in %d steps\n", r, steps);
  steps = 0;
  Lazy<long> w = weigh(P{1, 2.9, "abc"}, P{3, 4.1, "xyz"}, P{5, 6.0, "m"});
  long wr = w.run(steps);
  std::printf("weigh %ld in %d steps\n", wr, steps);
  Gen<int> sz = recurse_sizes(1, 2.0, 'c', P{}, (long double)1);
  while (sz.next())
    std::printf("%d ", sz.value());
  std::printf("\n");
  return 0;
}
