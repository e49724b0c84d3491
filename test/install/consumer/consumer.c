// SPDX-License-Identifier: MIT
// A program built against an installed urc, as an application would be: initialise the
// loader, count the adapters, and ask the first one its backend.
#include <stdio.h>

#include "ur_api.h"

int main(void) {
    if (urLoaderInit(0, NULL) != UR_RESULT_SUCCESS)
        return 1;
    uint32_t count = 0;
    ur_adapter_handle_t adapter = NULL;
    if (urAdapterGet(1, &adapter, &count) != UR_RESULT_SUCCESS)
        return 2;
    ur_backend_t backend = UR_BACKEND_UNKNOWN;
    if (count > 0 && urAdapterGetInfo(adapter, UR_ADAPTER_INFO_BACKEND, sizeof backend, &backend,
                                      NULL) != UR_RESULT_SUCCESS)
        return 3;
    printf("consumer: %u adapter(s), first backend %d\n", count, (int)backend);
    if (count > 0)
        urAdapterRelease(adapter);
    return urLoaderTearDown() == UR_RESULT_SUCCESS ? 0 : 4;
}
