// SPDX-License-Identifier: MIT
// The one C++ piece of the SPIR-V → PTX helper: the SPIRV-LLVM-Translator offers its reader
// only as C++. Everything after the reader works on the module through the LLVM C API.
#include "reader.h"

#include <LLVMSPIRVLib/LLVMSPIRVLib.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/Support/CBindingWrapping.h>

#include <cstring>
#include <sstream>
#include <string>

extern "C" int urc_spirv_read(LLVMContextRef context, const char *data, size_t size,
                              const uint32_t *spec_ids, const uint64_t *spec_values,
                              size_t spec_count, LLVMModuleRef *out, char **error) {
    *out = nullptr;
    *error = nullptr;
    // The OpenCL 2.0 representation keeps the order and scope of C11 atomics and names
    // builtins as OpenCL C does (libclc's names); 1.2 drops them, the SPIR-V friendly form
    // names __spirv_* functions only Intel's libspirv has.
    SPIRV::TranslatorOpts opts(SPIRV::VersionNumber::MaximumVersion);
    opts.enableAllExtensions();
    opts.setDesiredBIsRepresentation(SPIRV::BIsRepresentation::OpenCL20);
    for (size_t i = 0; i < spec_count; ++i)
        opts.setSpecConst(spec_ids[i], spec_values[i]);
    std::istringstream in(std::string(data, size));
    llvm::Module *module = nullptr;
    std::string message;
    bool ok = llvm::readSpirv(*llvm::unwrap(context), opts, in, module, message);
    if (!ok || module == nullptr) {
        delete module;
        if (message.empty())
            message = "the SPIR-V reader rejected the module";
        *error = static_cast<char *>(malloc(message.size() + 1));
        if (*error != nullptr)
            memcpy(*error, message.c_str(), message.size() + 1);
        return 0;
    }
    *out = llvm::wrap(module);
    return 1;
}
