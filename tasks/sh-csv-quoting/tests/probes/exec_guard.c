/* Exec guard for the hidden tests (LD_PRELOAD): the csv tools may run only the programs the
 * tests allow (bash and the standard text tools), whatever path they name them by.
 *
 * Every exec family call and posix_spawn in a guarded process is checked: the program's real
 * path must be in NAB_GUARD_ALLOW (colon-separated real paths), or be a script whose "#!"
 * interpreter is (or a file with neither "#!" nor an ELF header, which the shell runs
 * itself). A program whose path does not resolve, or that cannot be read, is refused too:
 * the kernel runs an ELF file it may only execute, and /proc/self/fd/N of a deleted file.
 * A refused program is logged to NAB_GUARD_LOG and the call fails with EACCES.
 * The guard is sticky: every exec passes LD_PRELOAD and the guard's settings on, and
 * setenv/unsetenv/putenv/clearenv cannot drop them, so system() and popen() (which spawn
 * /bin/sh with the caller's environment) stay guarded too. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

extern char **environ;

#define NKEEP 3
static const char *keep_names[NKEEP] = {"LD_PRELOAD", "NAB_GUARD_ALLOW", "NAB_GUARD_LOG"};
static char *keep_entries[NKEEP]; /* "NAME=value", fixed at load time */
static char *allow_list;          /* ":path:path:" */
static char *log_path;            /* NAB_GUARD_LOG at load time */

__attribute__((constructor)) static void guard_init(void) {
    for (int i = 0; i < NKEEP; i++) {
        const char *v = getenv(keep_names[i]);
        if (!v) v = "";
        size_t n = strlen(keep_names[i]) + 1 + strlen(v) + 1;
        keep_entries[i] = malloc(n);
        if (keep_entries[i]) snprintf(keep_entries[i], n, "%s=%s", keep_names[i], v);
    }
    const char *l = getenv("NAB_GUARD_LOG");
    log_path = l ? strdup(l) : NULL;
    const char *a = getenv("NAB_GUARD_ALLOW");
    if (!a) a = "";
    size_t n = strlen(a) + 3;
    allow_list = malloc(n);
    if (allow_list) snprintf(allow_list, n, ":%s:", a);
}

static int is_kept(const char *name, size_t len) {
    for (int i = 0; i < NKEEP; i++)
        if (strlen(keep_names[i]) == len && strncmp(keep_names[i], name, len) == 0) return 1;
    return 0;
}

static void refuse_log(const char *what) {
    const char *log = log_path;
    char line[PATH_MAX + 32];
    int n = snprintf(line, sizeof line, "refused %s\n", what);
    if (n < 0) return;
    if ((size_t)n >= sizeof line) n = (int)sizeof line - 1;
    if (log && *log) {
        int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
        if (fd >= 0) {
            ssize_t w = write(fd, line, (size_t)n);
            (void)w;
            close(fd);
        }
    }
    ssize_t w = write(2, "nab exec guard: ", 16);
    w = write(2, line, (size_t)n);
    (void)w;
}

static int in_allow_list(const char *real) {
    if (!allow_list) return 0;
    size_t n = strlen(real);
    char *probe = malloc(n + 3);
    if (!probe) return 0;
    snprintf(probe, n + 3, ":%s:", real);
    int found = strstr(allow_list, probe) != NULL;
    free(probe);
    return found;
}

/* Find FILE on PATH like execvp does; NULL when not found (the real call then fails). */
static char *search_path(const char *file, char *buf, size_t cap) {
    if (strchr(file, '/')) {
        snprintf(buf, cap, "%s", file);
        return buf;
    }
    const char *path = getenv("PATH");
    if (!path) path = "/bin:/usr/bin";
    while (*path) {
        const char *end = strchr(path, ':');
        size_t len = end ? (size_t)(end - path) : strlen(path);
        if (len == 0)
            snprintf(buf, cap, "%s", file);
        else
            snprintf(buf, cap, "%.*s/%s", (int)len, path, file);
        if (access(buf, X_OK) == 0) return buf;
        path += len;
        if (*path == ':') path++;
    }
    return NULL;
}

