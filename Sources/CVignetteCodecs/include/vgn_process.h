/*
 * vgn_process.h - starting external generator commands (no shell, own process group).
 *
 * The Swift side (VignetteGenerators/External/ProcessRunner.swift) owns the pipes, the
 * timeout and the teardown; these helpers only do what Swift cannot call directly
 * (variadic prctl, posix_spawn_file_actions_addchdir_np behind _GNU_SOURCE).
 */
#ifndef VGN_PROCESS_H
#define VGN_PROCESS_H

#ifdef __cplusplus
extern "C" {
#endif

/*
 * Starts argv[0] (searched in PATH when it has no '/') with environment envp, working
 * directory cwd, stdin from /dev/null, stdout on out_fd and stderr on err_fd, in a new
 * process group whose id is the child's pid, with default signal dispositions and an empty
 * signal mask. When data_limit > 0 the child's RLIMIT_DATA (heap and other private writable
 * memory) is capped at that many bytes, set with prlimit as soon as posix_spawn returns: the
 * program has then only just been loaded, long before it decodes anything. Returns 0 and
 * stores the pid, or an errno value (ENOENT for a missing program); a child whose limit could
 * not be set is killed and reaped before the error is returned.
 */
int vgn_spawn(char *const argv[], char *const envp[], const char *cwd, int out_fd, int err_fd, long long data_limit,
              int *pid_out);

/*
 * pipe2(fds, O_CLOEXEC): a pipe whose ends are not inherited by commands other threads start
 * meanwhile. Returns 0 or an errno value.
 */
int vgn_pipe_cloexec(int fds[2]);

/*
 * Makes the calling process the reaper of its orphaned descendants (Linux
 * PR_SET_CHILD_SUBREAPER), so a generator's grandchildren can be waited for and leave no
 * zombie behind. Returns 0 or an errno value; harmless to call more than once.
 */
int vgn_become_subreaper(void);

#ifdef __cplusplus
}
#endif

#endif
