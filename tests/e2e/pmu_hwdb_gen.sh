#!/bin/sh
# ASSERTION: pmu/hwdb_gen.sh turns hwdb/*.txt into C with one row per
#   entry, and refuses entries without a source comment or with malformed
#   fields, naming file:line.
# SECTION: hwdb
root=${TESTROOT:-$(cd "$(dirname "$0")/.." && pwd)}/..
gen="$root/pmu/hwdb_gen.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

sh "$gen" "$root"/hwdb/*.txt > "$tmp/out.c" 2> "$tmp/err" || { echo "generator failed"; cat "$tmp/err"; exit 1; }
nb=$(grep -c '^budget ' "$root"/hwdb/*.txt | awk -F: '{s+=$NF} END {print s}')
na=$(grep -c '^alias ' "$root"/hwdb/*.txt | awk -F: '{s+=$NF} END {print s}')
grep -q "^const int hwdb_nbudgets = $nb;" "$tmp/out.c" || { echo "want $nb budgets"; exit 1; }
grep -q "^const int hwdb_naliases = $na;" "$tmp/out.c" || { echo "want $na aliases"; exit 1; }
[ "$nb" -ge 15 ] && [ "$na" -ge 40 ] || { echo "hwdb shrank: $nb budgets, $na aliases"; exit 1; }
cc -std=gnu11 -Wall -Wextra -Werror -I"$root" -c -o "$tmp/out.o" "$tmp/out.c" || { echo "generated C does not compile"; exit 1; }

# Each bad entry must be refused with its file:line.
bad() {
	printf '%s\n' "# comment line" "$1" > "$tmp/bad.txt"
	if sh "$gen" "$tmp/bad.txt" > /dev/null 2> "$tmp/err"; then
		echo "accepted: $1"; exit 1
	fi
	grep -q "bad.txt:2: $2" "$tmp/err" || { echo "for: $1"; echo "want: $2"; cat "$tmp/err"; exit 1; }
}
bad 'alias * foo cycles' 'entry has no "# source" comment'
bad 'alias * foo cycles  #   ' 'entry has an empty source comment'
bad 'alias * Foo cycles  # src' 'alias names are lower case'
bad 'alias * foo cycles wat  # src' 'unknown flag wat'
bad 'budget x | pfm=x | intel | 8 | 4 | 3 | 0x00c0 | X  # src' 'FIXED is 3 but FIXED-EVENTS lists 1'
bad 'budget x | pfm=x | via | 8 | 4 | 0 | - | X  # src' 'vendor must be intel, amd or arm'
bad 'budget x | pfm=x | amd | six | 6 | 0 | - | X  # src' 'GP, GP_SMT and FIXED must be numbers'
bad 'frobnicate x  # src' 'unknown entry kind'
bad 'constraint skl 0x01c0  # src' 'constraint needs ID CONFIG\[/MASK\] COUNTERS'
bad 'constraint skl c0 1  # src' 'CONFIG and MASK are hex'
bad 'constraint skl 0x01c0 one  # src' 'bad counter list "one"'
bad 'constraint skl 0x01c0 3-1  # src' 'counter list "3-1" out of range'
printf '%s\n' 'alias * a cycles  # s' 'alias * a cycles  # s' > "$tmp/dup.txt"
sh "$gen" "$tmp/dup.txt" > /dev/null 2> "$tmp/err" && { echo "accepted a duplicate alias"; exit 1; }
grep -q 'dup.txt:2: duplicate alias a' "$tmp/err" || { cat "$tmp/err"; exit 1; }
# A constraint's counter list becomes its bit mask.
printf '%s\n' 'constraint skl 0x01c0 1  # s' 'constraint icl 0x00d1/0xff 0-3,5  # s' > "$tmp/k.txt"
sh "$gen" "$tmp/k.txt" > "$tmp/k.c" || { echo "constraints refused"; exit 1; }
grep -q '{ "skl", 0x01c0ULL, 0xffffULL, 2ULL, "s", ".*k.txt:1" }' "$tmp/k.c" || { cat "$tmp/k.c"; exit 1; }
grep -q '{ "icl", 0x00d1ULL, 0xffULL, 47ULL, "s", ".*k.txt:2" }' "$tmp/k.c" || { cat "$tmp/k.c"; exit 1; }
echo "hwdb generator: ok"