/* 1 when PATH_NAME may be run, 0 when not. depth bounds interpreter chains. */
static int may_run(const char *path_name, int depth) {
    char real[PATH_MAX];
    if (!realpath(path_name, real)) { refuse_log(path_name); return 0; } /* unresolvable (e.g. /proc/self/fd/N of a deleted file) */
    if (in_allow_list(real)) return 1;
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { refuse_log(real); return 0; } /* unreadable (mode 0111): the kernel would run an ELF file unread */
    char head[256];
    ssize_t got = read(fd, head, sizeof head - 1);
    close(fd);
    if (got < 0) got = 0;
    head[got] = '\0';
    if (got >= 4 && memcmp(head, "\177ELF", 4) == 0) {
        refuse_log(real);
        return 0;
    }
    if (got < 2 || head[0] != '#' || head[1] != '!') return 1; /* ENOEXEC: the shell runs it */
    if (depth > 0) {
        refuse_log(real);
        return 0;
    }
    char *nl = strchr(head, '\n');
    if (nl) *nl = '\0';
    char *p = head + 2;
    while (*p == ' ' || *p == '\t') p++;
    char *interp = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    char *rest = NULL;
    if (*p) {
        *p++ = '\0';
        while (*p == ' ' || *p == '\t') p++;
        rest = *p ? p : NULL;
    }
    const char *base = strrchr(interp, '/');
    base = base ? base + 1 : interp;
    if (strcmp(base, "env") == 0 && may_run(interp, depth + 1)) {
        /* "#!/usr/bin/env NAME": NAME is looked up on PATH. */
        if (!rest || rest[0] == '-') {
            refuse_log(real);
            return 0;
        }
        char *q = rest;
        while (*q && *q != ' ' && *q != '\t') q++;
        *q = '\0';
        char buf[PATH_MAX];
        const char *found = search_path(rest, buf, sizeof buf);
        if (!found) return 1;
        if (may_run(found, depth + 1)) return 1;
        refuse_log(real);
        return 0;
    }
    if (may_run(interp, depth + 1)) return 1;
    refuse_log(real);
    return 0;
}

/* A copy of ENVP with the guard's entries forced in. Leaks on failure paths only. */
static char **sticky_env(char *const envp[]) {
    size_t n = 0;
    if (envp)
        while (envp[n]) n++;
    char **out = malloc((n + NKEEP + 1) * sizeof *out);
    if (!out) return (char **)envp;
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const char *eq = strchr(envp[i], '=');
        size_t len = eq ? (size_t)(eq - envp[i]) : strlen(envp[i]);
        if (!is_kept(envp[i], len)) out[k++] = envp[i];
    }
    for (int i = 0; i < NKEEP; i++)
        if (keep_entries[i]) out[k++] = keep_entries[i];
    out[k] = NULL;
    return out;
}

#define REAL(name, type) static type real_##name; if (!real_##name) real_##name = (type)dlsym(RTLD_NEXT, #name)

typedef int (*execve_t)(const char *, char *const[], char *const[]);
typedef int (*execvpe_t)(const char *, char *const[], char *const[]);
typedef int (*fexecve_t)(int, char *const[], char *const[]);
typedef int (*spawn_t)(pid_t *, const char *, const posix_spawn_file_actions_t *,
                       const posix_spawnattr_t *, char *const[], char *const[]);
typedef int (*setenv_t)(const char *, const char *, int);
typedef int (*unsetenv_t)(const char *);
typedef int (*putenv_t)(char *);
typedef int (*clearenv_t)(void);

int execve(const char *path, char *const argv[], char *const envp[]) {
    REAL(execve, execve_t);
    if (!may_run(path, 0)) { errno = EACCES; return -1; }
    return real_execve(path, argv, sticky_env(envp));
}

int execv(const char *path, char *const argv[]) { return execve(path, argv, environ); }

