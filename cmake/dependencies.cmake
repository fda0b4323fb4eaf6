# Third-party libraries, all from Debian packages (ops/lib/packages.txt installs them).
find_package(PkgConfig REQUIRED)
find_package(Threads REQUIRED)
find_package(OpenSSL REQUIRED)
find_package(CURL REQUIRED)
find_package(fmt REQUIRED)
find_package(spdlog REQUIRED)
find_package(nlohmann_json REQUIRED)
find_package(GTest REQUIRED)
pkg_check_modules(PISTACHE REQUIRED IMPORTED_TARGET libpistache)
pkg_check_modules(RDKAFKA REQUIRED IMPORTED_TARGET rdkafka)
pkg_check_modules(LIBPQ REQUIRED IMPORTED_TARGET libpq)
# ICU: Unicode character categories and confusable skeletons for names people read.
pkg_check_modules(ICU REQUIRED IMPORTED_TARGET icu-uc icu-i18n)
pkg_check_modules(PROMETHEUS REQUIRED IMPORTED_TARGET prometheus-cpp-core)

find_library(SOCI_CORE_LIB soci_core REQUIRED)
find_library(SOCI_PG_LIB soci_postgresql REQUIRED)
add_library(soci_pg INTERFACE)
target_link_libraries(soci_pg INTERFACE ${SOCI_PG_LIB} ${SOCI_CORE_LIB} PkgConfig::LIBPQ)
target_include_directories(soci_pg INTERFACE /usr/include/postgresql)

find_library(PHONENUMBER_LIB phonenumber REQUIRED)
find_library(CSV_LIB csv REQUIRED)  # libcsv: RFC 4180 parsing of uploaded consent batches
find_library(HTTP_PARSER_LIB http_parser REQUIRED)  # strict HTTP/1.x request framing (api/http)
find_path(UTFCPP_INCLUDE_DIR utf8.h REQUIRED)        # utf8cpp, header-only: UTF-8 checks at the edge
