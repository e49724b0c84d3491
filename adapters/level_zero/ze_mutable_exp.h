// SPDX-License-Identifier: MIT
// Level Zero's mutable command list extension (ZE_experimental_mutable_command_list 1.1, API
// 1.9), which Debian's libze-dev 1.8.12 (API 1.4) does not declare. Names, values and layouts are
// the specification's; newer headers that declare it themselves win. The entry points have no
// slot in the 1.4 DDI tables, so callers get them from zeDriverGetExtensionFunctionAddress.
// Shared by the adapter and the simulated driver (test/ze_sim/mutable.c).
#ifndef URC_L0_ZE_MUTABLE_EXP_H
#define URC_L0_ZE_MUTABLE_EXP_H

#include <level_zero/ze_api.h>
#include <stdint.h>

#ifndef ZE_MUTABLE_COMMAND_LIST_EXP_NAME
#define ZE_MUTABLE_COMMAND_LIST_EXP_NAME "ZE_experimental_mutable_command_list"

#define ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_1_0     ZE_MAKE_VERSION(1, 0)
#define ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_1_1     ZE_MAKE_VERSION(1, 1)
#define ZE_MUTABLE_COMMAND_LIST_EXP_VERSION_CURRENT ZE_MAKE_VERSION(1, 1)

#define ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_PROPERTIES ((ze_structure_type_t)0x00020015)
#define ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_LIST_EXP_DESC       ((ze_structure_type_t)0x00020016)
#define ZE_STRUCTURE_TYPE_MUTABLE_COMMAND_ID_EXP_DESC         ((ze_structure_type_t)0x00020017)
#define ZE_STRUCTURE_TYPE_MUTABLE_COMMANDS_EXP_DESC           ((ze_structure_type_t)0x00020018)
#define ZE_STRUCTURE_TYPE_MUTABLE_KERNEL_ARGUMENT_EXP_DESC    ((ze_structure_type_t)0x00020019)
#define ZE_STRUCTURE_TYPE_MUTABLE_GROUP_COUNT_EXP_DESC        ((ze_structure_type_t)0x0002001A)
#define ZE_STRUCTURE_TYPE_MUTABLE_GROUP_SIZE_EXP_DESC         ((ze_structure_type_t)0x0002001B)
#define ZE_STRUCTURE_TYPE_MUTABLE_GLOBAL_OFFSET_EXP_DESC      ((ze_structure_type_t)0x0002001C)

typedef uint32_t ze_mutable_command_exp_flags_t;
#define ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_ARGUMENTS   ZE_BIT(0)
#define ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_COUNT        ZE_BIT(1)
#define ZE_MUTABLE_COMMAND_EXP_FLAG_GROUP_SIZE         ZE_BIT(2)
#define ZE_MUTABLE_COMMAND_EXP_FLAG_GLOBAL_OFFSET      ZE_BIT(3)
#define ZE_MUTABLE_COMMAND_EXP_FLAG_SIGNAL_EVENT       ZE_BIT(4)
#define ZE_MUTABLE_COMMAND_EXP_FLAG_WAIT_EVENTS        ZE_BIT(5)
#define ZE_MUTABLE_COMMAND_EXP_FLAG_KERNEL_INSTRUCTION ZE_BIT(6)
#define ZE_MUTABLE_COMMAND_EXP_FLAG_GRAPH_ARGUMENTS    ZE_BIT(7)

typedef uint32_t ze_mutable_command_list_exp_flags_t;

typedef struct _ze_mutable_command_id_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    ze_mutable_command_exp_flags_t flags; // 0: everything but the kernel
} ze_mutable_command_id_exp_desc_t;

// Chained to ze_device_properties_t.
typedef struct _ze_mutable_command_list_exp_properties_t {
    ze_structure_type_t stype;
    void *pNext;
    ze_mutable_command_list_exp_flags_t mutableCommandListFlags;
    ze_mutable_command_exp_flags_t mutableCommandFlags;
} ze_mutable_command_list_exp_properties_t;

// Chained to ze_command_list_desc_t: the list is mutable.
typedef struct _ze_mutable_command_list_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    ze_mutable_command_list_exp_flags_t flags;
} ze_mutable_command_list_exp_desc_t;

// The head of an update: the descriptors below follow through pNext.
typedef struct _ze_mutable_commands_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    uint32_t flags;
} ze_mutable_commands_exp_desc_t;

typedef struct _ze_mutable_kernel_argument_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    uint64_t commandId;
    uint32_t argIndex;
    size_t argSize;
    const void *pArgValue;
} ze_mutable_kernel_argument_exp_desc_t;

typedef struct _ze_mutable_group_count_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    uint64_t commandId;
    const ze_group_count_t *pGroupCount;
} ze_mutable_group_count_exp_desc_t;

typedef struct _ze_mutable_group_size_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    uint64_t commandId;
    uint32_t groupSizeX, groupSizeY, groupSizeZ;
} ze_mutable_group_size_exp_desc_t;

typedef struct _ze_mutable_global_offset_exp_desc_t {
    ze_structure_type_t stype;
    const void *pNext;
    uint64_t commandId;
    uint32_t offsetX, offsetY, offsetZ;
} ze_mutable_global_offset_exp_desc_t;
#endif // ZE_MUTABLE_COMMAND_LIST_EXP_NAME

// The entry points, as function types (looked up by these names).
typedef ze_result_t(ZE_APICALL *urc_zeCommandListGetNextCommandIdExp_fn)(
    ze_command_list_handle_t, const ze_mutable_command_id_exp_desc_t *, uint64_t *);
typedef ze_result_t(ZE_APICALL *urc_zeCommandListGetNextCommandIdWithKernelsExp_fn)(
    ze_command_list_handle_t, const ze_mutable_command_id_exp_desc_t *, uint32_t,
    ze_kernel_handle_t *, uint64_t *);
typedef ze_result_t(ZE_APICALL *urc_zeCommandListUpdateMutableCommandsExp_fn)(
    ze_command_list_handle_t, const ze_mutable_commands_exp_desc_t *);
typedef ze_result_t(ZE_APICALL *urc_zeCommandListUpdateMutableCommandSignalEventExp_fn)(
    ze_command_list_handle_t, uint64_t, ze_event_handle_t);
typedef ze_result_t(ZE_APICALL *urc_zeCommandListUpdateMutableCommandWaitEventsExp_fn)(
    ze_command_list_handle_t, uint64_t, uint32_t, ze_event_handle_t *);
typedef ze_result_t(ZE_APICALL *urc_zeCommandListUpdateMutableCommandKernelsExp_fn)(
    ze_command_list_handle_t, uint32_t, uint64_t *, ze_kernel_handle_t *);

#endif // URC_L0_ZE_MUTABLE_EXP_H
