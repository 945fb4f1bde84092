/*
 * ASSERTION: integer keys print by size (1 and 2 bytes unsigned, 4 and 8
 * signed) and sort as unsigned values with aggsortkey.
 * SECTION: Aggregations/Printing Aggregations
 */
#pragma D option quiet
#pragma D option aggsortkey

BEGIN
{
	@i8[(char)-2] = sum(-2);
	@i8[(char)0] = sum(0);
	@i8[(char)2] = sum(2);
	@i16[(short)-2] = sum(-2);
	@i16[(short)0] = sum(0);
	@i16[(short)2] = sum(2);
	@i32[-2] = sum(-2);
	@i32[0] = sum(0);
	@i32[2] = sum(2);
	@i64[(long long)-2] = sum(-2);
	@i64[(long long)0] = sum(0);
	@i64[(long long)2] = sum(2);
	exit(0);
}
