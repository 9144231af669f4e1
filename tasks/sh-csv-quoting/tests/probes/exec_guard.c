/* Exec guard for the hidden tests (LD_PRELOAD): the csv tools may run only the programs the
 * tests allow (bash and the standard text tools), whatever path they name them by, and may
 * load no code of their own into a process.
 *
 * Two layers. The kernel's: when the guard loads into the first process of a run, it seals
 * the process with Landlock before main() runs, and the seal is inherited by every process
 * of the run and cannot be lifted. Under it a process may execute only the allowed programs
 * (NAB_GUARD_ALLOW, real paths) and their ELF interpreter, and may open for writing nothing
 * under /proc (so no process can write into its own or another's memory through
 * /proc/PID/mem). No Landlock in the kernel: the run is refused (fails closed). A process
 * that cannot open its own memory for writing is sealed already and adds no seal.
 * The guard's own, inside each process (it is what logs a refusal):
 *  - every exec family call and posix_spawn is planned before anything runs: an allowed
 *    program is run by its real path (a link swapped after the check changes nothing); a
 *    "#!" script whose interpreter is allowed is run as the kernel would run it, the
 *    interpreter by its real path with the script as its argument (so the script is never
 *    executed itself, and a script swapped after the check is only read by the interpreter);
 *    a file with neither "#!" nor an ELF header fails with ENOEXEC, which makes the shell (or
 *    execvp, here) run it with the shell as it would anyway, never the kernel's other
 *    handlers; anything else is refused: an ELF file not allowed, a nested interpreter, a
 *    file that cannot be read (the kernel runs an ELF file it may only execute) or whose
 *    path does not resolve (/proc/self/fd/N of a deleted file);
 *  - dlopen (bash's `enable -f`, gawk's `@load`) loads only objects found by name in the
 *    system's library folders, or named by a path whose real path is a root-owned file in
 *    /usr/lib, /lib, /usr/lib64 or /lib64; nothing the tools can write;
 *  - the environment of every exec keeps LD_PRELOAD and the guard's settings as they were
 *    and loses every other LD_ variable (LD_AUDIT, LD_LIBRARY_PATH, ...) and GCONV_PATH,
 *    which would load code into the next program; setenv/unsetenv/putenv/clearenv cannot
 *    change them, so system() and popen() (which spawn /bin/sh with the caller's
 *    environment) stay guarded too.
 * A refusal is logged to NAB_GUARD_LOG and the call fails with EACCES. */
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

extern char **environ;

#define NKEEP 3
static const char *keep_names[NKEEP] = {"LD_PRELOAD", "NAB_GUARD_ALLOW", "NAB_GUARD_LOG"};
static char *keep_entries[NKEEP]; /* "NAME=value", fixed at load time */
static char *allow_list;          /* ":path:path:" */
static char *log_path;            /* NAB_GUARD_LOG at load time */

static void refuse_log(const char *what) {
    const char *log = log_path;
    char line[PATH_MAX + 64];
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

/* ---- The kernel's layer: Landlock ---------------------------------------------------- */

static int add_rule(int ruleset, const char *path, __u64 access) {
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) return -1;
    struct landlock_path_beneath_attr rule = {.allowed_access = access, .parent_fd = fd};
    int rc = (int)syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &rule, 0);
    close(fd);
    return rc;
}

/* The ELF interpreter (PT_INTERP) of the program at PATH, into BUF; 0 when it has one. */
static int elf_interp(const char *path, char *buf, size_t cap) {
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return -1;
    Elf64_Ehdr eh;
    int rc = -1;
    if (pread(fd, &eh, sizeof eh, 0) == (ssize_t)sizeof eh && memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 &&
        eh.e_ident[EI_CLASS] == ELFCLASS64 && eh.e_phentsize == sizeof(Elf64_Phdr)) {
        for (int i = 0; i < eh.e_phnum && i < 64; i++) {
            Elf64_Phdr ph;
            if (pread(fd, &ph, sizeof ph, (off_t)(eh.e_phoff + (Elf64_Off)i * sizeof ph)) != (ssize_t)sizeof ph) break;
            if (ph.p_type != PT_INTERP) continue;
            if (ph.p_filesz == 0 || ph.p_filesz >= cap) break;
            if (pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz) break;
            buf[ph.p_filesz] = '\0';
            rc = 0;
            break;
        }
    }
    close(fd);
    return rc;
}

/* 1 when this process is sealed already (inherited from the run's first process): it may
 * not open its own memory for writing. Asked of the kernel, so nothing can fake it. */
