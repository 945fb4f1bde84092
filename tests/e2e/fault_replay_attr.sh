# ASSERTION: a perf.data whose attr no kernel could have accepted is refused
# with the reason and exit status 1, instead of replaying with samples
# silently dropped and side-band records misdecoded: sample_type with
# undefined bits (every bit set), WEIGHT with WEIGHT_STRUCT, read_format
# with undefined bits.  The untouched file still replays.
. "$TESTROOT/e2e/lib.sh"
command -v python3 >/dev/null || skip "needs python3"
src=$FIXTURES/local/cpu-clock-g.data
prog='profile-* { @ = count(); } END { printa("%@d\n", @); }'
"$PMCTRACE" -q -E "$src" -n "$prog" >out 2>err || { cat err; fail "the fixture does not replay"; }
# mutate FIELD-OFFSET VALUE: set that u64 of the first attr
mutate() {
	python3 - "$src" m.data "$1" "$2" <<'PY'
import struct, sys
b = bytearray(open(sys.argv[1], 'rb').read())
aoff = struct.unpack_from('<Q', b, 24)[0]
struct.pack_into('<Q', b, aoff + int(sys.argv[3]), int(sys.argv[4], 0))
open(sys.argv[2], 'wb').write(b)
PY
}
aoff=$(python3 -c "import struct,sys; print(hex(struct.unpack_from('<Q', open(sys.argv[1],'rb').read(), 24)[0]))" "$src")
# sample_type is at +24 in perf_event_attr, read_format at +32
mutate 24 0xffffffffffffffff
"$PMCTRACE" -q -E m.data -n "$prog" >out 2>err; rc=$?
expect_eq "every bit: exit" 1 "$rc"
expect_eq "every bit: message" "pmctrace: failed to open m.data: perf.data: attr at offset $aoff: sample_type 0xffffffffffffffff has bits no kernel defines (0xfffffffffe000000)" "$(cat err)"
mutate 24 0x1004107
"$PMCTRACE" -q -E m.data -n "$prog" >out 2>err; rc=$?
expect_eq "weight: exit" 1 "$rc"
expect_grep "both WEIGHT and WEIGHT_STRUCT" err
mutate 32 0x40
"$PMCTRACE" -q -E m.data -n "$prog" >out 2>err; rc=$?
expect_eq "read_format: exit" 1 "$rc"
expect_grep "read_format 0x40 has bits no kernel defines" err
exit 0
