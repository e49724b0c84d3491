// SPDX-License-Identifier: MIT
// urc-spirv-ptx: SPIR-V → PTX for the CUDA adapter, run as a helper process.
//
//   urc-spirv-ptx [--sm N] [--libclc FILE] [--builtins FILE] [--spec ID=VALUE]... [--library]
//                 [--no-contract] [--long-shared-ptr] [--times] IN.spv OUT.ptx
//   urc-spirv-ptx --version
//
// The chain: the translator's reader (OpenCL 2.0 form) → retarget to nvptx64-nvidia-cuda
// (address spaces, casts, calling conventions, kernel wrappers for global offsets and local
// arguments, nvvm.annotations) → link our builtins and libclc → internalize → O3 → PTX.
//
// Why a process of its own: LLVM and the translator end the process on some invalid input
// (report_fatal_error, failed assertions in the translator's library); here that ends only this
// helper, and the adapter reports its stderr as the build log. Exit status: 0 PTX written,
// 2 the module is not valid SPIR-V or the reader rejected it, 3 the module read but could not
// be built, 1 usage or I/O; a fatal LLVM error exits 3 after naming the stage.
#include <errno.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <llvm-c/Analysis.h>
#include <llvm-c/BitReader.h>
#include <llvm-c/Core.h>
#include <llvm-c/ErrorHandling.h>
#include <llvm-c/IRReader.h>
#include <llvm-c/Linker.h>
#include <llvm-c/Support.h>
#include <llvm-c/Target.h>
#include <llvm-c/TargetMachine.h>
#include <llvm-c/Transforms/PassBuilder.h>
#include <llvm/Config/llvm-config.h>

#include "program/spirv_scan.h"
#include "reader.h"

#define EXIT_USAGE   1
#define EXIT_INVALID 2
#define EXIT_BUILD   3

#define NVPTX_TRIPLE "nvptx64-nvidia-cuda"
#define NVPTX_LAYOUT "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
// With -nvptx-short-ptr: shared (3), constant (4) and local (5) pointers are 32-bit, as nvcc
// makes them; shared-memory addressing takes one register instead of two.
#define NVPTX_LAYOUT_SHORT "e-p3:32:32-p4:32:32-p5:32:32-i64:64-i128:128-v16:16-v32:32-n16:32:64"

// The data layout chosen for the module and the libraries linked into it.
static const char *layout = NVPTX_LAYOUT;

// SPIR calling conventions (llvm/IR/CallingConv.h).
#define CC_SPIR_FUNC   75
#define CC_SPIR_KERNEL 76

// The stage named by a fatal error or a crash, for the build log.
static const char *volatile stage = "start";

// --times: how long each stage took, on stderr (to see where a translation's time goes).
static bool show_times;
static double stage_began;

