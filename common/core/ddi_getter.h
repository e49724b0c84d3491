// SPDX-License-Identifier: MIT
// One exported table getter of an adapter: urGet<Table>ProcAddrTable copies the adapter's
// table out, after UR's checks (NULL table, exact version match). `hook` is evaluated first;
// the loader tests' fake adapter uses it to make a getter fail, real adapters pass SUCCESS.
#ifndef URC_COMMON_CORE_DDI_GETTER_H
#define URC_COMMON_CORE_DDI_GETTER_H

#include "ur_ddi.h"

#define URC_DEFINE_DDI_GETTER(getter, table_type, table, hook)                                     \
    UR_DLLEXPORT ur_result_t UR_APICALL getter(ur_api_version_t version, table_type *pDdiTable) {  \
        if (pDdiTable == NULL)                                                                     \
            return UR_RESULT_ERROR_INVALID_NULL_POINTER;                                           \
        if (version != UR_API_VERSION_CURRENT)                                                     \
            return UR_RESULT_ERROR_UNSUPPORTED_VERSION;                                            \
        ur_result_t hook_result = (hook);                                                          \
        if (hook_result != UR_RESULT_SUCCESS)                                                      \
            return hook_result;                                                                    \
        *pDdiTable = (table);                                                                      \
        return UR_RESULT_SUCCESS;                                                                  \
    }

#endif // URC_COMMON_CORE_DDI_GETTER_H
