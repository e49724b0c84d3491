// SPDX-License-Identifier: MIT
// The hostile-input suite: every entry point of scripts/api called with one bad argument at a
// time (cases.c), on the device the environment selects. Cases run in forked children, a few
// whole API tables per child (their cases in a row), watched by the parent: a child that dies is a
// crash (a sanitizer report when its output says so), one that stops making progress is a hang
// and is killed. The case that failed is re-run alone to tell it apart from damage done by
// an earlier case; the rest of the table goes on in a new child.
//
// Prints "hostile: <platform>: N cases, C crashes, H hangs, S sanitizer reports" and every
// result that differs from what UR's rules name. Exits 0 when every failure is in the
// known-failures list (URC_HOSTILE_KNOWN), 77 without a device.
//   URC_HOSTILE_WATCHDOG  seconds a case may take (default 10)
//   URC_HOSTILE_ONLY      run only the entry points whose name contains this
//   URC_HOSTILE_VERBOSE   list every case's result
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cases.h"
#include "core/enum_names.h"
#include "fixture.h"

enum { ST_NOT_RUN, ST_PASS, ST_DIFFERS, ST_CRASH, ST_HANG, ST_SANITIZER };

typedef struct shared_t {
    volatile int64_t current; // the case the child is in, -1 while it sets up
    volatile uint64_t beats;  // bumped after every case
    volatile int no_device;
    char platform[256];
    char fixture[256]; // what the fixture could make beyond the basics
    // followed by per-case results
} shared_t;

typedef struct outcome_t {
    int32_t result, expected;
    uint8_t state;
    bool alone_passed; // failed in a batch, passed when re-run alone
} outcome_t;

static hostile_case_t *cases;
static size_t ncases;
static shared_t *shm;
static outcome_t *outcomes; // in the shared mapping, after shm

static double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static bool verdict_passes(int32_t result, int32_t expected) {
    if (result == UR_RESULT_ERROR_UNSUPPORTED_FEATURE || expected == HOSTILE_EXPECT_ANY)
        return true;
    if (expected == HOSTILE_EXPECT_FAILURE)
        return result != UR_RESULT_SUCCESS;
    return result == expected;
}

// ---- the child ----

static void child_run(size_t begin, size_t end, int log_fd) {
    dup2(log_fd, STDERR_FILENO);
    dup2(log_fd, STDOUT_FILENO);
    shm->current = -1;
    hostile_fixture_t f;
    int ok = hostile_fixture_open(&f);
    if (ok == 0) {
        shm->no_device = 1;
        _exit(77);
    }
    if (ok < 0)
        _exit(78);
    memcpy(shm->platform, f.platform_name, sizeof shm->platform);
    snprintf(shm->fixture, sizeof shm->fixture, "%s%s%s%s%s%s%s%s%s%s%s%s%s",
             f.handles[HOSTILE_HK_KERNEL] != NULL ? "kernel" : "no kernel",
             f.usm != NULL ? ", USM" : ", no USM",
             f.handles[HOSTILE_HK_MEM] != NULL ? ", buffer" : ", no buffer",
             f.handles[HOSTILE_HK_EXP_COMMAND_BUFFER] != NULL ? ", command buffers" : "",
             f.handles[HOSTILE_HK_SAMPLER] != NULL ? ", sampler" : "",
             f.handles[HOSTILE_HK_USM_POOL] != NULL ? ", pool" : "",
             f.va != NULL ? ", virtual memory" : "", f.image_mem != 0 ? ", bindless images" : "",
             f.exportable != NULL ? ", exportable memory" : "", f.ipc_mem != NULL ? ", IPC" : "",
             f.handles[HOSTILE_HK_EXP_EXTERNAL_MEM] == NULL ? ""
             : f.ext_exported                               ? ", external memory (exported)"
                                                            : ", external memory (memfd)",
             f.handles[HOSTILE_HK_EXP_EXTERNAL_SEMAPHORE] != NULL ? ", external semaphore" : "",
             f.handles[HOSTILE_HK_EXP_GRAPH] != NULL ? ", graph" : "");
    for (size_t i = begin; i < end; ++i) {
        shm->current = (int64_t)i;
        outcome_t *o = &outcomes[i];
        hostile_run_case(&f, &cases[i], &o->result, &o->expected);
        o->state = verdict_passes(o->result, o->expected) ? ST_PASS : ST_DIFFERS;
        ++shm->beats;
    }
    // No teardown: the cases may have left the handles in any state, and _exit keeps the
    // sanitizers' leak check and atexit handlers out of it.
    _exit(0);
}