static double now_ms(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

static void enter_stage(const char *next) {
    double t = now_ms();
    if (show_times)
        fprintf(stderr, "urc-spirv-ptx: %8.1f ms %s\n", t - stage_began, stage);
    stage_began = t;
    stage = next;
}

static void write_str(const char *s) {
    ssize_t r = write(STDERR_FILENO, s, strlen(s));
    (void)r;
}

static void on_fatal(const char *reason) {
    write_str("urc-spirv-ptx: LLVM fatal error while ");
    write_str(stage);
    write_str(": ");
    write_str(reason);
    write_str("\n");
    _exit(EXIT_BUILD);
}

static void on_signal(int sig) {
    write_str("urc-spirv-ptx: ");
    write_str(sig == SIGABRT ? "aborted" : "crashed");
    write_str(" while ");
    write_str(stage);
    write_str("\n");
    signal(sig, SIG_DFL);
    raise(sig);
}

static int failf(int code, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int failf(int code, const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    fputs("urc-spirv-ptx: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return code;
}

static char *read_file(const char *path, size_t *size) {
    FILE *f = fopen(path, "rb");
    if (f == NULL)
        return NULL;
    char *buf = NULL;
    size_t used = 0, cap = 0;
    for (;;) {
        if (used == cap) {
            cap = cap ? cap * 2 : 65536;
            char *n = realloc(buf, cap);
            if (n == NULL) {
                free(buf);
                fclose(f);
                return NULL;
            }
            buf = n;
        }
        size_t got = fread(buf + used, 1, cap - used, f);
        used += got;
        if (got == 0)
            break;
    }
    bool bad = ferror(f);
    fclose(f);
    if (bad) {
        free(buf);
        return NULL;
    }
    *size = used;
    return buf;
}

// ---- text retargeting ----

typedef struct text_t {
    char *s;
    size_t len, cap;
} text_t;

static bool put_n(text_t *t, const char *s, size_t n) {
    if (t->len + n + 1 > t->cap) {
        size_t cap = t->cap ? t->cap : 1 << 20;
        while (t->len + n + 1 > cap)
            cap *= 2;
        char *p = realloc(t->s, cap);
        if (p == NULL)
            return false;
        t->s = p;
        t->cap = cap;
    }
    memcpy(t->s + t->len, s, n);
    t->len += n;
    t->s[t->len] = '\0';
    return true;
}

// SPIR's address spaces on NVPTX: private 0 and generic 4 both become NVPTX's 0 (generic, where
// allocas live); global 1 and local 3 stay. Constant 2 becomes global too: a constant kernel
// argument holds a device allocation's address, which NVPTX's constant space (CUDA's constant
// bank) does not reach, and program-scope constants are read-only globals just as well.
static int map_as(int as) {
    return as == 4 ? 0 : as == 2 ? 1 : as;
}

static bool is_ident_char(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '$' || c == '-';
}

// Whether the line declares a function already declared (an intrinsic whose address-space
// suffixes now coincide with another's).
typedef struct names_t {
    char **v;
    size_t n, cap;
} names_t;

static bool names_add(names_t *s, const char *name, size_t len, bool *dup) {
    for (size_t i = 0; i < s->n; ++i)
        if (strlen(s->v[i]) == len && memcmp(s->v[i], name, len) == 0) {
            *dup = true;
            return true;
        }
    *dup = false;
    if (s->n == s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 64;
        char **v = realloc(s->v, cap * sizeof *v);
        if (v == NULL)
            return false;
        s->v = v;
        s->cap = cap;
    }
    char *c = malloc(len + 1);
    if (c == NULL)
        return false;
    memcpy(c, name, len);
    c[len] = '\0';
    s->v[s->n++] = c;
    return true;
}

static void names_free(names_t *s) {
    for (size_t i = 0; i < s->n; ++i)
        free(s->v[i]);
    free(s->v);
}

// Rewrites one line of textual IR: address-space numbers, intrinsic suffixes, triple, layout.
static bool rewrite_line(text_t *out, const char *line, size_t n) {
    if (n >= 15 && strncmp(line, "target triple =", 15) == 0)
        return put_n(out, "target triple = \"" NVPTX_TRIPLE "\"", 37);
    if (n >= 19 && strncmp(line, "target datalayout =", 19) == 0)
        return put_n(out, "target datalayout = \"", 21) && put_n(out, layout, strlen(layout)) &&
               put_n(out, "\"", 1);
    size_t i = 0;
    while (i < n) {
        if (n - i > 11 && memcmp(line + i, " addrspace(", 11) == 0) {
            size_t j = i + 11;
            int as = 0;
            while (j < n && line[j] >= '0' && line[j] <= '9')
                as = as * 10 + (line[j++] - '0');
            if (j < n && line[j] == ')' && j > i + 11) {
                int m = map_as(as);
                if (m != 0) {
                    char buf[32];
                    int k = snprintf(buf, sizeof buf, " addrspace(%d)", m);
                    if (!put_n(out, buf, (size_t)k))
                        return false;
                }
                i = j + 1;
                continue;
            }
        }
        // Intrinsic names carry pointer address spaces as ".p<N>" suffixes.
        if (line[i] == '@' && n - i > 6 &&
            (memcmp(line + i, "@llvm.", 6) == 0 || memcmp(line + i, "@\"llvm.", 7) == 0)) {
            size_t j = i + 1;
            while (j < n && (is_ident_char(line[j]) || line[j] == '"'))
                ++j;
            for (size_t k = i; k < j; ++k) {
                if (line[k] == '.' && k + 2 < j && line[k + 1] == 'p' && line[k + 2] >= '0' &&
                    line[k + 2] <= '9') {
                    size_t e = k + 2;
                    int as = 0;
                    while (e < j && line[e] >= '0' && line[e] <= '9')
                        as = as * 10 + (line[e++] - '0');
                    char buf[32];
                    int w = snprintf(buf, sizeof buf, ".p%d", map_as(as));
                    if (!put_n(out, buf, (size_t)w))
                        return false;
                    k = e - 1;
                    continue;
                }
                if (!put_n(out, line + k, 1))
                    return false;
            }
            i = j;
            continue;
        }
        if (!put_n(out, line + i, 1))
            return false;
        ++i;
    }
    return true;
}

static char *retarget_text(const char *in, size_t *out_len) {
    text_t out = {0};
    names_t declared = {0};
    text_t line = {0};
    const char *p = in;
    bool ok = true;
    while (ok && *p != '\0') {
        const char *e = strchr(p, '\n');
        size_t n = e != NULL ? (size_t)(e - p) : strlen(p);
        line.len = 0;
        ok = rewrite_line(&line, p, n) && put_n(&line, "\n", 1);
        if (ok && line.len > 8 && strncmp(line.s, "declare ", 8) == 0) {
            const char *at = strchr(line.s, '@');
            const char *paren = at != NULL ? strchr(at, '(') : NULL;
            bool dup = false;
            if (at != NULL && paren != NULL)
                ok = names_add(&declared, at, (size_t)(paren - at), &dup);
            if (dup) {
                p = e != NULL ? e + 1 : p + n;
                continue;
            }
        }
        if (ok)
            ok = put_n(&out, line.s, line.len);
        p = e != NULL ? e + 1 : p + n;
    }
    free(line.s);
    names_free(&declared);
    if (!ok) {
        free(out.s);
        return NULL;
    }
    *out_len = out.len;
    return out.s;
}

// ---- IR helpers ----

static unsigned attr_kind(const char *name) {
    return LLVMGetEnumAttributeKindForName(name, strlen(name));
}

static unsigned pointer_as(LLVMTypeRef t) {
    return LLVMGetTypeKind(t) == LLVMPointerTypeKind ? LLVMGetPointerAddressSpace(t) : ~0u;
}

// addrspacecasts between SPIR's private (0) and generic (4) become no-ops on NVPTX, where both
// are 0; an addrspacecast between equal spaces is invalid IR, so they become
// ptrtoint+inttoptr before the renumbering (instcombine folds the pair away).
static void neutralize_casts(LLVMModuleRef m) {
    LLVMTypeRef i64 = LLVMInt64TypeInContext(LLVMGetModuleContext(m));
    LLVMBuilderRef b = LLVMCreateBuilderInContext(LLVMGetModuleContext(m));
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb != NULL;
             bb = LLVMGetNextBasicBlock(bb)) {
            LLVMValueRef ins = LLVMGetFirstInstruction(bb);
            while (ins != NULL) {
                LLVMValueRef next = LLVMGetNextInstruction(ins);
                if (LLVMGetInstructionOpcode(ins) == LLVMAddrSpaceCast) {
                    LLVMTypeRef to = LLVMTypeOf(ins);
                    LLVMTypeRef from = LLVMTypeOf(LLVMGetOperand(ins, 0));
                    if (LLVMGetTypeKind(to) == LLVMPointerTypeKind &&
                        map_as((int)pointer_as(from)) == map_as((int)pointer_as(to))) {
                        LLVMPositionBuilderBefore(b, ins);
                        LLVMValueRef n = LLVMBuildPtrToInt(b, LLVMGetOperand(ins, 0), i64, "");
                        LLVMValueRef c = LLVMBuildIntToPtr(b, n, to, "");
                        LLVMReplaceAllUsesWith(ins, c);
                        LLVMInstructionEraseFromParent(ins);
                    }
                }
                ins = next;
            }
        }
    LLVMDisposeBuilder(b);
}

// ---- kernels ----

typedef struct kernel_t {
    char *name;
    bool wrapped;
} kernel_t;

// Definitions the wrappers use; linked in before the wrappers are made.
static const char support_ir[] =
    "declare i64 @_Z13get_global_idj(i32)\n"
    "define i64 @__urc_global_offset(i32 %d, [3 x i32] %o) alwaysinline {\n"
    "entry:\n"
    "  switch i32 %d, label %none [ i32 0, label %x\n i32 1, label %y\n i32 2, label %z ]\n"
    "x:\n  %a = extractvalue [3 x i32] %o, 0\n  %ax = zext i32 %a to i64\n  ret i64 %ax\n"
    "y:\n  %b = extractvalue [3 x i32] %o, 1\n  %bx = zext i32 %b to i64\n  ret i64 %bx\n"
    "z:\n  %c = extractvalue [3 x i32] %o, 2\n  %cx = zext i32 %c to i64\n  ret i64 %cx\n"
    "none:\n  ret i64 0\n}\n"
    "define i64 @__urc_global_id(i32 %d, [3 x i32] %o) alwaysinline {\n"
    "  %id = call i64 @_Z13get_global_idj(i32 %d)\n"
    "  %off = call i64 @__urc_global_offset(i32 %d, [3 x i32] %o)\n"
    "  %s = add i64 %id, %off\n  ret i64 %s\n}\n"
    // OpControlBarrier reads back as work_group_barrier, which libclc-15 lacks; urc's
    // builtins library (when installed) has the full set and overrides these.
    "declare void @llvm.nvvm.barrier0()\n"
    "define weak void @_Z18work_group_barrierj(i32 %f) {\n"
    "  call void @llvm.nvvm.barrier0()\n  ret void\n}\n"
    "define weak void @_Z18work_group_barrierj12memory_scope(i32 %f, i32 %s) {\n"
    "  call void @llvm.nvvm.barrier0()\n  ret void\n}\n";

// Linked after the wrappers (before, the inliner would fold it into every kernel and the
// wrappers would find no call to redirect): get_global_offset is 0 where no wrapper reached
// the call (a kernel called as a function by another kernel).
static const char offset_fallback_ir[] =
    "define weak i64 @_Z17get_global_offsetj(i32 %d) {\n  ret i64 0\n}\n";

// SYCL's assert reaches __devicelib_assert_fail(expr, file, line, func, gid0..2, lid0..2); on
// CUDA it becomes __assertfail (the PTX system call behind CUDA's assert), so the failure takes
// the CUDA assert path: the device prints the message and the next synchronising call returns
// CUDA_ERROR_ASSERT, which the adapter reports (docs/device-globals-and-assert.md). The body
// is made for the declaration the module has, whatever address space its strings are in;
// urc's builtins library may define it instead.
static void define_assert_fail(LLVMContextRef ctx, LLVMModuleRef m) {
    LLVMValueRef f = LLVMGetNamedFunction(m, "__devicelib_assert_fail");
    if (f == NULL || !LLVMIsDeclaration(f))
        return;
    LLVMTypeRef fty = LLVMGlobalGetValueType(f);
    unsigned n = LLVMCountParamTypes(fty);
    if (n < 4)
        return;
    LLVMTypeRef ptr = LLVMPointerTypeInContext(ctx, 0), i32 = LLVMInt32TypeInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx);
    LLVMTypeRef params[5] = {ptr, ptr, i32, ptr, i64};
    LLVMTypeRef aty = LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, 5, 0);
    LLVMValueRef assertfail = LLVMGetNamedFunction(m, "__assertfail");
    if (assertfail == NULL)
        assertfail = LLVMAddFunction(m, "__assertfail", aty);
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, f, "entry"));
    LLVMValueRef args[5];
    const unsigned from[4] = {0, 1, 2, 3};
    for (unsigned i = 0; i < 4; ++i) {
        LLVMValueRef v = LLVMGetParam(f, from[i]);
        LLVMTypeRef t = LLVMTypeOf(v);
        if (i == 2)
            v = LLVMGetTypeKind(t) == LLVMIntegerTypeKind ? LLVMBuildIntCast2(b, v, i32, 1, "")
                                                          : LLVMConstInt(i32, 0, 0);
        else if (LLVMGetTypeKind(t) != LLVMPointerTypeKind)
            v = LLVMConstNull(ptr);
        else if (LLVMGetPointerAddressSpace(t) != 0)
            v = LLVMBuildAddrSpaceCast(b, v, ptr, "");
        args[i] = v;
    }
    args[4] = LLVMConstInt(i64, 1, 0); // character size
    LLVMBuildCall2(b, aty, assertfail, args, 5, "");
    LLVMBuildRetVoid(b);
    LLVMSetLinkage(f, LLVMWeakAnyLinkage);
    LLVMDisposeBuilder(b);
}

