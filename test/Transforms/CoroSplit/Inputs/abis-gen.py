#!/usr/bin/env python3
"""abis-gen.py N: a module of N groups of coroutines of every ABI, enough
top-level ops for the conversions and --coro-split to work in pieces on
MLIR's threads (ir_pieces, ir/func.h). Group i has a generator of ABI i % 4
with a driver that resumes it to the end (its handle stays in the driver:
--coro-elide marks the call), a chain of three coroutines of three ABIs in
which one awaits another's handle passed to it and a third awaits that one
(calls across ABIs: bridged until every ABI is lowered), a function that
destroys a handle it is given (a consumer of unknown origin), and, every
seventh group, a coro.noop. @main adds every group's result; the first
line says what it returns.

abis-gen.py N --bad-promises: N LLVM dialect functions, each with an
llvm.coro.promise whose alignment is no constant (an error of
--coro-split's consumer lowering, one per function)."""
import sys

n = int(sys.argv[1])
if '--bad-promises' in sys.argv[2:]:
    print('llvm.func @llvm.coro.promise(!llvm.ptr, i32, i1) -> !llvm.ptr')
    for i in range(n):
        print(f'llvm.func @f{i}(%h: !llvm.ptr, %a: i32) -> !llvm.ptr {{\n'
              '  %f = llvm.mlir.constant(false) : i1\n'
              '  %p = llvm.call @llvm.coro.promise(%h, %a, %f) : '
              '(!llvm.ptr, i32, i1) -> !llvm.ptr\n'
              '  llvm.return %p : !llvm.ptr\n}')
    sys.exit(0)
abis = ['switch', 'retcon', 'retcon.once', 'async']


def gen(i, abi, out):
    if abi == 'retcon.once':
        out += [
            f'func.func @gen{i}(%n: i64, %a: i64) -> !coro.handle<i64> attributes {{coro.abi = "retcon.once"}} {{',
            '  %h = "coro.begin"() : () -> !coro.handle<i64>',
            '  %x = arith.addi %a, %n : i64',
            '  %d = "coro.yield"(%x) : (i64) -> i1',
            '  cf.cond_br %d, ^abort, ^commit',
            '^commit:',
            '  %y = arith.addi %x, %a : i64',
            '  "coro.end"(%h, %y) : (!coro.handle<i64>, i64) -> ()',
            '  return %h : !coro.handle<i64>',
            '^abort:',
            '  "coro.end"(%h, %x) : (!coro.handle<i64>, i64) -> ()',
            '  return %h : !coro.handle<i64>',
            '}',
            f'func.func @drive{i}(%n: i64) -> i64 {{',
            f'  %a = arith.constant {i % 5 + 1} : i64',
            f'  %h = func.call @gen{i}(%n, %a) : (i64, i64) -> !coro.handle<i64>',
            '  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64',
            '  "coro.resume"(%h) : (!coro.handle<i64>) -> ()',
            '  %f = "coro.promise"(%h) : (!coro.handle<i64>) -> i64',
            '  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()',
            '  %s = arith.addi %v, %f : i64',
            '  return %s : i64',
            '}']
        # x = a + n yielded, then y = x + a: v + f
        return
    out += [
        f'func.func @gen{i}(%n: i64, %a: i64) -> !coro.handle<i64> attributes {{coro.abi = "{abi}"}} {{',
        '  %h = "coro.begin"() : () -> !coro.handle<i64>',
        '  %c0 = arith.constant 0 : i64',
        '  %c1 = arith.constant 1 : i64',
        '  cf.br ^loop(%c0 : i64)',
        '^loop(%i: i64):',
        '  %more = arith.cmpi slt, %i, %n : i64',
        '  cf.cond_br %more, ^body, ^done',
        '^body:',
        '  %x = arith.addi %i, %a : i64',
        '  "coro.yield"(%x) : (i64) -> i1',
        '  %y = arith.addi %x, %a : i64',
        '  "coro.yield"(%y) : (i64) -> i1',
        '  %next = arith.addi %i, %c1 : i64',
        '  cf.br ^loop(%next : i64)',
        '^done:',
        '  "coro.end"(%h) : (!coro.handle<i64>) -> ()',
        '  return %h : !coro.handle<i64>',
        '}',
        f'func.func @drive{i}(%n: i64) -> i64 {{',
        f'  %a = arith.constant {i % 5 + 1} : i64',
        '  %c0 = arith.constant 0 : i64',
        f'  %h = func.call @gen{i}(%n, %a) : (i64, i64) -> !coro.handle<i64>',
        '  cf.br ^l(%c0 : i64)',
        '^l(%s: i64):',
        '  %d = "coro.done"(%h) : (!coro.handle<i64>) -> i1',
        '  cf.cond_br %d, ^e, ^r',
        '^r:',
        '  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64',
        '  %t = arith.addi %s, %v : i64',
        '  "coro.resume"(%h) : (!coro.handle<i64>) -> ()',
        '  cf.br ^l(%t : i64)',
        '^e:',
        '  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()',
        '  return %s : i64',
        '}']