static int sealed(void) {
    int fd = open("/proc/self/mem", O_WRONLY | O_CLOEXEC);
    if (fd >= 0) {
        close(fd);
        return 0;
    }
    return errno == EACCES;
}

/* Seals this process and its descendants: execute only the allowed programs and their ELF
 * interpreters, write nothing under /proc. 0 when sealed. */
static int landlock_seal(void) {
    const __u64 exec = LANDLOCK_ACCESS_FS_EXECUTE, write_file = LANDLOCK_ACCESS_FS_WRITE_FILE;
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
    if (abi < 1) return -1;
    struct landlock_ruleset_attr attr = {.handled_access_fs = exec | write_file};
    int ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof attr, 0);
    if (ruleset < 0) return -1;
    /* Execute: each allowed program (a file), and the interpreter each names. */
    const char *p = allow_list ? allow_list : "";
    char path[PATH_MAX], interp[PATH_MAX], real[PATH_MAX];
    while (*p) {
        while (*p == ':') p++;
        const char *end = strchr(p, ':');
        size_t len = end ? (size_t)(end - p) : strlen(p);
        if (len == 0) break;
        if (len < sizeof path) {
            memcpy(path, p, len);
            path[len] = '\0';
            add_rule(ruleset, path, exec);
            if (elf_interp(path, interp, sizeof interp) == 0 && realpath(interp, real))
                add_rule(ruleset, real, exec);
        }
        p += len;
    }
    /* Write: everywhere but /proc (every top-level folder but proc). */
    DIR *root = opendir("/");
    if (!root) { close(ruleset); return -1; }
    struct dirent *e;
    while ((e = readdir(root))) {
        if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, "..") || !strcmp(e->d_name, "proc")) continue;
        snprintf(path, sizeof path, "/%s", e->d_name);
        struct stat st;
        if (lstat(path, &st) != 0 || !S_ISDIR(st.st_mode)) continue; /* links (/bin, /lib) lead into /usr */
        add_rule(ruleset, path, write_file);
    }
    closedir(root);
    if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) { close(ruleset); return -1; }
    long rc = syscall(SYS_landlock_restrict_self, ruleset, 0);
    close(ruleset);
    return rc == 0 && sealed() ? 0 : -1;
}

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
    if (!allow_list || (!sealed() && landlock_seal() != 0)) {
        refuse_log("this run: the kernel's seal (Landlock) could not be set");
        _exit(126);
    }
}

/* ---- Which programs may run, and how ------------------------------------------------- */

/* Environment entries the code under test may not set: the guard's own, and those that make
 * the dynamic loader or iconv load code (every LD_ variable, GCONV_PATH). */
static int is_kept(const char *name, size_t len) {
    for (int i = 0; i < NKEEP; i++)
        if (strlen(keep_names[i]) == len && strncmp(keep_names[i], name, len) == 0) return 1;
    if (len >= 3 && strncmp(name, "LD_", 3) == 0) return 1;
    if (len == 10 && strncmp(name, "GCONV_PATH", 10) == 0) return 1;
    return 0;
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

/* Find FILE on PATH like execvp does; NULL when not found. */
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
        struct stat st;
        if (access(buf, X_OK) == 0 && stat(buf, &st) == 0 && S_ISREG(st.st_mode)) return buf;
        path += len;
        if (*path == ':') path++;
    }
    return NULL;
}

enum { PLAN_REFUSE, PLAN_RUN, PLAN_SCRIPT, PLAN_NOEXEC };

struct plan {
    int kind;
    char exe[PATH_MAX];   /* PLAN_RUN, PLAN_SCRIPT: the real path of the allowed program to execute */
    char arg0[PATH_MAX];  /* PLAN_SCRIPT: the interpreter as the "#!" line names it */
    char opt[256];        /* PLAN_SCRIPT: the "#!" line's argument, if any */
    int has_opt;
};