static bool link_text(LLVMContextRef ctx, LLVMModuleRef m, const char *ir, const char *what) {
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRangeCopy(ir, strlen(ir), what);
    LLVMModuleRef lib = NULL;
    char *msg = NULL;
    if (LLVMParseIRInContext(ctx, buf, &lib, &msg)) {
        failf(0, "%s: %s", what, msg != NULL ? msg : "parse error");
        LLVMDisposeMessage(msg);
        return false;
    }
    LLVMSetTarget(lib, NVPTX_TRIPLE);
    LLVMSetDataLayout(lib, layout);
    return !LLVMLinkModules2(m, lib);
}

static bool calls_any(LLVMValueRef f, LLVMValueRef a, LLVMValueRef b) {
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb != NULL;
         bb = LLVMGetNextBasicBlock(bb))
        for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i != NULL; i = LLVMGetNextInstruction(i))
            if (LLVMGetInstructionOpcode(i) == LLVMCall) {
                LLVMValueRef callee = LLVMGetCalledValue(i);
                if (callee != NULL && (callee == a || callee == b))
                    return true;
            }
    return false;
}

// Replaces, in f, calls of `from` by calls of `to`(same first argument, extra `offset`).
static void redirect_calls(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef from, LLVMValueRef to,
                           LLVMValueRef offset) {
    if (from == NULL)
        return;
    LLVMTypeRef ty = LLVMGlobalGetValueType(to);
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb != NULL;
         bb = LLVMGetNextBasicBlock(bb)) {
        LLVMValueRef i = LLVMGetFirstInstruction(bb);
        while (i != NULL) {
            LLVMValueRef next = LLVMGetNextInstruction(i);
            if (LLVMGetInstructionOpcode(i) == LLVMCall && LLVMGetCalledValue(i) == from &&
                LLVMGetNumArgOperands(i) == 1) {
                LLVMPositionBuilderBefore(b, i);
                LLVMValueRef args[2] = {LLVMGetOperand(i, 0), offset};
                LLVMValueRef c = LLVMBuildCall2(b, ty, to, args, 2, "");
                if (LLVMTypeOf(c) == LLVMTypeOf(i)) {
                    LLVMReplaceAllUsesWith(i, c);
                    LLVMInstructionEraseFromParent(i);
                } else {
                    LLVMInstructionEraseFromParent(c);
                }
            }
            i = next;
        }
    }
}

static void copy_param_attrs(LLVMValueRef from, unsigned from_index, LLVMValueRef to,
                             unsigned to_index) {
    unsigned n = LLVMGetAttributeCountAtIndex(from, from_index);
    if (n == 0)
        return;
    LLVMAttributeRef *attrs = calloc(n, sizeof *attrs);
    if (attrs == NULL)
        return;
    LLVMGetAttributesAtIndex(from, from_index, attrs);
    for (unsigned i = 0; i < n; ++i)
        LLVMAddAttributeAtIndex(to, to_index, attrs[i]);
    free(attrs);
}

static void annotate_kernel(LLVMContextRef ctx, LLVMModuleRef m, LLVMValueRef f) {
    LLVMMetadataRef ops[3] = {
        LLVMValueAsMetadata(f),
        LLVMMDStringInContext2(ctx, "kernel", 6),
        LLVMValueAsMetadata(LLVMConstInt(LLVMInt32TypeInContext(ctx), 1, 0)),
    };
    LLVMAddNamedMetadataOperand(m, "nvvm.annotations",
                                LLVMMetadataAsValue(ctx, LLVMMDNodeInContext2(ctx, ops, 3)));
}

