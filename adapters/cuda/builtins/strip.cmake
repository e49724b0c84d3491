# SPDX-License-Identifier: MIT
# cmake -DIN=<linked.ll> -DOUT=<stripped.ll> -P strip.cmake
# Drops the target-cpu and target-features attributes: LLVM inlines a callee into a caller only
# when both name the same target, and the translated kernels name none.
file(READ ${IN} text)
string(REGEX REPLACE " \"target-cpu\"=\"[^\"]*\"" "" text "${text}")
string(REGEX REPLACE " \"target-features\"=\"[^\"]*\"" "" text "${text}")
file(WRITE ${OUT} "${text}")