/* Decides how PATH_NAME may run; logs a refusal. */
static void make_plan(const char *path_name, struct plan *pl) {
    char real[PATH_MAX];
    pl->kind = PLAN_REFUSE;
    pl->has_opt = 0;
    if (!realpath(path_name, real)) { refuse_log(path_name); return; } /* unresolvable (/proc/self/fd/N of a deleted file) */
    if (in_allow_list(real)) {
        pl->kind = PLAN_RUN;
        snprintf(pl->exe, sizeof pl->exe, "%s", real);
        return;
    }
    int fd = open(real, O_RDONLY | O_CLOEXEC);
    if (fd < 0) { refuse_log(real); return; } /* unreadable (mode 0111): the kernel would run an ELF file unread */
    char head[256];
    ssize_t got = read(fd, head, sizeof head - 1);
    close(fd);
    if (got < 0) { refuse_log(real); return; }
    head[got] = '\0';
    if (got >= 4 && memcmp(head, "\177ELF", 4) == 0) { refuse_log(real); return; }
    if (got < 2 || head[0] != '#' || head[1] != '!') { pl->kind = PLAN_NOEXEC; return; }
    /* "#!INTERP [ARG]": the kernel passes everything after INTERP as one argument. */
    char *nl = memchr(head, '\n', (size_t)got);
    if (!nl) { refuse_log(real); return; } /* a line the kernel would truncate */
    *nl = '\0';
    char *p = head + 2;
    while (*p == ' ' || *p == '\t') p++;
    char *interp = p;
    while (*p && *p != ' ' && *p != '\t') p++;
    if (*p) {
        *p++ = '\0';
        while (*p == ' ' || *p == '\t') p++;
        char *q = p + strlen(p);
        while (q > p && (q[-1] == ' ' || q[-1] == '\t' || q[-1] == '\r')) *--q = '\0';
        if (*p) {
            pl->has_opt = 1;
            snprintf(pl->opt, sizeof pl->opt, "%s", p);
        }
    }
    char interp_real[PATH_MAX];
    if (!*interp || !realpath(interp, interp_real) || !in_allow_list(interp_real)) {
        /* Not an allowed program (a script as interpreter included): env and the like run
         * their program through the guard of their own process. */
        refuse_log(real);
        return;
    }
    pl->kind = PLAN_SCRIPT;
    snprintf(pl->exe, sizeof pl->exe, "%s", interp_real);
    snprintf(pl->arg0, sizeof pl->arg0, "%s", interp);
}

/* The argv the kernel would give the interpreter of a "#!" script: INTERP [ARG] PATH argv[1..]. */
static char **script_argv(struct plan *pl, const char *path, char *const argv[]) {
    size_t n = 0;
    if (argv)
        while (argv[n]) n++;
    char **out = malloc((n + 4) * sizeof *out);
    if (!out) return NULL;
    size_t k = 0;
    out[k++] = pl->arg0;
    if (pl->has_opt) out[k++] = pl->opt;
    out[k++] = (char *)path;
    for (size_t i = 1; i < n; i++) out[k++] = argv[i];
    out[k] = NULL;
    return out;
}

/* A copy of ENVP with the guard's entries forced in and the loader's dropped. Leaks on
 * failure paths only. */
static char **sticky_env(char *const envp[]) {
    size_t n = 0;
    if (envp)
        while (envp[n]) n++;
    char **out = malloc((n + NKEEP + 1) * sizeof *out);
    if (!out) return NULL;
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
typedef int (*spawn_t)(pid_t *, const char *, const posix_spawn_file_actions_t *,
                       const posix_spawnattr_t *, char *const[], char *const[]);
typedef int (*setenv_t)(const char *, const char *, int);
typedef int (*unsetenv_t)(const char *);
typedef int (*putenv_t)(char *);
typedef int (*clearenv_t)(void);
typedef void *(*dlopen_t)(const char *, int);
typedef void *(*dlmopen_t)(Lmid_t, const char *, int);

/* Runs a planned program; returns only on failure (errno set). */
static int run_plan(struct plan *pl, const char *path, char *const argv[], char *const envp[]) {
    REAL(execve, execve_t);
    char **env = sticky_env(envp);
    if (!env) { errno = ENOMEM; return -1; }
    switch (pl->kind) {
    case PLAN_RUN:
        return real_execve(pl->exe, argv, env);
    case PLAN_SCRIPT: {
        char **args = script_argv(pl, path, argv);
        if (!args) { errno = ENOMEM; return -1; }
        real_execve(pl->exe, args, env);
        free(args);
        return -1;
    }
    case PLAN_NOEXEC:
        errno = ENOEXEC;
        return -1;
    default:
        errno = EACCES;
        return -1;
    }
}

int execve(const char *path, char *const argv[], char *const envp[]) {
    struct plan pl;
    make_plan(path, &pl);
    return run_plan(&pl, path, argv, envp);
}

int execv(const char *path, char *const argv[]) { return execve(path, argv, environ); }

int execvpe(const char *file, char *const argv[], char *const envp[]) {
    if (!*file) { errno = ENOENT; return -1; }
    char buf[PATH_MAX];
    const char *found = search_path(file, buf, sizeof buf);
    if (!found) { errno = ENOENT; return -1; }
    struct plan pl;
    make_plan(found, &pl);
    run_plan(&pl, found, argv, envp);
    if (errno != ENOEXEC) return -1;
    /* execvp runs a file with neither "#!" nor an ELF header with the shell. */
    size_t n = 0;
    while (argv[n]) n++;
    char **args = malloc((n + 3) * sizeof *args);
    if (!args) { errno = ENOMEM; return -1; }
    args[0] = "/bin/sh";
    args[1] = (char *)found;
    for (size_t i = 1; i < n; i++) args[i + 1] = argv[i];
    args[n < 1 ? 2 : n + 1] = NULL;
    execve("/bin/sh", args, envp);
    free(args);
    return -1;
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
    char link[64], real[PATH_MAX];
    snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    ssize_t n = readlink(link, real, sizeof real - 1);
    if (n < 0) { refuse_log("an unnamed file descriptor"); errno = EACCES; return -1; }
    real[n] = '\0';
    return execve(real, argv, envp);
}

/* Nothing the tools need runs a program relative to a directory descriptor. */
int execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags) {
    (void)dirfd; (void)argv; (void)envp; (void)flags;
    refuse_log(path);
    errno = EACCES;
    return -1;
}

