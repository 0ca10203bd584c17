/*
 * replay.c - runs a fuzz target (linked in) on files, without libFuzzer:
 * each file named, and each file of each directory named, once, in name
 * order.  Built with gcc by `make check`, plainly and under ASan and UBSan,
 * so that every seed and every regression input of tests/fuzz/ is replayed
 * by the tests, not only by `make fuzz`.
 *
 * usage: replay_TARGET FILE_OR_DIR...   (prints one line per argument)
 * A finding aborts; the file being run is named first.
 */
#include <dirent.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tests/fuzz/fuzz.h"

static const char *current;

static void say_current(void)
{
	if (current) {
		static const char what[] = "replay: the input that failed: ";
		if (write(STDERR_FILENO, what, sizeof(what) - 1) < 0
		    || write(STDERR_FILENO, current, strlen(current)) < 0 || write(STDERR_FILENO, "\n", 1) < 0)
			return;
	}
}

static void on_signal(int sig)
{
	say_current();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The sanitizers' runtimes report and exit without a signal: they call this
 * first, where they are linked in. */
void __sanitizer_set_death_callback(void (*callback)(void)) __attribute__((weak));

static unsigned char *read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	size_t cap = 4096, n = 0, got;
	unsigned char *data = malloc(cap);
	while (data && (got = fread(data + n, 1, cap - n, f)) > 0) {
		n += got;
		if (n == cap) {
			unsigned char *more = realloc(data, cap *= 2);
			if (!more)
				free(data);
			data = more;
		}
	}
	fclose(f);
	*size = n;
	return data;
}

static int run_file(const char *path)
{
	size_t size = 0;
	unsigned char *data = read_file(path, &size);
	if (!data) {
		fprintf(stderr, "replay: cannot read %s\n", path);
		return -1;
	}
	/* exactly SIZE bytes, as libFuzzer hands them, so that a read past the
	 * end is seen by AddressSanitizer */
	unsigned char *exact = malloc(size ? size : 1);
	if (!exact) {
		free(data);
		return -1;
	}
	memcpy(exact, data, size);
	free(data);
	current = path;
	LLVMFuzzerTestOneInput(exact, size);
	current = NULL;
	free(exact);
	return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
	return strcmp((*a)->d_name, (*b)->d_name);
}

static int regular(const struct dirent *e)
{
	return e->d_name[0] != '.';
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: %s FILE_OR_DIR...\n", argv[0]);
		return 2;
	}
	signal(SIGSEGV, on_signal);
	signal(SIGBUS, on_signal);
	signal(SIGFPE, on_signal);
	signal(SIGILL, on_signal);
	signal(SIGABRT, on_signal);
	if (__sanitizer_set_death_callback)
		__sanitizer_set_death_callback(say_current);
	const char *name = strrchr(argv[0], '/') ? strrchr(argv[0], '/') + 1 : argv[0];
	int failed = 0;
	for (int i = 1; i < argc; i++) {
		struct stat sb;
		if (stat(argv[i], &sb)) {
			fprintf(stderr, "%s: no such file or directory: %s\n", name, argv[i]);
			failed = 1;
			continue;
		}
		int count = 0;
		if (!S_ISDIR(sb.st_mode)) {
			failed |= run_file(argv[i]) != 0;
			count = 1;
		} else {
			struct dirent **names = NULL;
			int n = scandir(argv[i], &names, regular, by_name);
			for (int k = 0; k < n; k++) {
				char path[4096];
				snprintf(path, sizeof(path), "%s/%s", argv[i], names[k]->d_name);
				if (!stat(path, &sb) && S_ISREG(sb.st_mode)) {
					failed |= run_file(path) != 0;
					count++;
				}
				free(names[k]);
			}
			free(names);
		}
		printf("%s: %s: %d input%s replayed\n", name, argv[i], count, count == 1 ? "" : "s");
	}
	return failed;
}