// Makes `name` (and `name_with_offset` when the kernel reads the global offset) a kernel that
// calls the original body. Local-memory pointer parameters become 8-byte offsets into the
// launch's dynamic shared memory (the CUDA adapter's convention for urKernelSetArgLocal);
// the offset variant takes the global offset as a trailing [3 x i32] by value, as DPC++'s
// "<name>_with_offset" kernels do, and the adapter picks it when a launch has an offset.
static void wrap_kernel(LLVMContextRef ctx, LLVMModuleRef m, LLVMValueRef k, const char *name,
                        bool offset_used) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(ctx);
    LLVMTypeRef i64 = LLVMInt64TypeInContext(ctx), i8 = LLVMInt8TypeInContext(ctx);
    LLVMTypeRef off_ty = LLVMArrayType(LLVMInt32TypeInContext(ctx), 3);
    LLVMTypeRef fty = LLVMGlobalGetValueType(k);
    unsigned n = LLVMCountParamTypes(fty);
    LLVMTypeRef *params = calloc(n + 1, sizeof *params);
    LLVMTypeRef *outer = calloc(n + 1, sizeof *outer);
    LLVMValueRef *args = calloc(n + 1, sizeof *args);
    if (params == NULL || outer == NULL || args == NULL)
        goto out;
    LLVMGetParamTypes(fty, params);
    params[n] = off_ty;

    // The body: the kernel's blocks, moved into a function that also takes the offset.
    char *body_name = malloc(strlen(name) + 16);
    if (body_name == NULL)
        goto out;
    sprintf(body_name, "%s.urc.body", name);
    LLVMValueRef body = LLVMAddFunction(
        m, body_name, LLVMFunctionType(LLVMVoidTypeInContext(ctx), params, n + 1, 0));
    free(body_name);
    LLVMSetLinkage(body, LLVMInternalLinkage);
    LLVMAddAttributeAtIndex(body, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(ctx, attr_kind("alwaysinline"), 0));
    LLVMBasicBlockRef bb;
    while ((bb = LLVMGetFirstBasicBlock(k)) != NULL) {
        LLVMRemoveBasicBlockFromParent(bb);
        LLVMAppendExistingBasicBlock(body, bb);
    }
    for (unsigned i = 0; i < n; ++i)
        LLVMReplaceAllUsesWith(LLVMGetParam(k, i), LLVMGetParam(body, i));
    LLVMValueRef offset = LLVMGetParam(body, n);
    redirect_calls(b, body, LLVMGetNamedFunction(m, "_Z17get_global_offsetj"),
                   LLVMGetNamedFunction(m, "__urc_global_offset"), offset);
    redirect_calls(b, body, LLVMGetNamedFunction(m, "_Z13get_global_idj"),
                   LLVMGetNamedFunction(m, "__urc_global_id"), offset);

    // The kernel itself, under its name, with local pointers as offsets.
    for (unsigned i = 0; i < n; ++i)
        outer[i] = pointer_as(params[i]) == 3 ? i64 : params[i];
    outer[n] = off_ty;
    LLVMValueRef old = k;
    LLVMSetValueName2(old, "", 0);
    // The launch's dynamic shared memory (extern .shared in PTX), aligned for any argument.
    LLVMValueRef shared = LLVMGetNamedGlobal(m, "__urc_local_mem");
    if (shared == NULL) {
        shared = LLVMAddGlobalInAddressSpace(m, LLVMArrayType(i8, 0), "__urc_local_mem", 3);
        LLVMSetAlignment(shared, 128);
    }
    for (int variant = 0; variant < (offset_used ? 2 : 1); ++variant) {
        char *vname = malloc(strlen(name) + 16);
        if (vname == NULL)
            break;
        sprintf(vname, variant ? "%s_with_offset" : "%s", name);
        LLVMValueRef w = LLVMAddFunction(
            m, vname, LLVMFunctionType(LLVMVoidTypeInContext(ctx), outer, n + variant, 0));
        free(vname);
        for (unsigned i = 0; i < n; ++i)
            if (outer[i] == params[i])
                copy_param_attrs(old, i + 1, w, i + 1);
        LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(ctx, w, "entry"));
        for (unsigned i = 0; i < n; ++i) {
            LLVMValueRef p = LLVMGetParam(w, i);
            if (outer[i] != params[i]) {
                LLVMValueRef base = LLVMBuildBitCast(b, shared, LLVMPointerType(i8, 3), "");
                LLVMValueRef at = LLVMBuildGEP2(b, i8, base, &p, 1, "");
                p = LLVMBuildBitCast(b, at, params[i], "");
            }
            args[i] = p;
        }
        args[n] = variant ? LLVMGetParam(w, n) : LLVMConstNull(off_ty);
        LLVMBuildCall2(b, LLVMGlobalGetValueType(body), body, args, n + 1, "");
        LLVMBuildRetVoid(b);
        annotate_kernel(ctx, m, w);
    }
    if (LLVMGetFirstUse(old) == NULL)
        LLVMDeleteFunction(old);
out:
    free(params);
    free(outer);
    free(args);
    LLVMDisposeBuilder(b);
}

static bool make_inlinable(LLVMContextRef ctx, LLVMModuleRef m, kernel_t *kernels, size_t nk) {
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        bool is_kernel = false;
        size_t len = 0;
        const char *fname = LLVMGetValueName2(f, &len);
        for (size_t i = 0; i < nk && !is_kernel; ++i)
            is_kernel = strcmp(kernels[i].name, fname) == 0;
        if (is_kernel)
            continue;
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, attr_kind("noinline"));
        LLVMRemoveEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, attr_kind("optnone"));
        LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                                LLVMCreateEnumAttribute(ctx, attr_kind("alwaysinline"), 0));
    }
    return true;
}

// Calls of generic-pointer builtins (mangled with U3AS4) that urc's builtins do not define go
// to libclc's overload for NVPTX's address space 0, which is generic there: the same name
// without the qualifier. Done before libclc joins, since its definitions are linkonce_odr and
// linked only where referenced.
static void resolve_generic_builtins(LLVMModuleRef m) {
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f)) {
        if (!LLVMIsDeclaration(f) || LLVMGetFirstUse(f) == NULL)
            continue;
        size_t len = 0;
        const char *name = LLVMGetValueName2(f, &len);
        if (strstr(name, "U3AS4") == NULL)
            continue;
        char *plain = malloc(len + 1);
        if (plain == NULL)
            continue;
        size_t o = 0;
        for (size_t i = 0; i < len; ++i) {
            if (strncmp(name + i, "U3AS4", 5) == 0) {
                i += 4;
                continue;
            }
            plain[o++] = name[i];
        }
        plain[o] = '\0';
        LLVMValueRef other = LLVMGetNamedFunction(m, plain);
        if (other == NULL)
            other = LLVMAddFunction(m, plain, LLVMGlobalGetValueType(f));
        free(plain);
        LLVMReplaceAllUsesWith(f, other);
    }
}

// Links a bitcode library, reading only what the module uses. The library is opened lazily:
// a function's body is read when the linker first needs it, so of libclc's 8 MB only the few
// builtins a kernel calls are parsed (parsing it all was most of a translation's time).
// A library definition the module does not define already becomes linkonce_odr, linked only
// where referenced; one the module defines weakly (urc's support code) keeps its linkage and
// overrides it, as a strong definition should.
static bool link_bitcode(LLVMContextRef ctx, LLVMModuleRef m, const char *path) {
    LLVMMemoryBufferRef buf = NULL;
    char *msg = NULL;
    if (LLVMCreateMemoryBufferWithContentsOfFile(path, &buf, &msg)) {
        failf(0, "cannot read %s: %s", path, msg != NULL ? msg : "");
        LLVMDisposeMessage(msg);
        return false;
    }
    LLVMModuleRef lib = NULL;
    if (LLVMGetBitcodeModuleInContext2(ctx, buf, &lib)) {
        LLVMDisposeMemoryBuffer(buf); // owned by the module only when it was read
        failf(0, "%s is not LLVM bitcode this LLVM reads", path);
        return false;
    }
    LLVMSetTarget(lib, NVPTX_TRIPLE);
    LLVMSetDataLayout(lib, layout);
    for (LLVMValueRef f = LLVMGetFirstFunction(lib); f != NULL; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f) || LLVMGetLinkage(f) != LLVMExternalLinkage)
            continue;
        size_t len = 0;
        LLVMValueRef mine = LLVMGetNamedFunction(m, LLVMGetValueName2(f, &len));
        if (mine == NULL || LLVMIsDeclaration(mine))
            LLVMSetLinkage(f, LLVMLinkOnceODRLinkage);
    }
    if (LLVMLinkModules2(m, lib)) {
        failf(0, "linking %s failed", path);
        return false;
    }
    return true;
}

typedef struct opts_t {
    unsigned sm;
    const char *libclc, *builtins, *in, *out;
    bool library, no_contract, long_ptr;
    size_t nspec;
    uint32_t spec_ids[256];
    uint64_t spec_values[256];
} opts_t;