// ---- the parent ----

static bool log_says_sanitizer(const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return false;
    char line[1024];
    bool found = false;
    while (!found && fgets(line, sizeof line, f) != NULL)
        found = strstr(line, "Sanitizer") != NULL || strstr(line, "runtime error:") != NULL;
    fclose(f);
    return found;
}

static void print_log_tail(const char *path) {
    FILE *f = fopen(path, "r");
    if (f == NULL)
        return;
    char line[1024];
    int n = 0;
    while (fgets(line, sizeof line, f) != NULL && n++ < 40)
        fprintf(stderr, "    | %s", line);
    fclose(f);
}

typedef enum { RUN_DONE, RUN_FAILED_CASE, RUN_NO_DEVICE, RUN_SETUP_FAILED } run_end_t;

// Runs cases [begin, end) in one child. On RUN_FAILED_CASE, *failed is the case that crashed
// or hung and its state is set.
static run_end_t run_child(size_t begin, size_t end, double watchdog, size_t *failed,
                           bool verbose_log) {
    // The child's output goes to an anonymous file, read back through /proc: nothing is left
    // behind in any folder, whatever happens to either process.
    int log_fd = memfd_create("urc-hostile-log", 0);
    if (log_fd < 0)
        return RUN_SETUP_FAILED;
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", log_fd);
    shm->current = -1;
    uint64_t beats = shm->beats;
    pid_t pid = fork();
    if (pid == 0)
        child_run(begin, end, log_fd);
    double last = now_s();
    int status = 0;
    bool hung = false;
    for (;;) {
        pid_t r = waitpid(pid, &status, WNOHANG);
        if (r == pid || (r < 0 && errno != EINTR))
            break;
        if (shm->beats != beats) {
            beats = shm->beats;
            last = now_s();
        } else if (now_s() - last > (shm->current < 0 ? 3 * watchdog : watchdog)) {
            kill(pid, SIGKILL);
            waitpid(pid, &status, 0);
            hung = true;
            break;
        }
        struct timespec pause = {0, 2000000};
        nanosleep(&pause, NULL);
    }
    run_end_t end_kind = RUN_DONE;
    int64_t cur = shm->current;
    if (!hung && WIFEXITED(status) && WEXITSTATUS(status) == 0) {
        end_kind = RUN_DONE;
    } else if (!hung && WIFEXITED(status) && WEXITSTATUS(status) == 77) {
        end_kind = RUN_NO_DEVICE;
    } else if (cur < 0) {
        fprintf(stderr, "hostile: the fixture could not be set up (%s)\n",
                hung ? "hang" : "exit or signal");
        print_log_tail(path);
        end_kind = RUN_SETUP_FAILED;
    } else {
        *failed = (size_t)cur;
        outcomes[cur].state = hung ? ST_HANG : log_says_sanitizer(path) ? ST_SANITIZER : ST_CRASH;
        if (verbose_log)
            print_log_tail(path);
        end_kind = RUN_FAILED_CASE;
    }
    close(log_fd);
    return end_kind;
}

// ---- known failures ----

typedef struct known_t {
    char fn[96], param[64], cls[16];
    bool seen;
} known_t;

