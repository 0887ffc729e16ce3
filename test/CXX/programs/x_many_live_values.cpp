// Many SSA values live across one suspension: 48 values of mixed widths
// (bool, int8, int16, int32, int64, float, double) computed from
// volatile inputs before a co_await and all used after it, so that at -O2
// they are registers spilled into the frame rather than allocas; then the
// same in a loop (values carried around a back edge through a suspension)
// and in both arms of a branch that rejoin after suspending.
#include <coroutine>
#include <cstdint>
#include <cstdio>
#include <exception>

struct Task {
  struct promise_type {
    double result = 0;
    Task get_return_object() {
      return Task{std::coroutine_handle<promise_type>::from_promise(*this)};
    }
    std::suspend_always initial_suspend() noexcept { return {}; }
    std::suspend_always final_suspend() noexcept { return {}; }
    void return_value(double v) noexcept { result = v; }
    void unhandled_exception() { std::terminate(); }
  };
  std::coroutine_handle<promise_type> h;
  explicit Task(std::coroutine_handle<promise_type> h) : h(h) {}
  Task(Task &&o) noexcept : h(o.h) { o.h = nullptr; }
  ~Task() {
    if (h)
      h.destroy();
  }
  double drive() {
    int n = 0;
    while (!h.done()) {
      h.resume();
      ++n;
    }
    std::printf("  resumed %d times\n", n);
    return h.promise().result;
  }
};

volatile int vin[8] = {3, -7, 11, 250, -129, 40000, 17, 5};
volatile double vd[4] = {0.5, -1.25, 3.0e10, 7.75};

