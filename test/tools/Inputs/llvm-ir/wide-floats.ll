; Constants of types wider than double, each needing every bit of its
; significand: 1/3 as x86_fp80 and fp128, and 1e4000 (beyond a double).
define x86_fp80 @third() {
  ret x86_fp80 0xK3FFDAAAAAAAAAAAAAAAB
}

define fp128 @third_q() {
  ret fp128 0xL55555555555555553FFD555555555555
}

define x86_fp80 @big() {
  ret x86_fp80 0xK67BEE5F3E1F38F8D4BC4
}
