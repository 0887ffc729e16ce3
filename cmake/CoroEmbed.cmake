# coro_embed_file(<out.c> <input> <symbol>): at build time, turn <input> into
# a C file defining `const char <symbol>[]` (NUL-terminated) and
# `const unsigned long <symbol>_size` (without the NUL).
function(coro_embed_file out input symbol)
  add_custom_command(
    OUTPUT "${out}"
    COMMAND ${CMAKE_COMMAND} -DINPUT=${input} -DOUTPUT=${out}
            -DSYMBOL=${symbol} -P "${PROJECT_SOURCE_DIR}/cmake/embed.cmake"
    DEPENDS "${input}" "${PROJECT_SOURCE_DIR}/cmake/embed.cmake"
    COMMENT "Embedding ${input}"
    VERBATIM)
endfunction()