Task wide(int salt) {
  bool v0 = (vin[0] + salt) % 3 == 0;
  std::int8_t v1 = static_cast<std::int8_t>(vin[1] * 8 - vin[4] + salt * 1);
  std::int16_t v2 = static_cast<std::int16_t>(vin[2] * 9 - vin[7] + salt * 2);
  std::int32_t v3 = static_cast<std::int32_t>(vin[3] * 10 - vin[2] + salt * 3);
  std::int64_t v4 = static_cast<std::int64_t>(vin[4] * 11 - vin[5] + salt * 4);
  float v5 = static_cast<float>(vd[1] * 6 + vin[5] + salt);
  double v6 = static_cast<double>(vd[2] * 7 + vin[6] + salt);
  std::uint8_t v7 = static_cast<std::uint8_t>(vin[7] * 14 - vin[6] + salt * 7);
  bool v8 = (vin[0] + salt) % 3 == 0;
  std::int8_t v9 = static_cast<std::int8_t>(vin[1] * 16 - vin[4] + salt * 9);
  std::int16_t v10 = static_cast<std::int16_t>(vin[2] * 17 - vin[7] + salt * 10);
  std::int32_t v11 = static_cast<std::int32_t>(vin[3] * 18 - vin[2] + salt * 11);
  std::int64_t v12 = static_cast<std::int64_t>(vin[4] * 19 - vin[5] + salt * 12);
  float v13 = static_cast<float>(vd[1] * 14 + vin[5] + salt);
  double v14 = static_cast<double>(vd[2] * 15 + vin[6] + salt);
  std::uint8_t v15 = static_cast<std::uint8_t>(vin[7] * 22 - vin[6] + salt * 15);
  bool v16 = (vin[0] + salt) % 3 == 0;
  std::int8_t v17 = static_cast<std::int8_t>(vin[1] * 24 - vin[4] + salt * 17);
  std::int16_t v18 = static_cast<std::int16_t>(vin[2] * 25 - vin[7] + salt * 18);
  std::int32_t v19 = static_cast<std::int32_t>(vin[3] * 26 - vin[2] + salt * 19);
  std::int64_t v20 = static_cast<std::int64_t>(vin[4] * 27 - vin[5] + salt * 20);
  float v21 = static_cast<float>(vd[1] * 22 + vin[5] + salt);
  double v22 = static_cast<double>(vd[2] * 23 + vin[6] + salt);
  std::uint8_t v23 = static_cast<std::uint8_t>(vin[7] * 30 - vin[6] + salt * 23);
  bool v24 = (vin[0] + salt) % 3 == 0;
  std::int8_t v25 = static_cast<std::int8_t>(vin[1] * 32 - vin[4] + salt * 25);
  std::int16_t v26 = static_cast<std::int16_t>(vin[2] * 33 - vin[7] + salt * 26);
  std::int32_t v27 = static_cast<std::int32_t>(vin[3] * 34 - vin[2] + salt * 27);
  std::int64_t v28 = static_cast<std::int64_t>(vin[4] * 35 - vin[5] + salt * 28);
  float v29 = static_cast<float>(vd[1] * 30 + vin[5] + salt);
  double v30 = static_cast<double>(vd[2] * 31 + vin[6] + salt);
  std::uint8_t v31 = static_cast<std::uint8_t>(vin[7] * 38 - vin[6] + salt * 31);
  bool v32 = (vin[0] + salt) % 3 == 0;
  std::int8_t v33 = static_cast<std::int8_t>(vin[1] * 40 - vin[4] + salt * 33);
  std::int16_t v34 = static_cast<std::int16_t>(vin[2] * 41 - vin[7] + salt * 34);
  std::int32_t v35 = static_cast<std::int32_t>(vin[3] * 42 - vin[2] + salt * 35);
  std::int64_t v36 = static_cast<std::int64_t>(vin[4] * 43 - vin[5] + salt * 36);
  float v37 = static_cast<float>(vd[1] * 38 + vin[5] + salt);
  double v38 = static_cast<double>(vd[2] * 39 + vin[6] + salt);
  std::uint8_t v39 = static_cast<std::uint8_t>(vin[7] * 46 - vin[6] + salt * 39);
  bool v40 = (vin[0] + salt) % 3 == 0;
  std::int8_t v41 = static_cast<std::int8_t>(vin[1] * 48 - vin[4] + salt * 41);
  std::int16_t v42 = static_cast<std::int16_t>(vin[2] * 49 - vin[7] + salt * 42);
  std::int32_t v43 = static_cast<std::int32_t>(vin[3] * 50 - vin[2] + salt * 43);
  std::int64_t v44 = static_cast<std::int64_t>(vin[4] * 51 - vin[5] + salt * 44);
  float v45 = static_cast<float>(vd[1] * 46 + vin[5] + salt);
  double v46 = static_cast<double>(vd[2] * 47 + vin[6] + salt);
  std::uint8_t v47 = static_cast<std::uint8_t>(vin[7] * 54 - vin[6] + salt * 47);
  co_await std::suspend_always{};
  double acc = 0;
  acc = acc * 0.5 + (v0 ? 1 : -1);
  acc = acc * 0.5 + static_cast<double>(v1);
  acc = acc * 0.5 + static_cast<double>(v2);
  acc = acc * 0.5 + static_cast<double>(v3);
  acc = acc * 0.5 + static_cast<double>(v4);
  acc = acc * 0.5 + static_cast<double>(v5);
  acc = acc * 0.5 + static_cast<double>(v6);
  acc = acc * 0.5 + static_cast<double>(v7);
  acc = acc * 0.5 + (v8 ? 9 : -9);
  acc = acc * 0.5 + static_cast<double>(v9);
  acc = acc * 0.5 + static_cast<double>(v10);
  acc = acc * 0.5 + static_cast<double>(v11);
  acc = acc * 0.5 + static_cast<double>(v12);
  acc = acc * 0.5 + static_cast<double>(v13);
  acc = acc * 0.5 + static_cast<double>(v14);
  acc = acc * 0.5 + static_cast<double>(v15);
  acc = acc * 0.5 + (v16 ? 17 : -17);
  acc = acc * 0.5 + static_cast<double>(v17);
  acc = acc * 0.5 + static_cast<double>(v18);
  acc = acc * 0.5 + static_cast<double>(v19);
  acc = acc * 0.5 + static_cast<double>(v20);
  acc = acc * 0.5 + static_cast<double>(v21);
  acc = acc * 0.5 + static_cast<double>(v22);
  acc = acc * 0.5 + static_cast<double>(v23);
  acc = acc * 0.5 + (v24 ? 25 : -25);
  acc = acc * 0.5 + static_cast<double>(v25);
  acc = acc * 0.5 + static_cast<double>(v26);
  acc = acc * 0.5 + static_cast<double>(v27);
  acc = acc * 0.5 + static_cast<double>(v28);
  acc = acc * 0.5 + static_cast<double>(v29);
  acc = acc * 0.5 + static_cast<double>(v30);
  acc = acc * 0.5 + static_cast<double>(v31);
  acc = acc * 0.5 + (v32 ? 33 : -33);
  acc = acc * 0.5 + static_cast<double>(v33);
  acc = acc * 0.5 + static_cast<double>(v34);
  acc = acc * 0.5 + static_cast<double>(v35);
  acc = acc * 0.5 + static_cast<double>(v36);
  acc = acc * 0.5 + static_cast<double>(v37);
  acc = acc * 0.5 + static_cast<double>(v38);
  acc = acc * 0.5 + static_cast<double>(v39);
  acc = acc * 0.5 + (v40 ? 41 : -41);
  acc = acc * 0.5 + static_cast<double>(v41);
  acc = acc * 0.5 + static_cast<double>(v42);
  acc = acc * 0.5 + static_cast<double>(v43);
  acc = acc * 0.5 + static_cast<double>(v44);
  acc = acc * 0.5 + static_cast<double>(v45);
  acc = acc * 0.5 + static_cast<double>(v46);
  acc = acc * 0.5 + static_cast<double>(v47);
  co_await std::suspend_always{};
  std::printf("  wide checks %d %d %lld %.3f\n", int(v0), int(v9), (long long)v12, double(v46));
  co_return acc;
}