static int spawn_plan(pid_t *pid, struct plan *pl, const char *path, const posix_spawn_file_actions_t *fa,
                      const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) {
    REAL(posix_spawn, spawn_t);
    if (pl->kind == PLAN_NOEXEC) return ENOEXEC;
    if (pl->kind != PLAN_RUN && pl->kind != PLAN_SCRIPT) return EACCES;
    char **env = sticky_env(envp);
    if (!env) return ENOMEM;
    if (pl->kind == PLAN_RUN) return real_posix_spawn(pid, pl->exe, fa, attr, argv, env);
    char **args = script_argv(pl, path, argv);
    if (!args) return ENOMEM;
    int rc = real_posix_spawn(pid, pl->exe, fa, attr, args, env);
    free(args);
    return rc;
}

int posix_spawn(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa,
                const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) {
    struct plan pl;
    make_plan(path, &pl);
    return spawn_plan(pid, &pl, path, fa, attr, argv, envp);
}

int posix_spawnp(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,
                 const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) {
    char buf[PATH_MAX];
    const char *found = *file ? search_path(file, buf, sizeof buf) : NULL;
    if (!found) return ENOENT;
    struct plan pl;
    make_plan(found, &pl);
    return spawn_plan(pid, &pl, found, fa, attr, argv, envp);
}

/* ---- Loading code: only the system's own objects ------------------------------------- */

/* 1 when REAL (a real path) is a root-owned regular file in a system library folder, which
 * nothing in the sandbox can write. */
static int system_object(const char *real) {
    static const char *dirs[] = {"/usr/lib/", "/lib/", "/usr/lib64/", "/lib64/"};
    int in_dir = 0;
    for (size_t i = 0; i < sizeof dirs / sizeof *dirs; i++)
        if (strncmp(real, dirs[i], strlen(dirs[i])) == 0) in_dir = 1;
    if (!in_dir) return 0;
    struct stat st;
    return stat(real, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == 0 && !(st.st_mode & 022);
}

/* The path dlopen may load for FILE: FILE itself when it has no "/" (the loader searches
 * only the system's folders: no LD_LIBRARY_PATH gets past the guard), else its real path
 * when that is a system object; NULL (refused, logged) otherwise. */
static const char *loadable(const char *file, char *buf) {
    if (!file || !strchr(file, '/')) return file;
    if (realpath(file, buf) && system_object(buf)) return buf;
    refuse_log(file);
    return NULL;
}

void *dlopen(const char *file, int mode) {
    REAL(dlopen, dlopen_t);
    char buf[PATH_MAX];
    const char *ok = loadable(file, buf);
    if (file && !ok) return NULL;
    return real_dlopen(ok, mode);
}

void *dlmopen(Lmid_t lmid, const char *file, int mode) {
    REAL(dlmopen, dlmopen_t);
    char buf[PATH_MAX];
    const char *ok = loadable(file, buf);
    if (file && !ok) return NULL;
    return real_dlmopen(lmid, ok, mode);
}

/* ---- The environment --------------------------------------------------------------- */

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
