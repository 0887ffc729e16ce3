// RUN: coro-run --route=llvm %s | FileCheck %s
// RUN: coro-run --route=mlir-split %s | FileCheck %s
// RUN: coro-run --route=mlir-split -O2 %s | FileCheck %s

// A retcon.once coroutine whose single suspension sits 40 scf.if deep:
// the check that every path suspends exactly once (dialect/retcon_once.c)
// counts each nested region once per fact it is entered with; it used to
// run a region's nested regions again on every round of its fixpoint,
// 3^40 times here (it did not finish). test/Dialect/retcon-once-nesting-invalid.mlir
// has the error found at the bottom of such a nest.
// CHECK: 7
// CHECK-NEXT: 99

func.func @deep(%n: i64) -> !coro.handle<i64> attributes {coro.abi = "retcon.once"} {
  %h = "coro.begin"() : () -> !coro.handle<i64>
  %k1 = arith.constant 39 : i64
  %k2 = arith.constant 38 : i64
  %k3 = arith.constant 37 : i64
  %k4 = arith.constant 36 : i64
  %k5 = arith.constant 35 : i64
  %k6 = arith.constant 34 : i64
  %k7 = arith.constant 33 : i64
  %k8 = arith.constant 32 : i64
  %k9 = arith.constant 31 : i64
  %k10 = arith.constant 30 : i64
  %k11 = arith.constant 29 : i64
  %k12 = arith.constant 28 : i64
  %k13 = arith.constant 27 : i64
  %k14 = arith.constant 26 : i64
  %k15 = arith.constant 25 : i64
  %k16 = arith.constant 24 : i64
  %k17 = arith.constant 23 : i64
  %k18 = arith.constant 22 : i64
  %k19 = arith.constant 21 : i64
  %k20 = arith.constant 20 : i64
  %k21 = arith.constant 19 : i64
  %k22 = arith.constant 18 : i64
  %k23 = arith.constant 17 : i64
  %k24 = arith.constant 16 : i64
  %k25 = arith.constant 15 : i64
  %k26 = arith.constant 14 : i64
  %k27 = arith.constant 13 : i64
  %k28 = arith.constant 12 : i64
  %k29 = arith.constant 11 : i64
  %k30 = arith.constant 10 : i64
  %k31 = arith.constant 9 : i64
  %k32 = arith.constant 8 : i64
  %k33 = arith.constant 7 : i64
  %k34 = arith.constant 6 : i64
  %k35 = arith.constant 5 : i64
  %k36 = arith.constant 4 : i64
  %k37 = arith.constant 3 : i64
  %k38 = arith.constant 2 : i64
  %k39 = arith.constant 1 : i64
  %k40 = arith.constant 0 : i64
  %b40 = arith.cmpi sgt, %n, %k40 : i64
  scf.if %b40 {
    %b39 = arith.cmpi sgt, %n, %k39 : i64
    scf.if %b39 {
      %b38 = arith.cmpi sgt, %n, %k38 : i64
      scf.if %b38 {
        %b37 = arith.cmpi sgt, %n, %k37 : i64
        scf.if %b37 {
          %b36 = arith.cmpi sgt, %n, %k36 : i64
          scf.if %b36 {
            %b35 = arith.cmpi sgt, %n, %k35 : i64
            scf.if %b35 {
              %b34 = arith.cmpi sgt, %n, %k34 : i64
              scf.if %b34 {
                %b33 = arith.cmpi sgt, %n, %k33 : i64
                scf.if %b33 {
                  %b32 = arith.cmpi sgt, %n, %k32 : i64
                  scf.if %b32 {
                    %b31 = arith.cmpi sgt, %n, %k31 : i64
                    scf.if %b31 {
                      %b30 = arith.cmpi sgt, %n, %k30 : i64
                      scf.if %b30 {
                        %b29 = arith.cmpi sgt, %n, %k29 : i64
                        scf.if %b29 {
                          %b28 = arith.cmpi sgt, %n, %k28 : i64
                          scf.if %b28 {
                            %b27 = arith.cmpi sgt, %n, %k27 : i64
                            scf.if %b27 {
                              %b26 = arith.cmpi sgt, %n, %k26 : i64
                              scf.if %b26 {
                                %b25 = arith.cmpi sgt, %n, %k25 : i64
                                scf.if %b25 {
                                  %b24 = arith.cmpi sgt, %n, %k24 : i64
                                  scf.if %b24 {
                                    %b23 = arith.cmpi sgt, %n, %k23 : i64
                                    scf.if %b23 {
                                      %b22 = arith.cmpi sgt, %n, %k22 : i64
                                      scf.if %b22 {
                                        %b21 = arith.cmpi sgt, %n, %k21 : i64
                                        scf.if %b21 {
                                          %b20 = arith.cmpi sgt, %n, %k20 : i64
                                          scf.if %b20 {
                                            %b19 = arith.cmpi sgt, %n, %k19 : i64
                                            scf.if %b19 {
                                              %b18 = arith.cmpi sgt, %n, %k18 : i64
                                              scf.if %b18 {
                                                %b17 = arith.cmpi sgt, %n, %k17 : i64
                                                scf.if %b17 {
                                                  %b16 = arith.cmpi sgt, %n, %k16 : i64
                                                  scf.if %b16 {
                                                    %b15 = arith.cmpi sgt, %n, %k15 : i64
                                                    scf.if %b15 {
                                                      %b14 = arith.cmpi sgt, %n, %k14 : i64
                                                      scf.if %b14 {
                                                        %b13 = arith.cmpi sgt, %n, %k13 : i64
                                                        scf.if %b13 {
                                                          %b12 = arith.cmpi sgt, %n, %k12 : i64
                                                          scf.if %b12 {
                                                            %b11 = arith.cmpi sgt, %n, %k11 : i64
                                                            scf.if %b11 {
                                                              %b10 = arith.cmpi sgt, %n, %k10 : i64
                                                              scf.if %b10 {
                                                                %b9 = arith.cmpi sgt, %n, %k9 : i64
                                                                scf.if %b9 {
                                                                  %b8 = arith.cmpi sgt, %n, %k8 : i64
                                                                  scf.if %b8 {
                                                                    %b7 = arith.cmpi sgt, %n, %k7 : i64
                                                                    scf.if %b7 {
                                                                      %b6 = arith.cmpi sgt, %n, %k6 : i64
                                                                      scf.if %b6 {
                                                                        %b5 = arith.cmpi sgt, %n, %k5 : i64
                                                                        scf.if %b5 {
                                                                          %b4 = arith.cmpi sgt, %n, %k4 : i64
                                                                          scf.if %b4 {
                                                                            %b3 = arith.cmpi sgt, %n, %k3 : i64
                                                                            scf.if %b3 {
                                                                              %b2 = arith.cmpi sgt, %n, %k2 : i64
                                                                              scf.if %b2 {
                                                                                %b1 = arith.cmpi sgt, %n, %k1 : i64
                                                                                scf.if %b1 {
                                                                                  %d = "coro.yield"(%n) : (i64) -> i1
                                                                                } else {
                                                                                  %e = "coro.yield"(%n) : (i64) -> i1
                                                                                }
                                                                              } else {
                                                                                %e = "coro.yield"(%n) : (i64) -> i1
                                                                              }
                                                                            } else {
                                                                              %e = "coro.yield"(%n) : (i64) -> i1
                                                                            }
                                                                          } else {
                                                                            %e = "coro.yield"(%n) : (i64) -> i1
                                                                          }
                                                                        } else {
                                                                          %e = "coro.yield"(%n) : (i64) -> i1
                                                                        }
                                                                      } else {
                                                                        %e = "coro.yield"(%n) : (i64) -> i1
                                                                      }
                                                                    } else {
                                                                      %e = "coro.yield"(%n) : (i64) -> i1
                                                                    }
                                                                  } else {
                                                                    %e = "coro.yield"(%n) : (i64) -> i1
                                                                  }
                                                                } else {
                                                                  %e = "coro.yield"(%n) : (i64) -> i1
                                                                }
                                                              } else {
                                                                %e = "coro.yield"(%n) : (i64) -> i1
                                                              }
                                                            } else {
                                                              %e = "coro.yield"(%n) : (i64) -> i1
                                                            }
                                                          } else {
                                                            %e = "coro.yield"(%n) : (i64) -> i1
                                                          }
                                                        } else {
                                                          %e = "coro.yield"(%n) : (i64) -> i1
                                                        }
                                                      } else {
                                                        %e = "coro.yield"(%n) : (i64) -> i1
                                                      }
                                                    } else {
                                                      %e = "coro.yield"(%n) : (i64) -> i1
                                                    }
                                                  } else {
                                                    %e = "coro.yield"(%n) : (i64) -> i1
                                                  }
                                                } else {
                                                  %e = "coro.yield"(%n) : (i64) -> i1
                                                }
                                              } else {
                                                %e = "coro.yield"(%n) : (i64) -> i1
                                              }
                                            } else {
                                              %e = "coro.yield"(%n) : (i64) -> i1
                                            }
                                          } else {
                                            %e = "coro.yield"(%n) : (i64) -> i1
                                          }
                                        } else {
                                          %e = "coro.yield"(%n) : (i64) -> i1
                                        }
                                      } else {
                                        %e = "coro.yield"(%n) : (i64) -> i1
                                      }
                                    } else {
                                      %e = "coro.yield"(%n) : (i64) -> i1
                                    }
                                  } else {
                                    %e = "coro.yield"(%n) : (i64) -> i1
                                  }
                                } else {
                                  %e = "coro.yield"(%n) : (i64) -> i1
                                }
                              } else {
                                %e = "coro.yield"(%n) : (i64) -> i1
                              }
                            } else {
                              %e = "coro.yield"(%n) : (i64) -> i1
                            }
                          } else {
                            %e = "coro.yield"(%n) : (i64) -> i1
                          }
                        } else {
                          %e = "coro.yield"(%n) : (i64) -> i1
                        }
                      } else {
                        %e = "coro.yield"(%n) : (i64) -> i1
                      }
                    } else {
                      %e = "coro.yield"(%n) : (i64) -> i1
                    }
                  } else {
                    %e = "coro.yield"(%n) : (i64) -> i1
                  }
                } else {
                  %e = "coro.yield"(%n) : (i64) -> i1
                }
              } else {
                %e = "coro.yield"(%n) : (i64) -> i1
              }
            } else {
              %e = "coro.yield"(%n) : (i64) -> i1
            }
          } else {
            %e = "coro.yield"(%n) : (i64) -> i1
          }
        } else {
          %e = "coro.yield"(%n) : (i64) -> i1
        }
      } else {
        %e = "coro.yield"(%n) : (i64) -> i1
      }
    } else {
      %e = "coro.yield"(%n) : (i64) -> i1
    }
  } else {
    %e = "coro.yield"(%n) : (i64) -> i1
  }
  "coro.end"(%h, %n) : (!coro.handle<i64>, i64) -> ()
  return %h : !coro.handle<i64>
}
func.func @main() -> (i64, i64) {
  %c7 = arith.constant 7 : i64
  %c99 = arith.constant 99 : i64
  %h = call @deep(%c7) : (i64) -> !coro.handle<i64>
  %v = "coro.promise"(%h) : (!coro.handle<i64>) -> i64
  "coro.resume"(%h) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%h) : (!coro.handle<i64>) -> ()
  %g = call @deep(%c99) : (i64) -> !coro.handle<i64>
  %w = "coro.promise"(%g) : (!coro.handle<i64>) -> i64
  "coro.resume"(%g) : (!coro.handle<i64>) -> ()
  "coro.destroy"(%g) : (!coro.handle<i64>) -> ()
  return %v, %w : i64, i64
}