Task looped(int n) {
  std::int64_t a = vin[0], b = vin[1], c = vin[2], d = vin[3];
  double x = vd[0], y = vd[1];
  std::uint8_t small = static_cast<std::uint8_t>(vin[4]);
  bool flip = false;
  for (int i = 0; i < n; ++i) {
    std::int64_t na = a + b * 3, nb = b - c, nc = c * 2 + d % 7, nd = d ^ a;
    double nx = x * 1.5 + y, ny = y - x * 0.25;
    co_await std::suspend_always{};
    a = na % 100003; b = nb % 1009; c = nc % 10007; d = nd;
    x = nx; y = ny;
    small = static_cast<std::uint8_t>(small * 3 + i);
    flip = !flip;
  }
  std::printf("  looped %lld %lld %lld %lld %.4f %.4f %d %d\n", (long long)a,
              (long long)b, (long long)c, (long long)d, x, y, small, flip);
  co_return x + y + a;
}

Task branchy(int sel) {
  std::int32_t p, q;
  double r;
  if (sel & 1) {
    p = vin[1] * sel;
    q = vin[2] + sel;
    r = vd[0] * sel;
    co_await std::suspend_always{};
    p += 1;
  } else {
    p = vin[3] - sel;
    q = vin[5] / (sel + 1);
    r = vd[3] + sel;
    co_await std::suspend_always{};
    co_await std::suspend_always{};
    q -= 1;
  }
  co_await std::suspend_always{};
  std::printf("  branchy %d: %d %d %.2f\n", sel, p, q, r);
  co_return p + q + r;
}

int main() {
  double total = 0;
  for (int s = 0; s < 3; ++s) {
    Task t = wide(s);
    double r = t.drive();
    std::printf("wide %d -> %.6f\n", s, r);
    total += r;
  }
  Task l = looped(25);
  total += l.drive();
  for (int s = 0; s < 4; ++s) {
    Task b = branchy(s);
    total += b.drive();
  }
  std::printf("total %.6f\n", total);
  return 0;
}