static known_t *known;
static size_t nknown;

static void load_known(const char *path) {
    FILE *f = path != NULL ? fopen(path, "r") : NULL;
    if (f == NULL)
        return;
    char line[512];
    size_t cap = 0;
    while (fgets(line, sizeof line, f) != NULL) {
        char *hash = strchr(line, '#');
        if (hash != NULL)
            *hash = '\0';
        known_t k = {{0}, {0}, {0}, false};
        if (sscanf(line, "%95s %63s %15s", k.fn, k.param, k.cls) != 3)
            continue;
        if (nknown == cap) {
            cap = cap ? 2 * cap : 64;
            known = realloc(known, cap * sizeof *known);
            if (known == NULL)
                exit(2);
        }
        known[nknown++] = k;
    }
    fclose(f);
}

static bool matches(const char *pattern, const char *s) {
    return strcmp(pattern, "*") == 0 || strcmp(pattern, s) == 0;
}

static bool is_known(const hostile_case_t *c) {
    const hostile_fn_t *fn = &hostile_fns[c->fn];
    const char *cls = hostile_mutation_class((hostile_mutation_t)c->mutation);
    bool hit = false;
    for (size_t i = 0; i < nknown; ++i)
        if (matches(known[i].fn, fn->name) && matches(known[i].param, fn->params[c->param].name) &&
            matches(known[i].cls, cls)) {
            known[i].seen = true;
            hit = true;
        }
    return hit;
}

static void describe(FILE *out, const char *what, size_t i) {
    const hostile_case_t *c = &cases[i];
    const hostile_fn_t *fn = &hostile_fns[c->fn];
    const outcome_t *o = &outcomes[i];
    fprintf(out, "  %s %s(%s = %s) [%s]", what, fn->name, fn->params[c->param].name,
            hostile_mutation_name((hostile_mutation_t)c->mutation),
            hostile_mutation_class((hostile_mutation_t)c->mutation));
    if (o->state == ST_DIFFERS) {
        fprintf(out, ": %s, UR names ", urc_result_name(o->result));
        if (o->expected == HOSTILE_EXPECT_FAILURE)
            fprintf(out, "any error");
        else
            fprintf(out, "%s", urc_result_name(o->expected));
    } else if (o->state == ST_PASS) {
        fprintf(out, ": %s", urc_result_name(o->result));
    }
    if (o->alone_passed)
        fprintf(out, " (passes alone: an earlier case in its child did the damage)");
}

// Re-runs each case of a failed batch under a sanitizer or a debugger needs the re-exec below.
static void ensure_sanitizer_options(char **argv) {
    if (getenv("URC_HOSTILE_CHILD_ENV") != NULL)
        return;
    // Sanitizers read their options when the process starts, and children are forks, so set
    // them here and start again: UBSan stops at its first report, so that the case that made
    // it is the one that ends; children _exit, so leaks are the parent's alone.
    const char *ub = getenv("UBSAN_OPTIONS");
    char buf[1024];
    snprintf(buf, sizeof buf, "%s%shalt_on_error=1:print_stacktrace=1", ub ? ub : "",
             ub && *ub ? ":" : "");
    setenv("UBSAN_OPTIONS", buf, 1);
    setenv("URC_HOSTILE_CHILD_ENV", "1", 1);
    execv("/proc/self/exe", argv);
}

