// SPDX-License-Identifier: MIT
// A shared library named like an adapter that exports none of the table getters, for the
// loader's "not a UR adapter" case.
__attribute__((visibility("default"))) int urc_not_an_adapter(void);

int urc_not_an_adapter(void) {
    return 42;
}
