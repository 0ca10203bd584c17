/*
 * spawner.c - starts processes for the benchmark and reports what each
 * cost: a request on stdin is a line "IN<TAB>ARG0<TAB>ARG1...", the answer
 * on stdout "CPU_SECONDS PEAK_KB".
 *
 * Why a program of its own: the kernel counts into a child's peak memory
 * the memory of the process it replaced at exec, so children must come from
 * a process smaller than any of them, not from the benchmark, which holds
 * the whole corpus.  posix_spawn, not fork: no copy of this process's
 * pages to tear down on the child's CPU time.
 */
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>

extern char **environ;

int main(void)
{
	char line[8192];
	while (fgets(line, sizeof(line), stdin)) {
		line[strcspn(line, "\n")] = '\0';
		char *argv[32], *s = line, *in = strsep(&s, "\t");
		int n = 0;
		while (s && n < 31)
			argv[n++] = strsep(&s, "\t");
		argv[n] = NULL;
		posix_spawn_file_actions_t fa;
		posix_spawn_file_actions_init(&fa);
		posix_spawn_file_actions_addopen(&fa, 0, *in ? in : "/dev/null", O_RDONLY, 0);
		posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
		double cpu = 0;
		long peak = 0;
		pid_t pid;
		int st;
		struct rusage ru;
		if (n && posix_spawn(&pid, argv[0], &fa, NULL, argv, environ) == 0 && wait4(pid, &st, 0, &ru) == pid) {
			cpu = (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec
			      + (double)ru.ru_stime.tv_usec / 1e6;
			peak = ru.ru_maxrss;
		}
		posix_spawn_file_actions_destroy(&fa);
		printf("%.9f %ld\n", cpu, peak);
		fflush(stdout);
	}
	return 0;
}
