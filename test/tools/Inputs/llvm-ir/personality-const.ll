declare void @may_throw()

define void @f() personality i32 0 {
entry:
  invoke void @may_throw() to label %ok unwind label %lp
ok:
  ret void
lp:
  %pad = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %pad
}
