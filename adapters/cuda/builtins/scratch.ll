; SPDX-License-Identifier: MIT
; The shared-memory array work-group collectives exchange partial results through: one 64-bit
; slot per sub-group (32 warps of a 1024-work-item group). OpenCL C cannot declare local memory
; outside a kernel, so it lives here.
target datalayout = "e-i64:64-i128:128-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@urc_wg_scratch_slots = internal addrspace(3) global [32 x i64] undef, align 8

define i64 addrspace(3)* @urc_wg_scratch() alwaysinline {
  ret i64 addrspace(3)* getelementptr inbounds ([32 x i64], [32 x i64] addrspace(3)* @urc_wg_scratch_slots, i64 0, i64 0)
}
