# Warning and sanitizer settings shared by every target (linked as INTERFACE libraries).
add_library(smsgw_warnings INTERFACE)
target_compile_options(smsgw_warnings INTERFACE -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor
                                                -Wold-style-cast -Wcast-align -Wunused -Woverloaded-virtual)
if(SMSGW_WERROR)
  target_compile_options(smsgw_warnings INTERFACE -Werror)
endif()

add_library(smsgw_sanitizers INTERFACE)
if(SMSGW_SANITIZE)
  target_compile_options(smsgw_sanitizers INTERFACE -fsanitize=address,undefined -fno-omit-frame-pointer
                                                    -fno-sanitize-recover=undefined
                                                    -fno-sanitize=vptr)
  # vptr checks need typeinfo that libsoci does not export.
  target_link_options(smsgw_sanitizers INTERFACE -fsanitize=address,undefined -fno-sanitize=vptr)
endif()

if(SMSGW_FUZZ)
  # Coverage for libFuzzer in every library the fuzz target reaches.
  target_compile_options(smsgw_sanitizers INTERFACE -fsanitize=fuzzer-no-link)
endif()

add_library(smsgw_settings INTERFACE)
target_link_libraries(smsgw_settings INTERFACE smsgw_warnings smsgw_sanitizers)
target_include_directories(smsgw_settings INTERFACE ${PROJECT_SOURCE_DIR})
