// SPDX-License-Identifier: MIT
// SPIR-V programs on CUDA (docs/spirv.md): the adapter runs urc-spirv-ptx, a helper process
// built with LLVM 15 and the SPIRV-LLVM-Translator, and keeps its PTX in a cache on disk.
// Nothing here links against LLVM: without the helper, SPIR-V answers UNSUPPORTED_FEATURE.
#ifndef URC_CUDA_SPIRV_H
#define URC_CUDA_SPIRV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <ur_api.h>

/// The Debian packages the chain needs, for messages.
#define CUDA_SPIRV_PACKAGES "llvm-15, libllvmspirvlib15 and libclc-15"

typedef struct cuda_spec_const_t {
    uint32_t id;
    uint64_t value; // the constant's bytes, little endian, zero-extended
} cuda_spec_const_t;

typedef struct cuda_spirv_request_t {
    const void *spirv; // the module as given (either byte order)
    size_t size;
    unsigned sm;      // target: sm_<sm>
    bool library;     // compile for a later link: the module's own functions stay external
    bool no_contract; // no FMA contraction in any kernel
    const cuda_spec_const_t *spec;
    uint32_t spec_count;
} cuda_spirv_request_t;

/// Whether SPIR-V can be translated here (the helper runs and libclc is readable); checked
/// once. When not, `why` (may be NULL) gets a sentence naming what is missing.
bool cuda_spirv_available(char *why, size_t why_size);

/// Translates a module to PTX: from the cache when an entry with the same module, options,
/// specialization constants and toolchain exists, else by running the helper (and storing the
/// result). On success *ptx is a malloc'ed NUL-terminated string of *ptx_size bytes (without
/// the NUL). *log always receives the helper's messages (malloc'ed, possibly empty; NULL when
/// out of memory). Errors: UNSUPPORTED_FEATURE (no toolchain), INVALID_BINARY (not SPIR-V the
/// reader accepts), PROGRAM_BUILD_FAILURE (anything else the helper refused or died of),
/// OUT_OF_HOST_MEMORY, OUT_OF_RESOURCES (no temporary folder or process).
ur_result_t cuda_spirv_translate(const cuda_spirv_request_t *req, char **ptx, size_t *ptx_size,
                                 char **log);

/// The target for a device of compute capability major.minor: sm_80 PTX (the newest the
/// translation needs, and loadable by every later GPU), or the device's own when older.
unsigned cuda_spirv_target(int cc_major, int cc_minor);

#endif // URC_CUDA_SPIRV_H
