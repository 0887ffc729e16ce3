#!/usr/bin/env python3
"""pieces-gen.py N [--bare-ptr]: a module of N functions of every kind coro-rest-to-llvm
converts (arith on index and integers and floats, cf branches with block
arguments and a switch, func calls across the module, func.constant with
func.call_indirect, a private declaration, a C-interface wrapper) and a
switch coroutine with its driver every 40 functions. Enough functions make
the stage convert the module in pieces (capi/stage_pieces.c). --bare-ptr
adds a function marked llvm.bareptr first and a call of it last, which
keep the module whole (a call's lowering looks its callee up);
--bare-ptr-first puts it before every other function. --llvm adds, every
7 functions, an llvm.func of LLVM's ops alone, and every 11 a constant
llvm.mlir.global: ops the stage has nothing to convert in, between those
it converts. --llvm-only makes N such llvm.funcs and nothing else."""
import sys

n = int(sys.argv[1])
bare_first = '--bare-ptr-first' in sys.argv[2:]
bare_ptr = bare_first or '--bare-ptr' in sys.argv[2:]
llvm_ops = '--llvm' in sys.argv[2:]
if '--llvm-only' in sys.argv[2:]:
    print('\n'.join(['module {'] + [
        f'  llvm.func @l{i}(%a: i64) -> i64 {{\n    llvm.return %a : i64\n  }}'
        for i in range(n)] + ['}']))
    sys.exit(0)
bp = ['  func.func @bp(%m: memref<4xf32>) -> f32 attributes {llvm.bareptr} {',
      '    %z = arith.constant 0.0 : f32',
      '    return %z : f32',
      '  }'] if bare_ptr else []
out = ['module {'] + (bp if bare_first else []) + [
       '  func.func private @ext(i64) -> i64'] + ([] if bare_first else bp)
for i in range(n):
    callee = n - 1 - i  # calls cross the module, so pieces name each other
    kind = i % 5
    if llvm_ops and i % 7 == 3:
        out += [
            f'  llvm.func @l{i}(%a: i64) -> i64 {{',
            '    %c = llvm.mlir.constant(3 : i64) : i64',
            '    %m = llvm.mul %a, %c : i64',
            '    llvm.return %m : i64',
            '  }']
    if llvm_ops and i % 11 == 5:
        out += [f'  llvm.mlir.global internal constant @g{i}(42 : i64) : i64']
    if i % 40 == 0:
        out += [
            f'  func.func @gen{i}(%n: i64) -> !coro.handle<i64> attributes {{coro.abi = "switch"}} {{',
            '    %h = "coro.begin"() : () -> !coro.handle<i64>',
            '    %c1 = arith.constant 1 : i64',
            '    %x = arith.addi %n, %c1 : i64',
            '    %d = "coro.yield"(%x) : (i64) -> i1',
            '    %y = arith.muli %x, %n : i64',
            '    %e = "coro.yield"(%y) : (i64) -> i1',
            '    "coro.end"(%h) : (!coro.handle<i64>) -> ()',
            '    return %h : !coro.handle<i64>',
            '  }',
            f'  func.func @drive{i}(%n: i64) -> i64 {{',
            f'    %h = func.call @gen{i}(%n) : (i64) -> !coro.handle<i64>',
            '    %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64',
            '    "coro.resume"(%h) : (!coro.handle<i64>) -> ()',
            '    "coro.destroy"(%h) : (!coro.handle<i64>) -> ()',
            '    return %v : i64',
            '  }']
    if kind == 0:
        out += [
            f'  func.func @f{i}(%a: i64, %b: index) -> index {{',
            '    %c = arith.index_cast %a : i64 to index',
            '    %s = arith.addi %b, %c : index',
            '    %z = arith.constant 0 : index',
            '    %p = arith.cmpi sgt, %s, %z : index',
            '    cf.cond_br %p, ^pos(%s : index), ^neg(%z : index)',
            '  ^pos(%u: index):',
            '    return %u : index',
            '  ^neg(%w: index):',
            f'    %r = func.call @f{callee - callee % 5}(%a, %w) : (i64, index) -> index',
            '    return %r : index',
            '  }']
    elif kind == 1:
        out += [
            f'  func.func @f{i}(%a: i32) -> i32 {{',
            '    %one = arith.constant 1 : i32',
            '    cf.switch %a : i32, [',
            '      default: ^d(%a : i32),',
            '      0: ^z,',
            '      7: ^d(%one : i32)',
            '    ]',
            '  ^z:',
            '    %t = arith.constant 3 : i32',
            '    cf.br ^d(%t : i32)',
            '  ^d(%v: i32):',
            '    %m = arith.muli %v, %a : i32',
            '    return %m : i32',
            '  }']
    elif kind == 2:
        out += [
            f'  func.func @f{i}(%x: f64, %y: f32) -> f64 {{',
            '    %e = arith.extf %y : f32 to f64',
            '    %s = arith.addf %x, %e : f64',
            '    %q = arith.divf %s, %x : f64',
            '    %i = arith.fptosi %q : f64 to i64',
            '    %k = func.call @ext(%i) : (i64) -> i64',
            '    %f = arith.sitofp %k : i64 to f64',
            '    return %f : f64',
            '  }']
    elif kind == 3:
        out += [
            f'  func.func @f{i}(%a: i64) -> i64 {{',
            f'    %fp = func.constant @f{callee - callee % 5 + 3} : (i64) -> i64',
            '    %c0 = arith.constant 0 : i64',
            '    %p = arith.cmpi eq, %a, %c0 : i64',
            '    cf.cond_br %p, ^done, ^rec',
            '  ^rec:',
            '    %one = arith.constant 1 : i64',
            '    %b = arith.subi %a, %one : i64',
            '    %r = func.call_indirect %fp(%b) : (i64) -> i64',
            '    return %r : i64',
            '  ^done:',
            '    return %a : i64',
            '  }']
    else:
        out += [
            f'  func.func @f{i}(%a: i16, %b: i16) -> i1 attributes {{llvm.emit_c_interface}} {{',
            '    %s = arith.shli %a, %b : i16',
            '    %x = arith.xori %s, %b : i16',
            '    %m = arith.maxsi %x, %a : i16',
            '    %c = arith.cmpi ult, %m, %b : i16',
            '    %w = arith.extui %c : i1 to i8',
            '    %t = arith.trunci %w : i8 to i1',
            '    return %t : i1',
            '  }']
if bare_ptr:
    out += [
        '  func.func @use_bp(%m: memref<4xf32>) -> f32 {',
        '    %r = func.call @bp(%m) : (memref<4xf32>) -> f32',
        '    return %r : f32',
        '  }']
out.append('}')
print('\n'.join(out))
