/*
 * dout_pb.c — the few protobuf wire-format pieces profile.proto needs:
 * varints, tags, length-delimited fields, packed repeated varints and
 * nested messages (encoded into their own buffer, then copied as bytes).
 *
 * Wire format (protobuf encoding guide): a field is a varint tag
 * (field << 3 | wire type) and a payload; wire type 0 = varint (7 bits a
 * byte, least significant first, high bit = more), 2 = a varint length and
 * that many bytes.  int64 fields carry negative numbers as the 10-byte
 * two's complement varint.  Errors are sticky in pb_err.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "dcons/dout_impl.h"

static int
pb_reserve(struct dout_pb *b, size_t more)
{
	size_t cap;
	uint8_t *nb;

	if (b->pb_err)
		return b->pb_err;
	if (b->pb_cap - b->pb_n >= more)
		return 0;
	cap = b->pb_cap ? b->pb_cap : 256;
	while (cap - b->pb_n < more) {
		if (cap > SIZE_MAX / 2)
			return b->pb_err = -ENOMEM;
		cap *= 2;
	}
	if ((nb = realloc(b->pb_b, cap)) == NULL)
		return b->pb_err = -ENOMEM;
	b->pb_b = nb;
	b->pb_cap = cap;
	return 0;
}

void
dout_pb_varint(struct dout_pb *b, uint64_t v)
{
	if (pb_reserve(b, 10) < 0)
		return;
	do {
		uint8_t c = v & 0x7f;

		v >>= 7;
		b->pb_b[b->pb_n++] = v ? (uint8_t)(c | 0x80) : c;
	} while (v);
}

void
dout_pb_tag(struct dout_pb *b, uint32_t field, int wiretype)
{
	dout_pb_varint(b, (uint64_t)field << 3 | (uint64_t)wiretype);
}

void
dout_pb_uint(struct dout_pb *b, uint32_t field, uint64_t v)
{
	dout_pb_tag(b, field, DOUT_PB_VARINT);
	dout_pb_varint(b, v);
}

void
dout_pb_bytes(struct dout_pb *b, uint32_t field, const void *p, size_t len)
{
	dout_pb_tag(b, field, DOUT_PB_LEN);
	dout_pb_varint(b, len);
	if (len == 0 || pb_reserve(b, len) < 0)
		return;
	memcpy(b->pb_b + b->pb_n, p, len);
	b->pb_n += len;
}

static size_t
varint_size(uint64_t v)
{
	size_t n = 1;

	while (v >>= 7)
		n++;
	return n;
}

void
dout_pb_packed(struct dout_pb *b, uint32_t field, const uint64_t *v,
    size_t n)
{
	size_t len = 0;

	if (n == 0)
		return;
	for (size_t i = 0; i < n; i++)
		len += varint_size(v[i]);
	dout_pb_tag(b, field, DOUT_PB_LEN);
	dout_pb_varint(b, len);
	for (size_t i = 0; i < n; i++)
		dout_pb_varint(b, v[i]);
}

void
dout_pb_msg(struct dout_pb *b, uint32_t field, const struct dout_pb *sub)
{
	if (sub->pb_err) {
		if (b->pb_err == 0)
			b->pb_err = sub->pb_err;
		return;
	}
	dout_pb_bytes(b, field, sub->pb_b, sub->pb_n);
}

void
dout_pb_reset(struct dout_pb *b)
{
	b->pb_n = 0;
}

void
dout_pb_free(struct dout_pb *b)
{
	free(b->pb_b);
	memset(b, 0, sizeof(*b));
}