def gen_value(i, abi, n):
    a = i % 5 + 1
    if abi == 'retcon.once':
        return (a + n) + (a + n + a)
    return sum((k + a) + (k + 2 * a) for k in range(n))


def chain(i, out):
    a1, a2, a3 = abis[i % 4], abis[(i + 1) % 4], abis[(i + 2) % 4]
    out += [
        f'func.func @child{i}() -> !coro.handle<i64> attributes {{coro.abi = "{a1}"}} {{',
        '  %h = "coro.begin"() : () -> !coro.handle<i64>',
        '  %c1 = arith.constant 1 : i64',
        f'  %c7 = arith.constant {i % 9 + 1} : i64',
        '  %d1 = "coro.yield"(%c1) : (i64) -> i1',
        '  "coro.end"(%h, %c7) : (!coro.handle<i64>, i64) -> ()',
        '  return %h : !coro.handle<i64>',
        '}',
        f'func.func @mid{i}(%c: !coro.handle<i64>) -> !coro.handle<i64> attributes {{coro.abi = "{a2}"}} {{',
        '  %h = "coro.begin"() : () -> !coro.handle<i64>',
        '  %r = "coro.await"(%c) : (!coro.handle<i64>) -> i64',
        '  %k = arith.constant 10 : i64',
        '  %s = arith.addi %r, %k : i64',
        '  "coro.end"(%h, %s) : (!coro.handle<i64>, i64) -> ()',
        '  return %h : !coro.handle<i64>',
        '}',
        f'func.func @top{i}() -> !coro.handle<i64> attributes {{coro.abi = "{a3}"}} {{',
        '  %h = "coro.begin"() : () -> !coro.handle<i64>',
        f'  %c = func.call @child{i}() : () -> !coro.handle<i64>',
        f'  %m = func.call @mid{i}(%c) : (!coro.handle<i64>) -> !coro.handle<i64>',
        '  %r = "coro.await"(%m) : (!coro.handle<i64>) -> i64',
        f'  func.call @drop{i}(%m) : (!coro.handle<i64>) -> ()',
        '  "coro.destroy"(%c) : (!coro.handle<i64>) -> ()',
        '  "coro.end"(%h, %r) : (!coro.handle<i64>, i64) -> ()',
        '  return %h : !coro.handle<i64>',
        '}',
        f'func.func @drop{i}(%h: !coro.handle<i64>) {{',
        '  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()',
        '  return',
        '}',
        f'func.func @run{i}() -> i64 {{',
        f'  %t = func.call @top{i}() : () -> !coro.handle<i64>',
        '  cf.br ^l',
        '^l:',
        '  %d = "coro.done"(%t) : (!coro.handle<i64>) -> i1',
        '  cf.cond_br %d, ^e, ^r',
        '^r:',
        '  "coro.resume"(%t) : (!coro.handle<i64>) -> ()',
        '  cf.br ^l',
        '^e:',
        '  %r = "coro.promise"(%t) : (!coro.handle<i64>) -> i64',
        '  "coro.destroy"(%t) : (!coro.handle<i64>) -> ()',
        '  return %r : i64',
        '}']
    return i % 9 + 1 + 10


out = []
expected = 0
for i in range(n):
    gen(i, abis[i % 4], out)
    expected += gen_value(i, abis[i % 4], 3)
    expected += chain(i, out)
    if i % 7 == 0:
        out += [
            f'func.func @idle{i}() -> i64 {{',
            '  %z = "coro.noop"() : () -> !coro.handle<none>',
            '  %d = "coro.done"(%z) : (!coro.handle<none>) -> i1',
            '  %x = arith.extui %d : i1 to i64',
            '  return %x : i64',
            '}']
out += ['func.func @main() -> i64 {',
        '  %n = arith.constant 3 : i64',
        '  %s = arith.constant 0 : i64']
total = '%s'
for i in range(n):
    out += [f'  %d{i} = func.call @drive{i}(%n) : (i64) -> i64',
            f'  %r{i} = func.call @run{i}() : () -> i64',
            f'  %p{i} = arith.addi %d{i}, %r{i} : i64',
            f'  %t{i} = arith.addi {total}, %p{i} : i64']
    total = f'%t{i}'
    if i % 7 == 0:  # a noop is never done: adds 0
        out += [f'  %q{i} = func.call @idle{i}() : () -> i64',
                f'  %u{i} = arith.addi {total}, %q{i} : i64']
        total = f'%u{i}'
out += [f'  return {total} : i64', '}']
print(f'// expected: {expected}')
print('\n'.join(out))