int main(int argc, char **argv) {
    (void)argc;
    ensure_sanitizer_options(argv);
    const char *w = getenv("URC_HOSTILE_WATCHDOG");
    double watchdog = w != NULL && atof(w) > 0 ? atof(w) : 10.0;
    const char *only = getenv("URC_HOSTILE_ONLY");
    bool verbose = getenv("URC_HOSTILE_VERBOSE") != NULL;
    load_known(getenv("URC_HOSTILE_KNOWN"));

    size_t total = hostile_cases(NULL, 0);
    cases = calloc(total, sizeof *cases);
    if (cases == NULL)
        return 2;
    hostile_cases(cases, total);
    ncases = 0;
    for (size_t i = 0; i < total; ++i)
        if (only == NULL || strstr(hostile_fns[cases[i].fn].name, only) != NULL)
            cases[ncases++] = cases[i];
    size_t bytes = sizeof *shm + ncases * sizeof *outcomes;
    shm = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
    if (shm == MAP_FAILED)
        return 2;
    outcomes = (outcome_t *)(void *)(shm + 1);

    // Children take whole API tables, a few hundred cases each (a fixture costs a program
    // build on a CPU runtime); wrong-kind cases, which damage the fixture where an entry point
    // does not check kinds, get a child per table.
    size_t begin = 0;
    while (begin < ncases) {
        bool kind = hostile_is_kind_mutation((hostile_mutation_t)cases[begin].mutation);
        size_t batch = kind ? 1 : 500;
        size_t end = begin + 1;
        while (end < ncases &&
               hostile_is_kind_mutation((hostile_mutation_t)cases[end].mutation) == kind &&
               (end - begin < batch || strcmp(hostile_fns[cases[end].fn].table,
                                              hostile_fns[cases[end - 1].fn].table) == 0))
            ++end;
        size_t at = begin;
        while (at < end) {
            size_t failed = 0;
            run_end_t r = run_child(at, end, watchdog, &failed, verbose);
            if (r == RUN_NO_DEVICE) {
                printf("hostile: no device here: skipped\n");
                return 77;
            }
            if (r == RUN_SETUP_FAILED)
                return 1;
            if (r == RUN_DONE)
                break;
            if (failed > at) {
                // Alone, in a fresh child: is it this case, or an earlier one's damage?
                uint8_t state = outcomes[failed].state;
                size_t again = 0;
                if (run_child(failed, failed + 1, watchdog, &again, true) == RUN_DONE) {
                    outcomes[failed].alone_passed = true;
                    outcomes[failed].state = state;
                }
            }
            at = failed + 1;
        }
        begin = end;
    }

    size_t crashes = 0, hangs = 0, sanitizer = 0, differs = 0, unknown = 0, known_hits = 0;
    for (size_t i = 0; i < ncases; ++i) {
        uint8_t s = outcomes[i].state;
        crashes += s == ST_CRASH;
        hangs += s == ST_HANG;
        sanitizer += s == ST_SANITIZER;
        differs += s == ST_DIFFERS;
        if (s == ST_PASS)
            continue;
        bool k = is_known(&cases[i]);
        known_hits += k;
        unknown += !k;
    }
    printf("hostile: %s (%s): %zu cases, %zu crashes, %zu hangs, %zu sanitizer reports; %zu "
           "results differ from UR's rules (%zu failures known, %zu not)\n",
           shm->platform, shm->fixture, ncases, crashes, hangs, sanitizer, differs, known_hits,
           unknown);
    static const char *const what[] = {"", "ok", "differs:", "CRASH:", "HANG:", "SANITIZER:"};
    for (size_t i = 0; i < ncases; ++i) {
        uint8_t s = outcomes[i].state;
        if (s == ST_PASS && !verbose)
            continue;
        describe(stdout, what[s], i);
        printf("%s\n", s != ST_PASS && is_known(&cases[i]) ? " (known)" : "");
    }
    // Entries that no longer fail anywhere can go: the lead reconciles the list across devices.
    size_t unseen = 0;
    for (size_t i = 0; i < nknown; ++i) {
        unseen += !known[i].seen;
        if (!known[i].seen && verbose)
            printf("  known failure not seen on this device: %s %s %s\n", known[i].fn,
                   known[i].param, known[i].cls);
    }
    if (unseen > 0)
        printf("  %zu of %zu known-failure entries did not fail on this device\n", unseen, nknown);
    return unknown == 0 ? 0 : 1;
}
