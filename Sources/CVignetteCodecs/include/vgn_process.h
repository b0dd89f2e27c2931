/*
 * vgn_process.h - starting external generator commands (no shell, own process group,
 * limits set before the program runs, optionally alone in a new PID namespace).
 *
 * The Swift side (VignetteGenerators/External/ProcessRunner.swift) owns the pipes, the
 * timeout and the teardown; these helpers only do what must happen between fork and exec.
 */
#ifndef VGN_PROCESS_H
#define VGN_PROCESS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Resource caps applied in the child before exec; 0 leaves a limit as inherited. */
typedef struct vgn_spawn_limits {
    long long data_bytes;   /* RLIMIT_DATA: heap and other private writable memory */
    long long cpu_seconds;  /* RLIMIT_CPU: SIGXCPU, then SIGKILL a second later */
    long long file_bytes;   /* RLIMIT_FSIZE: largest file it may write (SIGXFSZ beyond) */
    long long processes;    /* RLIMIT_NPROC: processes of the user (not enforced for root) */
} vgn_spawn_limits;

/* Flags for vgn_spawn. */
#define VGN_SPAWN_PID_NAMESPACE 1 /* run the command in a new PID namespace when allowed */

/*
 * Starts the program at absolute path `path` with argv and envp, working directory cwd, stdin
 * from /dev/null, stdout on out_fd and stderr on err_fd, in a new process group whose id is the
 * child's pid, with default signal dispositions, an empty signal mask, no core dumps, the
 * `limits` set before exec (so the program never runs uncapped), and SIGKILL if the caller dies.
 * With VGN_SPAWN_PID_NAMESPACE the child is PID 1 of a new PID namespace (as root, else in a new
 * user namespace too): a small init that runs the program as PID 2, reaps orphans, and exits
 * with the program's status (128 + the signal if one ended it), whereupon the kernel kills every
 * process left behind, even ones that called setsid; *isolated_out (may be NULL) says whether that worked. Returns 0 and
 * stores the pid, or an errno value (ENOENT for a missing program; the child's own exec or
 * setrlimit error is reported back through a pipe).
 */
int vgn_spawn(const char *path, char *const argv[], char *const envp[], const char *cwd, int out_fd, int err_fd,
              const vgn_spawn_limits *limits, int flags, int *pid_out, int *isolated_out);

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
