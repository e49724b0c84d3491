# SPDX-License-Identifier: MIT
# Finds what each part needs and sets URC_HAVE_* so options default to what can be built.
find_package(Threads REQUIRED)
find_package(PkgConfig)
find_package(Python3 COMPONENTS Interpreter)

find_package(OpenCL QUIET)
set(URC_HAVE_OPENCL ${OpenCL_FOUND})

# The CUDA adapter opens libcuda.so.1 at run time, so only cuda.h is needed to build it.
find_path(URC_CUDA_INCLUDE_DIR cuda.h
          HINTS ENV CUDA_HOME ENV CUDA_PATH
          PATHS /usr/local/cuda/include /usr/local/cuda/targets/x86_64-linux/include
          PATH_SUFFIXES include)
if(URC_CUDA_INCLUDE_DIR)
  set(URC_HAVE_CUDA_HEADERS ON)
else()
  set(URC_HAVE_CUDA_HEADERS OFF)
endif()
find_program(URC_NVCC nvcc HINTS ENV CUDA_HOME PATHS /usr/local/cuda/bin PATH_SUFFIXES bin)

find_path(URC_LEVEL_ZERO_INCLUDE_DIR level_zero/ze_api.h)
find_library(URC_LEVEL_ZERO_LIBRARY ze_loader)
if(URC_LEVEL_ZERO_INCLUDE_DIR AND URC_LEVEL_ZERO_LIBRARY)
  set(URC_HAVE_LEVEL_ZERO ON)
else()
  set(URC_HAVE_LEVEL_ZERO OFF)
endif()

if(PkgConfig_FOUND)
  pkg_check_modules(URC_CHECK QUIET check)
  pkg_check_modules(URC_YAML QUIET yaml-0.1)
endif()
