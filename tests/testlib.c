/*
 * testlib.c - see testlib.h.
 */
#include "tests/testlib.h"

#include "pmudb.h"

#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

const char *test_build_dir(void)
{
	const char *d = getenv("PMUDB_BUILD");
	return d && *d ? d : "build";
}

char *test_build_path(const char *name)
{
	char *p = NULL;
	if (asprintf(&p, "%s/%s", test_build_dir(), name) < 0)
		abort();
	return p;
}

char *test_tempdir(void)
{
	const char *base = getenv("TMPDIR");
	char *t = NULL;
	if (asprintf(&t, "%s/pmudb-test-XXXXXX", base && *base ? base : "/tmp") < 0 || !mkdtemp(t))
		abort();
	return t;
}

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
	(void)sb; (void)flag; (void)ftw;
	return remove(path);
}

void test_rmtree(const char *dir)
{
	nftw(dir, remove_entry, 16, FTW_DEPTH | FTW_PHYS);
}

static void append(char **buf, size_t *len, const char *data, size_t n)
{
	*buf = realloc(*buf, *len + n + 1);
	if (!*buf)
		abort();
	memcpy(*buf + *len, data, n);
	*len += n;
	(*buf)[*len] = '\0';
}

static int wait_status(pid_t pid)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0)
		;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static void run(char *const argv[], const char *input, bool small_pipe, struct run_result *r)
{
	int out[2], err[2], in[2];
	memset(r, 0, sizeof(*r));
	if (pipe(out) || pipe(err) || pipe(in))
		abort();
	if (small_pipe && fcntl(in[1], F_SETPIPE_SZ, 4096) < 0)
		abort();
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		dup2(in[0], 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		close(in[1]); close(out[0]); close(err[0]);
		execv(argv[0], argv);
		_exit(127);
	}
	close(in[0]); close(out[1]); close(err[1]);
	/* Feed INPUT and drain both outputs together, so no pipe fills up:
	 * the input end does not block, or a write larger than the room in
	 * the pipe would wait for a child that waits for us to read. */
	signal(SIGPIPE, SIG_IGN);
	fcntl(in[1], F_SETFL, fcntl(in[1], F_GETFL) | O_NONBLOCK);
	size_t in_len = input ? strlen(input) : 0, in_off = 0, out_len = 0, err_len = 0;
	if (!in_len)
		close(in[1]);
	struct pollfd fds[3] = { { out[0], POLLIN, 0 }, { err[0], POLLIN, 0 }, { in_len ? in[1] : -1, POLLOUT, 0 } };
	append(&r->out, &out_len, "", 0);
	append(&r->err, &err_len, "", 0);
	while (fds[0].fd >= 0 || fds[1].fd >= 0) {
		if (poll(fds, 3, -1) < 0)
			continue;
		char buf[65536];
		for (int i = 0; i < 2; i++) {
			if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP)))
				continue;
			ssize_t n = read(fds[i].fd, buf, sizeof(buf));
			if (n <= 0) {
				close(fds[i].fd);
				fds[i].fd = -1;
			} else if (i == 0) {
				append(&r->out, &out_len, buf, (size_t)n);
			} else {
				append(&r->err, &err_len, buf, (size_t)n);
			}
		}
		if (fds[2].fd >= 0 && (fds[2].revents & (POLLOUT | POLLERR | POLLHUP))) {
			ssize_t n = write(fds[2].fd, input + in_off, in_len - in_off);
			if (n > 0)
				in_off += (size_t)n;
			if ((n < 0 && errno != EAGAIN && errno != EINTR) || n == 0 || in_off == in_len) {
				close(fds[2].fd);
				fds[2].fd = -1;
			}
		}
	}
	if (fds[2].fd >= 0)
		close(fds[2].fd);
	r->status = wait_status(pid);
}

void test_run(char *const argv[], const char *input, struct run_result *r)
{
	run(argv, input, false, r);
}

void test_run_small_pipe(char *const argv[], const char *input, struct run_result *r)
{
	run(argv, input, true, r);
}

void test_run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	memset(r, 0, sizeof(*r));
}

pid_t test_spawn(char *const argv[])
{
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR);
		dup2(null, 0);
		dup2(null, 1);
		execv(argv[0], argv);
		_exit(127);
	}
	return pid;
}

char *test_read_file(const char *path, size_t *size)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	char *buf = NULL;
	size_t len = 0;
	char chunk[65536];
	size_t n;
	append(&buf, &len, "", 0);
	while ((n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		append(&buf, &len, chunk, n);
	fclose(f);
	if (size)
		*size = len;
	return buf;
}

bool test_files_equal(const char *a, const char *b)
{
	size_t na, nb;
	char *x = test_read_file(a, &na), *y = test_read_file(b, &nb);
	bool same = x && y && na == nb && !memcmp(x, y, na);
	free(x);
	free(y);
	return same;
}

int test_copy_file(const char *from, const char *to)
{
	size_t n;
	char *data = test_read_file(from, &n);
	FILE *f = data ? fopen(to, "wb") : NULL;
	int r = f && fwrite(data, 1, n, f) == n ? 0 : -1;
	if (f && fclose(f))
		r = -1;
	free(data);
	return r;
}

int test_line_count(const char *s)
{
	int n = 0;
	for (const char *p = s; *p; p++)
		n += *p == '\n';
	size_t len = strlen(s);
	return n + (len && s[len - 1] != '\n');
}

int test_cli_start(char **pmudb, char **tmp, pmudb_t **db)
{
	struct pmudb_error err;
	*pmudb = test_build_path("pmudb");
	*tmp = test_tempdir();
	unsetenv("PMUDB_DB");
	unsetenv("PMUDB_SYSFS_DEVICES");
	*db = pmudb_open(NULL, &err);
	return *db ? 0 : -1;
}

void test_cli_end(char *pmudb, char *tmp, pmudb_t *db)
{
	pmudb_close(db);
	test_rmtree(tmp);
	free(tmp);
	free(pmudb);
}

void test_pmudb(struct run_result *r, const char *input, ...)
{
	static char *pmudb;
	if (!pmudb)
		pmudb = test_build_path("pmudb");
	char *argv[64] = { pmudb };
	int n = 1;
	va_list ap;
	va_start(ap, input);
	for (const char *a = va_arg(ap, const char *); a && n < 63; a = va_arg(ap, const char *))
		argv[n++] = (char *)a;
	va_end(ap);
	argv[n] = NULL;
	test_run(argv, input, r);
}