// ---- device globals (SPV_INTEL_global_variable_host_access) ----

// Translator 15 refuses the extension (and exits), so its capability, extension and
// HostAccessINTEL decorations are taken out before reading; each decorated variable is then
// given its host-access name, the unique id urEnqueueDeviceGlobalVariableRead/Write look up
// (cuModuleGetGlobal on the PTX), as OpenCL and Level Zero find it.
enum {
    SPV_OP_NAME = 5,
    SPV_OP_EXTENSION = 10,
    SPV_OP_CAPABILITY = 17,
    SPV_OP_DECORATE = 71,
    SPV_CAP_HOST_ACCESS = 6187,
    SPV_DEC_HOST_ACCESS = 6188,
};

typedef struct host_name_t {
    uint32_t id;
    char *unique; // the decoration's name
    char *name;   // OpName of the variable, or NULL
} host_name_t;

typedef struct host_names_t {
    host_name_t *v;
    size_t n;
} host_names_t;

static char *word_string(const uint32_t *w, size_t count) {
    size_t room = count * 4;
    size_t len = strnlen((const char *)w, room);
    if (len == room)
        return NULL;
    return strdup((const char *)w);
}

// Rewrites `w` (host order, *n words) in place; false when out of memory.
static bool strip_host_access(uint32_t *w, size_t *n, host_names_t *out) {
    size_t to = 5;
    for (size_t i = 5; i < *n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || count > *n - i)
            return true; // the scan refused such modules already
        bool drop = false;
        if (op == SPV_OP_CAPABILITY && count == 2 && w[i + 1] == SPV_CAP_HOST_ACCESS) {
            drop = true;
        } else if (op == SPV_OP_EXTENSION && count >= 2) {
            char *name = word_string(w + i + 1, count - 1);
            drop = name != NULL && strcmp(name, "SPV_INTEL_global_variable_host_access") == 0;
            free(name);
        } else if (op == SPV_OP_DECORATE && count >= 5 && w[i + 2] == SPV_DEC_HOST_ACCESS) {
            host_name_t *v = realloc(out->v, (out->n + 1) * sizeof *v);
            if (v == NULL)
                return false;
            out->v = v;
            v[out->n] = (host_name_t){w[i + 1], word_string(w + i + 4, count - 4), NULL};
            if (v[out->n].unique != NULL)
                ++out->n;
            drop = true;
        }
        if (!drop) {
            memmove(w + to, w + i, (size_t)count * 4);
            to += count;
        }
        i += count;
    }
    *n = to;
    // The variables' names, to find them in the module.
    for (size_t i = 5; i < *n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (op == SPV_OP_NAME && count >= 3)
            for (size_t k = 0; k < out->n; ++k)
                if (out->v[k].id == w[i + 1] && out->v[k].name == NULL)
                    out->v[k].name = word_string(w + i + 2, count - 2);
        i += count;
    }
    return true;
}

static void name_host_globals(LLVMModuleRef m, const host_names_t *h) {
    for (size_t i = 0; i < h->n; ++i) {
        LLVMValueRef g = LLVMGetNamedGlobal(m, h->v[i].unique);
        if (g == NULL && h->v[i].name != NULL)
            g = LLVMGetNamedGlobal(m, h->v[i].name);
        if (g == NULL)
            continue;
        LLVMSetValueName2(g, h->v[i].unique, strlen(h->v[i].unique));
        if (LLVMGetLinkage(g) == LLVMInternalLinkage || LLVMGetLinkage(g) == LLVMPrivateLinkage)
            LLVMSetLinkage(g, LLVMExternalLinkage);
    }
}

static void host_names_free(host_names_t *h) {
    for (size_t i = 0; i < h->n; ++i) {
        free(h->v[i].unique);
        free(h->v[i].name);
    }
    free(h->v);
}

// ---- built-in variables read through access chains ----

// Translator 15's reader turns each built-in variable (GlobalInvocationId, GlobalOffset, …) into
// calls of the matching builtin and understands a load of the whole vector, but aborts
// ("Unexpected pattern", SPIRVUtil.cpp) on a load through an access chain into it, the form
// newer producers emit (dpctl's raw-arg-kernel.spv, work-group-memory-kernel.spv). Each such
// chain whose only uses are loads becomes a load of the whole vector, and each load through it
// an extraction of the component: the same value, in the form the reader knows.
enum {
    SPV_OP_TYPE_VECTOR = 23,
    SPV_OP_TYPE_POINTER = 32,
    SPV_OP_CONSTANT = 43,
    SPV_OP_VARIABLE = 59,
    SPV_OP_LOAD = 61,
    SPV_OP_ACCESS_CHAIN = 65,
    SPV_OP_IN_BOUNDS_ACCESS_CHAIN = 66,
    SPV_OP_PTR_ACCESS_CHAIN = 67,
    SPV_OP_IN_BOUNDS_PTR_ACCESS_CHAIN = 70,
    SPV_OP_COMPOSITE_EXTRACT = 81,
    SPV_OP_VECTOR_EXTRACT_DYNAMIC = 77,
    SPV_DEC_BUILTIN = 11,
};

// What the rewrite knows of one id.
typedef struct spv_id_t {
    uint32_t uses;       // operand words naming it, OpName aside
    uint32_t load_uses;  // loads through it
    uint32_t vec_type;   // a built-in vector variable: its vector type; a chain: the vector type
    uint32_t base;       // a chain: the variable
    uint32_t index;      // a chain: the component's id
    uint32_t value;      // a 32-bit (or small 64-bit) integer constant's value
    uint8_t is_builtin;  // decorated BuiltIn
    uint8_t is_constant; // value is set
    uint8_t is_chain;    // a candidate chain
    uint8_t components;  // a vector type: its component count
} spv_id_t;

static bool is_chain_op(uint32_t op) {
    return op == SPV_OP_ACCESS_CHAIN || op == SPV_OP_IN_BOUNDS_ACCESS_CHAIN ||
           op == SPV_OP_PTR_ACCESS_CHAIN || op == SPV_OP_IN_BOUNDS_PTR_ACCESS_CHAIN;
}

// How many operand words of an instruction may name ids, for counting uses. Literals that
// happen to equal an id (a BuiltIn number, an alignment) would count as uses and stop a
// rewrite, so the instructions whose trailing words are literals count only their ids.
static uint32_t spv_id_words(uint32_t op, uint32_t count) {
    switch (op) {
    case SPV_OP_NAME:
    case 6: // OpMemberName
    case 3: // OpSource
    case 4: // OpSourceExtension
    case 7: // OpString
    case SPV_OP_EXTENSION:
    case 11: // OpExtInstImport
    case 14: // OpMemoryModel
    case SPV_OP_CAPABILITY:
    case 330: // OpModuleProcessed
        return 0;
    case SPV_OP_DECORATE:
    case 72: // OpMemberDecorate
    case 16: // OpExecutionMode
        return 1;
    case SPV_OP_CONSTANT:
    case 62: // OpStore
        return 2;
    case SPV_OP_LOAD:
        return count > 4 ? 3 : count - 1;
    default:
        return count - 1;
    }
}

