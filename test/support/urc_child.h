// SPDX-License-Identifier: MIT
// Two-process tests (IPC handles): a child forked before the parent starts any driver, since a
// forked child cannot use its parent's, and two pipes between them, one each way.
#ifndef URC_TEST_SUPPORT_URC_CHILD_H
#define URC_TEST_SUPPORT_URC_CHILD_H

#include <sys/types.h>

/// The parent's side of a child: its process and the parent's ends of the pipes.
typedef struct urc_test_child_t {
    pid_t pid;
    int to_child;   // the parent writes here; the child reads `in`
    int from_child; // the parent reads here; the child writes `out`
} urc_test_child_t;

/// Forks a child that runs `body` with its ends of the pipes and exits with what it returns
/// (never returning into the test). Pipes and fork are asserted.
urc_test_child_t urc_test_child_start(int (*body)(int in, int out));

/// Closes the parent's writing end, so a child still reading sees the end of its input.
void urc_test_child_close_input(urc_test_child_t *c);

/// Closes the parent's ends and waits for the child: its wait status (waitpid asserted).
int urc_test_child_wait(urc_test_child_t *c);

#endif // URC_TEST_SUPPORT_URC_CHILD_H
