#pragma once
// How long an account's password stays shut after wrong passwords in a row, whatever
// addresses they came from: a few are free (a person mistypes), then each further one doubles
// the wait, up to a ceiling. Guessing then runs at about 100 tries a day at best, while the
// owner who mistyped waits seconds. Pure.

#include <chrono>

namespace smsgw {

inline constexpr int kFreePasswordFailures = 5;
inline constexpr std::chrono::seconds kFirstPasswordBlock{30};
inline constexpr std::chrono::seconds kLongestPasswordBlock{15 * 60};
// Failures this old are forgotten: the count starts again.
inline constexpr std::chrono::hours kPasswordFailureMemory{24};

// The wait after the `failures`-th wrong password in a row: none for the free ones, then
// 30 s, 60 s, 120 s ... up to 15 minutes.
std::chrono::seconds passwordBlockAfter(int failures);

}  // namespace smsgw
