/*
 * replay.c — run one fuzz target over its saved inputs without libFuzzer,
 * so `make test` (plain and under ASan+UBSan) re-checks every crash ever
 * found and every seed.  Linked with one tests/fuzz/fuzz_*.c; REPLAY_TARGET
 * names it ("fuzz_dcore_compile").  Reads every file in
 * tests/fuzz/regressions/TARGET/ and tests/fuzz/corpus/TARGET/ (paths
 * relative to the repository root, or to the directories given as
 * arguments) and prints "unit: N passed, 0 failed" for tests/run_unit.sh.
 * An input "fails" by crashing or tripping a sanitizer, which ends the
 * program with a nonzero status; the file being replayed is printed first
 * so the failure names it.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef REPLAY_TARGET
#error "REPLAY_TARGET must name the fuzz target"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
replay_read(const char *path, uint8_t **out, size_t *len)
{
	FILE *fp = fopen(path, "rb");
	uint8_t *b = NULL;
	size_t n = 0, cap = 0;
	if (!fp)
		return -errno;
	for (;;) {
		if (n == cap) {
			uint8_t *nb = realloc(b, cap = cap ? cap * 2 : 4096);
			if (!nb) {
				free(b);
				fclose(fp);
				return -ENOMEM;
			}
			b = nb;
		}
		size_t r = fread(b + n, 1, cap - n, fp);
		if (r == 0)
			break;
		n += r;
	}
	int bad = ferror(fp);
	fclose(fp);
	if (bad) {
		free(b);
		return -EIO;
	}
	*out = b;
	*len = n;
	return 0;
}

static int
replay_name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Replays every regular file of dir in name order; returns how many, or
 * -1 if one could not be read.  A missing directory has no inputs. */
static int
replay_dir(const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *de;
	char **names = NULL;
	int n = 0, cap = 0, done = 0;
	if (!d)
		return 0;
	while ((de = readdir(d))) {
		if (de->d_name[0] == '.' || strcmp(de->d_name, "LICENSE") == 0 ||
		    strstr(de->d_name, ".md"))
			continue;
		if (n == cap) {
			char **nn = realloc(names, sizeof(*names) * (size_t)(cap = cap ? cap * 2 : 64));
			if (!nn)
				break;
			names = nn;
		}
		names[n++] = strdup(de->d_name);
	}
	closedir(d);
	if (n > 0)
		qsort(names, (size_t)n, sizeof(*names), replay_name_cmp);
	for (int i = 0; i < n; i++) {
		char path[4096];
		uint8_t *buf = NULL;
		size_t len = 0;
		snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
		if (names[i] && replay_read(path, &buf, &len) == 0) {
			fprintf(stderr, "replay %s\n", path);
			LLVMFuzzerTestOneInput(buf, len);
			free(buf);
			done++;
		} else {
			fprintf(stderr, "FAIL cannot read %s\n", path);
			done = -1;
		}
		free(names[i]);
		if (done < 0) {
			for (i++; i < n; i++)
				free(names[i]);
			break;
		}
	}
	free(names);
	return done;
}

int
main(int argc, char **argv)
{
	const char *defs[] = { "tests/fuzz/regressions/" REPLAY_TARGET,
		"tests/fuzz/corpus/" REPLAY_TARGET };
	int ndirs = argc > 1 ? argc - 1 : 2, total = 0, failed = 0;
	for (int i = 0; i < ndirs; i++) {
		int n = replay_dir(argc > 1 ? argv[i + 1] : defs[i]);
		if (n < 0)
			failed++;
		else
			total += n;
	}
	printf("%s: replayed %d inputs\n", REPLAY_TARGET, total);
	printf("unit: %d passed, %d failed\n", total, failed);
	return failed ? 1 : 0;
}
