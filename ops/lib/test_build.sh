# The build ops/check and ops/test share: the same folder and flags, so the fast lane's build is
# the first part of ops/test's (sourced by both, before stack.sh).
export SMSGW_BUILD_DIR="${SMSGW_BUILD_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/build-asan}"
export SMSGW_BUILD_TYPE=Debug SMSGW_SANITIZE=ON SMSGW_WERROR=ON