// Rewrites `*w` (host order, *n words); on success *w may be a new allocation. false when out
// of memory; a module without the pattern is left as it is.
static bool simplify_builtin_chains(uint32_t **w_io, size_t *n_io) {
    uint32_t *w = *w_io;
    size_t n = *n_io;
    uint32_t bound = n > 3 ? w[3] : 0;
    if (bound == 0 || bound > (1u << 24))
        return true;
    spv_id_t *ids = calloc(bound, sizeof *ids);
    uint32_t *pointee = calloc(bound, sizeof *pointee);
    if (ids == NULL || pointee == NULL) {
        free(ids);
        free(pointee);
        return false;
    }
#define SPV_ID_OK(x) ((x) != 0 && (x) < bound)
    // First pass: built-ins, types, constants, and how every id is used.
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || count > n - i)
            break;
        const uint32_t *a = w + i + 1;
        if (op == SPV_OP_DECORATE && count >= 3 && a[1] == SPV_DEC_BUILTIN && SPV_ID_OK(a[0]))
            ids[a[0]].is_builtin = 1;
        else if (op == SPV_OP_TYPE_POINTER && count == 4 && SPV_ID_OK(a[0]))
            pointee[a[0]] = a[2];
        else if (op == SPV_OP_TYPE_VECTOR && count == 4 && SPV_ID_OK(a[0]))
            ids[a[0]].components = a[2] <= 16 ? (uint8_t)a[2] : 0;
        else if (op == SPV_OP_CONSTANT && (count == 4 || (count == 5 && a[3] == 0)) &&
                 SPV_ID_OK(a[1])) {
            ids[a[1]].is_constant = 1;
            ids[a[1]].value = a[2];
        } else if (op == SPV_OP_LOAD && count >= 4 && SPV_ID_OK(a[2]))
            ids[a[2]].load_uses++;
        for (uint32_t k = 0; k < spv_id_words(op, count); ++k)
            if (SPV_ID_OK(a[k]))
                ids[a[k]].uses++;
        i += count;
    }
    // Second pass: the chains into built-in vectors that only loads use. A chain names its
    // result (1), its variable and indices; each load names it once more.
    size_t extra = 0, found = 0;
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || count > n - i)
            break;
        const uint32_t *a = w + i + 1;
        if (op == SPV_OP_VARIABLE && count >= 4 && SPV_ID_OK(a[1]) && SPV_ID_OK(a[0]) &&
            ids[a[1]].is_builtin && SPV_ID_OK(pointee[a[0]]) && ids[pointee[a[0]]].components)
            ids[a[1]].vec_type = pointee[a[0]];
        bool ptr_chain = op == SPV_OP_PTR_ACCESS_CHAIN || op == SPV_OP_IN_BOUNDS_PTR_ACCESS_CHAIN;
        // OpAccessChain: type, result, base, index; the Ptr forms add an element (0) first.
        if (is_chain_op(op) && count == (ptr_chain ? 6u : 5u) && SPV_ID_OK(a[1]) &&
            SPV_ID_OK(a[2]) && ids[a[2]].vec_type != 0 && SPV_ID_OK(a[count - 2])) {
            spv_id_t *c = &ids[a[1]];
            bool element_zero =
                !ptr_chain || (SPV_ID_OK(a[3]) && ids[a[3]].is_constant && ids[a[3]].value == 0);
            if (element_zero && c->load_uses > 0 && c->uses == 1 + c->load_uses) {
                c->is_chain = 1;
                c->base = a[2];
                c->vec_type = ids[a[2]].vec_type;
                c->index = a[count - 2];
                ++found;
                extra += c->load_uses;
            }
        }
        i += count;
    }
    if (found == 0) {
        free(ids);
        free(pointee);
        return true;
    }
    uint32_t *out = malloc((n + extra) * sizeof *out);
    if (out == NULL) {
        free(ids);
        free(pointee);
        return false;
    }
    memcpy(out, w, 5 * sizeof *out);
    size_t to = 5;
    for (size_t i = 5; i < n;) {
        uint32_t count = w[i] >> 16, op = w[i] & 0xffff;
        if (count == 0 || count > n - i) {
            memcpy(out + to, w + i, (n - i) * sizeof *out);
            to += n - i;
            break;
        }
        const uint32_t *a = w + i + 1;
        if (is_chain_op(op) && SPV_ID_OK(a[1]) && ids[a[1]].is_chain) {
            const spv_id_t *c = &ids[a[1]];
            out[to++] = (4u << 16) | SPV_OP_LOAD;
            out[to++] = c->vec_type;
            out[to++] = a[1];
            out[to++] = c->base;
        } else if (op == SPV_OP_LOAD && count >= 4 && SPV_ID_OK(a[2]) && ids[a[2]].is_chain) {
            const spv_id_t *c = &ids[a[2]];
            const spv_id_t *x = &ids[c->index];
            // A constant component is a literal; any other is read at run time.
            if (x->is_constant && x->value < ids[c->vec_type].components)
                out[to++] = (5u << 16) | SPV_OP_COMPOSITE_EXTRACT;
            else
                out[to++] = (5u << 16) | SPV_OP_VECTOR_EXTRACT_DYNAMIC;
            out[to++] = a[0];
            out[to++] = a[1];
            out[to++] = a[2];
            out[to++] =
                x->is_constant && x->value < ids[c->vec_type].components ? x->value : c->index;
        } else {
            memcpy(out + to, w + i, (size_t)count * sizeof *out);
            to += count;
        }
        i += count;
    }
#undef SPV_ID_OK
    free(ids);
    free(pointee);
    free(w);
    *w_io = out;
    *n_io = to;
    return true;
}

// Whether the module must keep 64-bit pointers in NVPTX's shared space (3), which
// -nvptx-short-ptr makes 32-bit: a local pointer inside an aggregate type (struct, array,
// vector) means the producer laid the aggregate out with 8-byte pointers (sizes, offsets, memcpy
// lengths). Read from the module's text (typed pointers); metadata braces count as aggregates
// too: a false alarm only costs the shorter addressing.
static bool needs_long_pointers(const char *text) {
    int depth = 0;
    for (const char *p = text; *p != '\0'; ++p) {
        if (*p == '\n')
            depth = 0;
        else if (*p == '{' || *p == '[' || *p == '<')
            ++depth;
        else if ((*p == '}' || *p == ']' || *p == '>') && depth > 0)
            --depth;
        else if (*p == 'a' && depth > 0 && strncmp(p, "addrspace(3)*", 13) == 0)
            return true;
    }
    return false;
}

static bool is_kernel_name(const kernel_t *k, size_t nk, const char *name) {
    for (size_t i = 0; i < nk; ++i) {
        size_t len = strlen(k[i].name);
        if (strncmp(name, k[i].name, len) == 0 &&
            (name[len] == '\0' || strcmp(name + len, "_with_offset") == 0))
            return true;
    }
    return false;
}

// What one translation holds; whatever path it leaves by, translation_free releases it all (a
// helper that fails still exits clean under the sanitizers).
typedef struct translation_t {
    char *spv; // the module's bytes, then its native-endian words
    host_names_t host;
    LLVMContextRef read_ctx, ctx;
    LLVMModuleRef m; // in read_ctx while it is read, then in ctx
    LLVMTargetMachineRef tm;
    LLVMPassBuilderOptionsRef popts;
    kernel_t *kernels;
    size_t nk;
    names_t own;
} translation_t;

