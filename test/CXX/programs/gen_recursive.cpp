// Recursive generators: an in-order walk of a binary tree where each
// subtree is its own generator, drained by its parent (a stack of live,
// suspended frames as deep as the tree), and the permutations of a string
// generated recursively.
#include <coroutine>
#include <cstdio>
#include <exception>
#include <utility>

class Gen {
public:
  struct promise_type {
    int value = 0;
    Gen get_return_object() {
      return Gen(std::coroutine_handle<promise_type>::from_promise(*this));
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
  int value() const { return h.promise().value; }

private:
  std::coroutine_handle<promise_type> h;
};

struct Node {
  int key;
  Node *left, *right;
};

Gen inorder(const Node *n) {
  if (!n)
    co_return;
  Gen l = inorder(n->left);
  while (l.next())
    co_yield l.value();
  co_yield n->key;
  Gen r = inorder(n->right);
  while (r.next())
    co_yield r.value();
}

Gen permutations(char *s, int k, int n) {
  if (k == n) {
    int code = 0;
    for (int i = 0; i < n; ++i)
      code = code * 10 + (s[i] - 'a' + 1);
    co_yield code;
    co_return;
  }
  for (int i = k; i < n; ++i) {
    std::swap(s[k], s[i]);
    Gen sub = permutations(s, k + 1, n);
    while (sub.next())
      co_yield sub.value();
    std::swap(s[k], s[i]);
  }
}

int main() {
  Node nodes[15];
  for (int i = 0; i < 15; ++i)
    nodes[i] = Node{(i * 7) % 15, nullptr, nullptr};
  for (int i = 0; i < 7; ++i) {
    nodes[i].left = &nodes[2 * i + 1];
    nodes[i].right = &nodes[2 * i + 2];
  }
  Gen g = inorder(&nodes[0]);
  while (g.next())
    std::printf("%d ", g.value());
  std::printf("\n");
  char word[] = "abcd";
  Gen p = permutations(word, 0, 4);
  int count = 0;
  long sum = 0;
  while (p.next()) {
    if (count < 6)
      std::printf("%d ", p.value());
    sum += p.value();
    ++count;
  }
  std::printf("... %d permutations, sum %ld, word back to %s\n", count, sum,
              word);
  return 0;
}
