#!/usr/bin/env python3
"""bodies-gen.py N: a module of N coroutines, the ABIs whose conversions
make functions for each (retcon, retcon.once, async) in turn and their
value types (i64, f64, i32) in a cycle of their own, so that neighbours
differ; each with a driver that makes it, resumes it and destroys it
(--coro-elide puts a retcon control block in its caller)."""
import sys

n = int(sys.argv[1])
abis = ['retcon', 'retcon.once', 'async']
types = [('i64', 'arith.constant 7 : i64'), ('f64', 'arith.constant 2.5 : f64'),
         ('i32', 'arith.constant 3 : i32')]
out = ['module {']
for i in range(n):
    abi = abis[i % 3]
    t, const = types[(i // 3) % 3]
    out += [
        f'  func.func @c{i}(%x: {t}) -> !coro.handle<{t}> attributes {{coro.abi = "{abi}"}} {{',
        f'    %h = "coro.begin"() : () -> !coro.handle<{t}>',
        f'    %d = "coro.yield"(%x) : ({t}) -> i1',
        f'    "coro.end"(%h, %x) : (!coro.handle<{t}>, {t}) -> ()',
        f'    return %h : !coro.handle<{t}>',
        '  }',
        f'  func.func @drive{i}() {{',
        f'    %x = {const}',
        f'    %h = func.call @c{i}(%x) : ({t}) -> !coro.handle<{t}>',
        f'    "coro.resume"(%h) : (!coro.handle<{t}>) -> ()',
        f'    "coro.destroy"(%h) : (!coro.handle<{t}>) -> ()',
        '    return',
        '  }']
print('\n'.join(out + ['}']))