static void translation_free(translation_t *t) {
    free(t->spv);
    host_names_free(&t->host);
    if (t->m != NULL)
        LLVMDisposeModule(t->m);
    if (t->read_ctx != NULL)
        LLVMContextDispose(t->read_ctx);
    if (t->ctx != NULL)
        LLVMContextDispose(t->ctx);
    if (t->tm != NULL)
        LLVMDisposeTargetMachine(t->tm);
    if (t->popts != NULL)
        LLVMDisposePassBuilderOptions(t->popts);
    for (size_t i = 0; i < t->nk; ++i)
        free(t->kernels[i].name);
    free(t->kernels);
    names_free(&t->own);
}

static int translate_into(translation_t *t, const opts_t *o) {
    size_t size = 0;
    char *spv = t->spv = read_file(o->in, &size);
    if (spv == NULL)
        return failf(EXIT_USAGE, "cannot read %s: %s", o->in, strerror(errno));
    enter_stage("checking the module");
    urc_spirv_info_t info;
    char err[256];
    if (!urc_spirv_scan(spv, size, &info, err, sizeof err))
        return failf(EXIT_INVALID, "%s", err);
    bool no_contract = o->no_contract || info.contraction_off;
    urc_spirv_info_free(&info);
    uint32_t *words = urc_spirv_native_words(spv, size);
    if (words == NULL)
        return failf(EXIT_BUILD, "out of memory");
    free(spv);
    t->spv = (char *)words;
    size_t nwords = size / 4;
    bool stripped =
        strip_host_access(words, &nwords, &t->host) && simplify_builtin_chains(&words, &nwords);
    t->spv = spv = (char *)words; // the rewrite may have moved them
    if (!stripped)
        return failf(EXIT_BUILD, "out of memory");
    size = nwords * 4;

    // The reader needs typed pointers; libclc-15's bitcode has opaque ones. The module goes
    // from one context to the other as text, which the retargeting rewrites on the way.
    LLVMContextRef read_ctx = t->read_ctx = LLVMContextCreate();
    LLVMContextSetOpaquePointers(read_ctx, 0);
    LLVMModuleRef m = NULL;
    char *msg = NULL;
    enter_stage("reading SPIR-V");
    if (!urc_spirv_read(read_ctx, spv, size, o->spec_ids, o->spec_values, o->nspec, &m, &msg)) {
        int r = failf(EXIT_INVALID, "the SPIR-V reader rejected the module: %s",
                      msg != NULL ? msg : "");
        free(msg);
        return r;
    }
    t->m = m;
    free(t->spv);
    t->spv = spv = NULL;

    name_host_globals(m, &t->host);
    enter_stage("retargeting to NVPTX");
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f)) {
        unsigned cc = LLVMGetFunctionCallConv(f);
        if (cc == CC_SPIR_KERNEL && !LLVMIsDeclaration(f)) {
            kernel_t *n = realloc(t->kernels, (t->nk + 1) * sizeof *n);
            if (n == NULL)
                return failf(EXIT_BUILD, "out of memory");
            t->kernels = n;
            size_t len;
            n[t->nk].name = strdup(LLVMGetValueName2(f, &len));
            n[t->nk].wrapped = false;
            if (n[t->nk].name == NULL)
                return failf(EXIT_BUILD, "out of memory");
            ++t->nk;
        }
        if (cc == CC_SPIR_KERNEL || cc == CC_SPIR_FUNC)
            LLVMSetFunctionCallConv(f, LLVMCCallConv);
    }
    // Call sites carry the calling convention too.
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f))
        for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb != NULL;
             bb = LLVMGetNextBasicBlock(bb))
            for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i != NULL;
                 i = LLVMGetNextInstruction(i))
                if (LLVMGetInstructionOpcode(i) == LLVMCall)
                    LLVMSetInstructionCallConv(i, LLVMCCallConv);
    neutralize_casts(m);
    char *text = LLVMPrintModuleToString(m);
    bool short_ptr = !o->long_ptr && !needs_long_pointers(text);
    if (short_ptr)
        layout = NVPTX_LAYOUT_SHORT;
    LLVMDisposeModule(m);
    LLVMContextDispose(read_ctx);
    t->m = NULL;
    t->read_ctx = NULL;
    LLVMContextRef ctx = t->ctx = LLVMContextCreate();
    LLVMContextSetOpaquePointers(ctx, 1);
    size_t text_len = 0;
    char *nv = retarget_text(text, &text_len);
    LLVMDisposeMessage(text);
    if (nv == NULL)
        return failf(EXIT_BUILD, "out of memory");
    LLVMMemoryBufferRef buf = LLVMCreateMemoryBufferWithMemoryRange(nv, text_len, "spirv", 0);
    bool parsed = !LLVMParseIRInContext(ctx, buf, &m, &msg);
    free(nv);
    if (!parsed) {
        int r = failf(EXIT_BUILD, "the retargeted module does not parse: %s", msg);
        LLVMDisposeMessage(msg);
        return r;
    }
    t->m = m;

    // Code generation options, read when the target machine is made. Contraction: the module's
    // own mad/fma (OpenCL's, or llvm.fmuladd from its producer) become fma; separate
    // multiplies and adds are never fused here, so a ContractionOff kernel gets no fma it did
    // not ask for; -nvptx-fma-level=0 makes that explicit for such modules.
    const char *argv[3] = {"urc-spirv-ptx"};
    int argc = 1;
    if (short_ptr)
        argv[argc++] = "-nvptx-short-ptr";
    if (no_contract)
        argv[argc++] = "-nvptx-fma-level=0";
    if (argc > 1)
        LLVMParseCommandLineOptions(argc, argv, NULL);
    LLVMInitializeNVPTXTargetInfo();
    LLVMInitializeNVPTXTarget();
    LLVMInitializeNVPTXTargetMC();
    LLVMInitializeNVPTXAsmPrinter();
    LLVMTargetRef target;
    if (LLVMGetTargetFromTriple(NVPTX_TRIPLE, &target, &msg))
        return failf(EXIT_BUILD, "no NVPTX target: %s", msg);
    char cpu[16];
    snprintf(cpu, sizeof cpu, "sm_%u", o->sm);
    LLVMTargetMachineRef tm = t->tm =
        LLVMCreateTargetMachine(target, NVPTX_TRIPLE, cpu, "", LLVMCodeGenLevelAggressive,
                                LLVMRelocPIC, LLVMCodeModelDefault);
    LLVMPassBuilderOptionsRef popts = t->popts = LLVMCreatePassBuilderOptions();

    // What the module itself defines, before urc's support code and the libraries join: kept
    // external in library mode (a compile for a later link), where everything else is not.
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f)) {
        bool dup;
        size_t len;
        const char *fname = LLVMGetValueName2(f, &len);
        if (!LLVMIsDeclaration(f) && LLVMGetLinkage(f) == LLVMExternalLinkage)
            names_add(&t->own, fname, len, &dup);
    }

    enter_stage("making kernels");
    if (!link_text(ctx, m, support_ir, "urc support"))
        return failf(EXIT_BUILD, "internal support code did not link");
    make_inlinable(ctx, m, t->kernels, t->nk);
    LLVMErrorRef e = LLVMRunPasses(m, "always-inline", tm, popts);
    if (e != NULL) {
        char *em = LLVMGetErrorMessage(e);
        int r = failf(EXIT_BUILD, "inlining: %s", em);
        LLVMDisposeErrorMessage(em);
        return r;
    }
    LLVMValueRef goff = LLVMGetNamedFunction(m, "_Z17get_global_offsetj");
    LLVMValueRef gid = LLVMGetNamedFunction(m, "_Z13get_global_idj");
    for (size_t i = 0; i < t->nk; ++i) {
        LLVMValueRef k = LLVMGetNamedFunction(m, t->kernels[i].name);
        if (k == NULL)
            continue;
        bool offset_used = calls_any(k, goff, gid);
        bool local_args = false;
        for (LLVMValueRef p = LLVMGetFirstParam(k); p != NULL; p = LLVMGetNextParam(p))
            local_args = local_args || pointer_as(LLVMTypeOf(p)) == 3;
        if ((offset_used || local_args) && LLVMGetFirstUse(k) == NULL) {
            wrap_kernel(ctx, m, k, t->kernels[i].name, offset_used);
            t->kernels[i].wrapped = true;
        } else {
            annotate_kernel(ctx, m, k);
        }
    }

    if (!link_text(ctx, m, offset_fallback_ir, "urc offset fallback"))
        return failf(EXIT_BUILD, "internal support code did not link");

    enter_stage("verifying the retargeted module");
    if (LLVMVerifyModule(m, LLVMReturnStatusAction, &msg)) {
        int r = failf(EXIT_BUILD, "the retargeted module is invalid: %s", msg);
        LLVMDisposeMessage(msg);
        return r;
    }
    LLVMDisposeMessage(msg);

    enter_stage("linking the builtins");
    if (o->builtins != NULL && access(o->builtins, R_OK) == 0 && !link_bitcode(ctx, m, o->builtins))
        return EXIT_BUILD;
    define_assert_fail(ctx, m);
    resolve_generic_builtins(m);
    enter_stage("linking libclc");
    if (!link_bitcode(ctx, m, o->libclc))
        return EXIT_BUILD;

    // Internalize: only kernels (and, for a library, its own external functions) stay visible.
    for (LLVMValueRef f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f)) {
        if (LLVMIsDeclaration(f))
            continue;
        size_t len;
        const char *fname = LLVMGetValueName2(f, &len);
        if (is_kernel_name(t->kernels, t->nk, fname))
            continue;
        bool dup = false;
        if (o->library) {
            for (size_t i = 0; i < t->own.n && !dup; ++i)
                dup = strcmp(t->own.v[i], fname) == 0;
        }
        if (!dup)
            LLVMSetLinkage(f, LLVMInternalLinkage);
    }

    // Undefined functions left over are a build failure the log names (unless a library).
    if (!o->library) {
        int missing = 0;
        for (LLVMValueRef f = LLVMGetFirstFunction(m); f != NULL; f = LLVMGetNextFunction(f)) {
            size_t len;
            const char *fname = LLVMGetValueName2(f, &len);
            if (LLVMIsDeclaration(f) && LLVMGetFirstUse(f) != NULL &&
                strncmp(fname, "llvm.", 5) != 0 && strcmp(fname, "__assertfail") != 0) {
                if (missing++ < 20)
                    failf(0, "undefined function %s", fname);
            }
        }
        if (missing > 0)
            return failf(EXIT_BUILD, "%d function(s) are neither in libclc nor in urc's builtins",
                         missing);
    }

    enter_stage("optimising");
    e = LLVMRunPasses(m, "default<O3>", tm, popts);
    if (e != NULL) {
        char *em = LLVMGetErrorMessage(e);
        int r = failf(EXIT_BUILD, "optimisation: %s", em);
        LLVMDisposeErrorMessage(em);
        return r;
    }
    enter_stage("emitting PTX");
    LLVMMemoryBufferRef ptx = NULL;
    if (LLVMTargetMachineEmitToMemoryBuffer(tm, m, LLVMAssemblyFile, &msg, &ptx)) {
        int r = failf(EXIT_BUILD, "PTX emission: %s", msg);
        LLVMDisposeMessage(msg);
        return r;
    }
    enter_stage("writing and freeing");
    FILE *f = fopen(o->out, "wb");
    if (f == NULL) {
        LLVMDisposeMemoryBuffer(ptx);
        return failf(EXIT_USAGE, "cannot write %s: %s", o->out, strerror(errno));
    }
    size_t len = LLVMGetBufferSize(ptx);
    bool ok = fwrite(LLVMGetBufferStart(ptx), 1, len, f) == len;
    ok = fclose(f) == 0 && ok;
    LLVMDisposeMemoryBuffer(ptx);
    return ok ? 0 : failf(EXIT_USAGE, "cannot write %s", o->out);
}

