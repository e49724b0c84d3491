// SPDX-License-Identifier: MIT
// The SPIR-V reader (reader.cpp): SPIR-V words → an LLVM module in the OpenCL 2.0 form.
#ifndef URC_CUDA_SPIRV_READER_H
#define URC_CUDA_SPIRV_READER_H

#include <stddef.h>
#include <stdint.h>

#include <llvm-c/Types.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Reads a SPIR-V module with the given specialization constants applied. 1 with *out set,
/// or 0 with *error a malloc'ed message (NULL when out of memory).
int urc_spirv_read(LLVMContextRef context, const char *data, size_t size, const uint32_t *spec_ids,
                   const uint64_t *spec_values, size_t spec_count, LLVMModuleRef *out,
                   char **error);

#ifdef __cplusplus
}
#endif

#endif // URC_CUDA_SPIRV_READER_H