int execvpe(const char *file, char *const argv[], char *const envp[]) {
    REAL(execvpe, execvpe_t);
    char buf[PATH_MAX];
    const char *found = search_path(file, buf, sizeof buf);
    if (found && !may_run(found, 0)) { errno = EACCES; return -1; }
    return real_execvpe(file, argv, sticky_env(envp));
}

int execvp(const char *file, char *const argv[]) { return execvpe(file, argv, environ); }

static char **collect(const char *arg0, va_list ap, char ***envp_out) {
    size_t cap = 16, n = 0;
    char **argv = malloc(cap * sizeof *argv);
    if (!argv) return NULL;
    argv[n++] = (char *)arg0;
    for (;;) {
        char *a = va_arg(ap, char *);
        if (n + 1 >= cap) {
            cap *= 2;
            char **bigger = realloc(argv, cap * sizeof *argv);
            if (!bigger) { free(argv); return NULL; }
            argv = bigger;
        }
        argv[n++] = a;
        if (!a) break;
    }
    if (envp_out) *envp_out = va_arg(ap, char **);
    return argv;
}

int execl(const char *path, const char *arg, ...) {
    va_list ap;
    va_start(ap, arg);
    char **argv = collect(arg, ap, NULL);
    va_end(ap);
    if (!argv) { errno = ENOMEM; return -1; }
    return execve(path, argv, environ);
}

int execlp(const char *file, const char *arg, ...) {
    va_list ap;
    va_start(ap, arg);
    char **argv = collect(arg, ap, NULL);
    va_end(ap);
    if (!argv) { errno = ENOMEM; return -1; }
    return execvpe(file, argv, environ);
}

int execle(const char *path, const char *arg, ...) {
    va_list ap;
    va_start(ap, arg);
    char **envp = NULL;
    char **argv = collect(arg, ap, &envp);
    va_end(ap);
    if (!argv) { errno = ENOMEM; return -1; }
    return execve(path, argv, envp);
}

int fexecve(int fd, char *const argv[], char *const envp[]) {
    REAL(fexecve, fexecve_t);
    char link[64], real[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, real, sizeof real - 1);
    if (n < 0) { refuse_log("an unnamed file descriptor"); errno = EACCES; return -1; }
    real[n] = '\0';
    if (!may_run(real, 0)) { errno = EACCES; return -1; }
    return real_fexecve(fd, argv, sticky_env(envp));
}

/* Nothing the tools need runs a program relative to a directory descriptor. */
int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags) {
    (void)dirfd; (void)argv; (void)envp; (void)flags;
    refuse_log(path);
    errno = EACCES;
    return -1;
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
                const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) {
    REAL(posix_spawn, spawn_t);
    if (!may_run(path, 0)) return EACCES;
    return real_posix_spawn(pid, path, fa, attr, argv, sticky_env(envp));
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
                 const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) {
    REAL(posix_spawnp, spawn_t);
    char buf[PATH_MAX];
    const char *found = search_path(file, buf, sizeof buf);
    if (found && !may_run(found, 0)) return EACCES;
    return real_posix_spawnp(pid, file, fa, attr, argv, sticky_env(envp));
}

int setenv(const char *name, const char *value, int overwrite) {
    REAL(setenv, setenv_t);
    if (name && is_kept(name, strlen(name))) return 0;
    return real_setenv(name, value, overwrite);
}

int unsetenv(const char *name) {
    REAL(unsetenv, unsetenv_t);
    if (is_kept(name, strlen(name))) return 0;
    return real_unsetenv(name);
}

int putenv(char *string) {
    REAL(putenv, putenv_t);
    const char *eq = strchr(string, '=');
    if (is_kept(string, eq ? (size_t)(eq - string) : strlen(string))) return 0;
    return real_putenv(string);
}

int clearenv(void) {
    REAL(clearenv, clearenv_t);
    REAL(putenv, putenv_t);
    int rc = real_clearenv();
    for (int i = 0; i < NKEEP; i++)
        if (keep_entries[i]) real_putenv(keep_entries[i]);
    return rc;
}