static int translate(const opts_t *o) {
    translation_t t = {0};
    int r = translate_into(&t, o);
    enter_stage("freeing");
    translation_free(&t);
    enter_stage("done");
    return r;
}

static int usage(void) {
    fputs("usage: urc-spirv-ptx [--sm N] [--libclc FILE] [--builtins FILE] [--spec ID=VALUE]...\n"
          "                     [--library] [--no-contract] [--long-shared-ptr] [--times]\n"
          "                     IN.spv OUT.ptx\n"
          "       urc-spirv-ptx --version\n",
          stderr);
    return EXIT_USAGE;
}

int main(int argc, char **argv) {
    opts_t o = {.sm = 80, .libclc = "/usr/lib/clc/nvptx64--nvidiacl.bc"};
    stage_began = now_ms();
    LLVMInstallFatalErrorHandler(on_fatal);
    signal(SIGABRT, on_signal);
    signal(SIGSEGV, on_signal);
    signal(SIGBUS, on_signal);
    signal(SIGFPE, on_signal);
    const char *pos[2];
    int npos = 0;
    for (int i = 1; i < argc; ++i) {
        const char *a = argv[i];
        bool has_next = i + 1 < argc;
        if (strcmp(a, "--version") == 0) {
            printf("urc-spirv-ptx 1 llvm " LLVM_VERSION_STRING "\n");
            return 0;
        } else if (strcmp(a, "--sm") == 0 && has_next) {
            o.sm = (unsigned)strtoul(argv[++i], NULL, 10);
            if (o.sm < 30 || o.sm > 90)
                return failf(EXIT_USAGE, "--sm %s: between 30 and 90", argv[i]);
        } else if (strcmp(a, "--libclc") == 0 && has_next) {
            o.libclc = argv[++i];
        } else if (strcmp(a, "--builtins") == 0 && has_next) {
            o.builtins = argv[++i];
        } else if (strcmp(a, "--spec") == 0 && has_next) {
            char *end;
            const char *s = argv[++i];
            unsigned long id = strtoul(s, &end, 0);
            if (*end != '=' || o.nspec == 256)
                return failf(EXIT_USAGE, "--spec %s: ID=VALUE (at most 256)", s);
            o.spec_ids[o.nspec] = (uint32_t)id;
            o.spec_values[o.nspec++] = strtoull(end + 1, NULL, 0);
        } else if (strcmp(a, "--library") == 0) {
            o.library = true;
        } else if (strcmp(a, "--long-shared-ptr") == 0) {
            o.long_ptr = true;
        } else if (strcmp(a, "--times") == 0) {
            show_times = true;
        } else if (strcmp(a, "--no-contract") == 0) {
            o.no_contract = true;
        } else if (a[0] == '-' && a[1] != '\0') {
            return usage();
        } else if (npos < 2) {
            pos[npos++] = a;
        } else {
            return usage();
        }
    }
    if (npos != 2)
        return usage();
    o.in = pos[0];
    o.out = pos[1];
    return translate(&o);
}
