// SPDX-License-Identifier: MIT
// The forked child of two-process tests (urc_child.h).
#include "urc_child.h"

#include <sys/wait.h>
#include <unistd.h>

#include "urc_test.h"

urc_test_child_t urc_test_child_start(int (*body)(int in, int out)) {
    int to_child[2], to_parent[2];
    ck_assert_int_eq(pipe(to_child), 0);
    ck_assert_int_eq(pipe(to_parent), 0);
    pid_t pid = fork();
    ck_assert_int_ge(pid, 0);
    if (pid == 0) {
        close(to_child[1]);
        close(to_parent[0]);
        _exit(body(to_child[0], to_parent[1]));
    }
    close(to_child[0]);
    close(to_parent[1]);
    return (urc_test_child_t){pid, to_child[1], to_parent[0]};
}

void urc_test_child_close_input(urc_test_child_t *c) {
    if (c->to_child >= 0)
        close(c->to_child);
    c->to_child = -1;
}

int urc_test_child_wait(urc_test_child_t *c) {
    urc_test_child_close_input(c);
    if (c->from_child >= 0)
        close(c->from_child);
    c->from_child = -1;
    int status = -1;
    ck_assert_int_eq(waitpid(c->pid, &status, 0), c->pid);
    return status;
}
