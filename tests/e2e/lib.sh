# Shared helpers for end-to-end tests (sourced).  PMCTRACE, HELPERS, FIXTURES
# come from tests/run_e2e.sh.
fail() { echo "FAIL: $*"; exit 1; }
skip() { echo "$*"; exit 77; }
need_root() { [ "$(id -u)" = 0 ] || skip "needs root"; }
# expect_eq NAME EXPECTED ACTUAL
expect_eq() { [ "$2" = "$3" ] || { printf 'FAIL: %s\n--- expected\n%s\n--- actual\n%s\n' "$1" "$2" "$3"; exit 1; }; }
expect_grep() { grep -q -- "$1" "$2" || { echo "FAIL: '$1' not in $2:"; cat "$2"; exit 1; }; }
